/**
 * `pulumi-resource-rimuhosting import-file [flags]`: the npm package's `rimuhosting-import-file` command (cli.ts),
 * run by the plugin for users without Node.js. It is a part of the plugin (provider/native/parts.ts), bundled on
 * its own and loaded only for this command.
 */
import { exitCodeOf } from "../../contract/command-line.js";
import { PROCESS_IO, runImportFile } from "./cli.js";

export async function run(args: string[]): Promise<void> {
  const name = "pulumi-resource-rimuhosting import-file";
  // The npm command's exit codes, a thrown error's too (exitCodeOf), not the plugin's "failed to start".
  process.exitCode = await exitCodeOf(() => runImportFile(args, PROCESS_IO, name), name);
}
