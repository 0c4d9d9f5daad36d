/**
 * @pulumi/pulumi as a part of the plugin (parts.ts): the release's executables and the launcher tarball carry it as
 * a bundle of its own, which the plugin's bundle loads in its place (pack.ts, `pulumiAsPart`). Only the functions
 * (the data sources: their Output forms and their errors) use it, so it loads with the first Invoke, and the
 * plugin's start does not carry its 3.1 MB of code: in the linux-amd64 startup snapshot, that text made the first
 * answer about 2 ms slower (docs/releasing.md, "Start-up").
 */
import pulumi = require("@pulumi/pulumi");

export = pulumi;
