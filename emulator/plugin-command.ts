/**
 * `pulumi-resource-rimuhosting emulator [flags]`: the npm package's `rimuhosting-emulator` command (cli.ts), run by
 * the plugin. It is a part of the plugin, bundled with fastify on its own and loaded only for this command
 * (provider/native/parts.ts), so the provider's start-up does not pay for it.
 */
import { runEmulatorCommand } from "./cli.js";
import { startEmulator } from "./index.js";

export function run(args: string[]): Promise<void> {
  return runEmulatorCommand(args, "pulumi-resource-rimuhosting emulator", () => startEmulator);
}
