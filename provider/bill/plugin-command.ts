/**
 * `pulumi-resource-rimuhosting bill --stack <stack>` (or `bill [preview.events]`): the npm package's
 * `rimuhosting-bill` command (cli.ts), run by the plugin for users without Node.js. It is a part of the plugin (provider/native/parts.ts), bundled on its own
 * and loaded only for this command.
 */
import { runBill } from "./cli.js";

export async function run(args: string[]): Promise<void> {
  process.exitCode = await runBill(args, process, "pulumi-resource-rimuhosting bill");
}
