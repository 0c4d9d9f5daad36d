/**
 * `pulumi-resource-rimuhosting killed-orders [flags]`: the npm package's `rimuhosting-killed-orders` command
 * (killed-orders.ts), run by the plugin for users without Node.js. A part of the plugin (provider/native/parts.ts),
 * loaded only for this command.
 */
import { exitCodeOf } from "../../contract/command-line.js";
import { runKilledOrders } from "./killed-orders.js";

export async function run(args: string[]): Promise<void> {
  const name = "pulumi-resource-rimuhosting killed-orders";
  process.exitCode = await exitCodeOf(
    () => runKilledOrders(args, { stdout: process.stdout, stderr: process.stderr }, name),
    name,
  );
}
