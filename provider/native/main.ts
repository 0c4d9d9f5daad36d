/**
 * `pulumi-resource-rimuhosting`: the engine starts this with its own address as the first argument and
 * reads the port to call from the first line of stdout (docs/native-plugin.md). bin/ and the packed plugin
 * start it with `node`. A first argument that names one of the plugin's commands (subcommands.ts, e.g.
 * `emulator`, `bill`) runs that command instead.
 */
import { commandOf, unknownCommandMessage, withoutEngineFlags } from "./subcommands.js";

/** The oldest Node.js the plugin is tested on (package.json "engines"). */
const NODE_MAJOR = 22;

async function main(): Promise<void> {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < NODE_MAJOR) {
    process.stderr.write(
      `pulumi-resource-rimuhosting needs Node.js ${NODE_MAJOR} or later, and the node on PATH is ${process.version}. ` +
        `Put a newer node first on PATH.\n`,
    );
    process.exit(1);
  }
  const command = commandOf(process.argv.slice(2));
  if (command && "unknown" in command) {
    process.stderr.write(`${unknownCommandMessage(command.unknown)}\n`);
    process.exit(2);
  }
  if (command) return command.command().run(command.args);
  // The provider's server, loaded only when the plugin is the provider (a command needs none of it).
  const { serve } = require("./server.js") as typeof import("./server.js");
  // The engine's address is its first argument after the logging flags it adds under `pulumi --logflow`.
  const { port, close } = await serve(withoutEngineFlags(process.argv.slice(2))[0]);
  process.stdout.write(`${port}\n`);
  // The engine ends plugins with SIGINT or SIGTERM (after Cancel); finish the calls in flight, then go.
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => void close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `pulumi-resource-rimuhosting failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
