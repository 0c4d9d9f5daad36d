/**
 * `pulumi-resource-rimuhosting drift [refresh.json]`: the npm package's `rimuhosting-drift` command (cli.ts), run by
 * the plugin for users without Node.js. A part of the plugin (provider/native/parts.ts), loaded only for this command.
 */
import { runDrift } from "./cli.js";

export async function run(args: string[]): Promise<void> {
  process.exitCode = await runDrift(args, process, "pulumi-resource-rimuhosting drift");
}
