/**
 * `pulumi-resource-rimuhosting import-file [flags]`: the npm package's `rimuhosting-import-file` command (cli.ts),
 * run by the plugin for users without Node.js. It is a part of the plugin (provider/native/parts.ts), bundled on
 * its own and loaded only for this command.
 */
import { runImportFile } from "./cli.js";

export async function run(args: string[]): Promise<void> {
  process.exitCode = await runImportFile(
    args,
    { stdout: process.stdout, stderr: process.stderr },
    "pulumi-resource-rimuhosting import-file",
  );
}
