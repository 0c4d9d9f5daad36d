// Money and access: what a VPS costs before it exists, what a resize will cost before it happens, and
// what the bill did afterwards; plus the reverse DNS name of its address and SSH keys for root.
//
//   pulumi config set rimuhosting:apiKey <key> --secret
//   pulumi preview                   # web: new VPS: $10.00 a month (quoted by RimuHosting).
//   pulumi up                        # Vps 1234567: ordered money.example.com, billed $10.00 a month.
//   pulumi config set memoryMb 2048
//   pulumi preview                   # web: resize 1024 → 2048 MB: $10.00 → $16.00 a month (+$6.00)
//   pulumi up                        # Vps 1234567: resized memoryMb, …; the monthly fee went from $10.00 to $16.00 (+$6.00), …
//   pulumi destroy                   # Vps 1234567: shut down and cancelled, no longer billed (…); RimuHosting credited $… …
//
// The price lines are the provider's own output, shown by the CLI as diagnostics of the stack.
import * as pulumi from "@pulumi/pulumi";
import { Vps } from "pulumi-rimuhosting";

const config = new pulumi.Config();
const domainName = config.get("domainName") ?? "money.example.com";
/** Memory in MB: change it to see a resize priced in the preview. */
const memoryMb = config.getNumber("memoryMb") ?? 1024;
/** Your public keys (the .pub files), one per entry: `pulumi config set --path 'sshKeys[0]' "$(cat ~/.ssh/id_ed25519.pub)"`. */
const sshKeys = config.getObject<string[]>("sshKeys") ?? [
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFlWCSQwPzZ/O47lFS6VStUBcrGtkOpQAP+mb0awEyTE admin@example.com",
];

const web = new Vps("web", {
  domainName,
  dcLocation: "DCDALLAS",
  distro: "deb12.64",
  memoryMb,
  diskSpaceMb: 20480,
  // The PTR record of the primary address: mail servers want it to match the host name.
  reverseDns: config.get("reverseDns") ?? domainName,
  // Installed as /root/.ssh/authorized_keys; a later change reinstalls (needs allowReinstall: true).
  sshKeys,
});

export const ip = web.primaryIp;
export const reverseDns = web.reverseDns;
export const monthlyFeeUsd = web.monthlyFeeUsd;
export const memory = web.memoryMb;
