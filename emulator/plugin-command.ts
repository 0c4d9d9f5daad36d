/**
 * `pulumi-resource-rimuhosting emulator [flags]`: the npm package's `rimuhosting-emulator` command (cli.ts), run by
 * the plugin. It is a part of the plugin, bundled with fastify on its own and loaded only for this command
 * (provider/native/parts.ts), so the provider's start-up does not pay for it.
 */
import { runEmulatorCommand } from "./cli.js";
import { startEmulator } from "./index.js";

/**
 * Under `pulumi plugin run` (which gives its plugin PULUMI_RPC_TARGET), ends with the CLI: a CLI that is sent SIGTERM
 * exits without passing it on, and the emulator would go on holding its port. Ctrl-C reaches both anyway.
 */
function endWithPulumiPluginRun(): void {
  if (!process.env.PULUMI_RPC_TARGET) return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, "SIGTERM");
  }, 500).unref();
}

export async function run(args: string[]): Promise<void> {
  await runEmulatorCommand(args, "pulumi-resource-rimuhosting emulator", () => startEmulator);
  endWithPulumiPluginRun();
}
