// The ready-made pack: every policy mandatory. Set the limits (and any policy's enforcement level) with
// `pulumi preview --policy-pack <this directory> --policy-pack-config <file.json>`; README.md shows the file.
import { RimuHostingGuard } from "./rimuhosting-guard";

new RimuHostingGuard({ all: "mandatory" });
