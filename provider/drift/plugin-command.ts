/**
 * `pulumi-resource-rimuhosting drift [refresh.json]`: the npm package's `rimuhosting-drift` command (cli.ts), run by
 * the plugin for users without Node.js. A part of the plugin (provider/native/parts.ts), loaded only for this command.
 */
import { exitCodeOf } from "../../contract/command-line.js";
import { runDrift } from "./cli.js";

export async function run(args: string[]): Promise<void> {
  const name = "pulumi-resource-rimuhosting drift";
  // The npm command's exit codes, a thrown error's too (exitCodeOf), not the plugin's "failed to start".
  process.exitCode = await exitCodeOf(() => runDrift(args, process, name), name);
}
