/**
 * `pulumi-resource-rimuhosting`: the engine starts this with its own address as the first argument and
 * reads the port to call from the first line of stdout (docs/native-plugin.md). bin/ and the packed plugin
 * start it with `node`. A first argument that names one of the plugin's commands (subcommands.ts, e.g.
 * `emulator`, `bill`) runs that command instead; `--help` and `--version` print and exit. So does a start without
 * arguments in a terminal: the engine never starts it so (it passes its address and reads stdout through a pipe), and a
 * person who did would otherwise see a bare port number and a process that waits forever.
 */
import { commandOf, helpText, unknownCommandMessage, withoutEngineFlags } from "./subcommands.js";

/** The oldest Node.js the plugin is tested on (package.json "engines"). */
const NODE_MAJOR = 22;

/** The plugin's version (what GetPluginInfo answers), read without loading the server. */
function pluginVersion(): string {
  const { version } = require("./schema.json") as { version: string };
  return `pulumi-resource-rimuhosting ${version}`;
}

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
  if (command && "print" in command) {
    process.stdout.write(`${command.print === "help" ? helpText() : pluginVersion()}\n`);
    process.exit(0);
  }
  if (!command && withoutEngineFlags(process.argv.slice(2)).length === 0 && process.stdout.isTTY) {
    process.stderr.write(
      "pulumi-resource-rimuhosting: no command. The Pulumi engine starts the provider itself; in a terminal, " +
        `give one of the commands below.\n\n${helpText()}\n`,
    );
    process.exit(2);
  }
  if (command && "unknown" in command) {
    process.stderr.write(`${unknownCommandMessage(command.unknown)}\n`);
    process.exit(2);
  }
  if (command) return command.command().run(command.args);
  // The provider's server, loaded only when the plugin is the provider (a command needs none of it).
  const { serve } = require("./server.js") as typeof import("./server.js");
  // The engine ends plugins with SIGINT or SIGTERM (after Cancel); finish the calls in flight, then go. Listened
  // for before the port is printed: an engine (or a test) that stops the plugin as soon as it reads the port must
  // not find Node's default, which ends the process by the signal.
  const running: { close?: () => Promise<void> } = {};
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => void (running.close?.() ?? Promise.resolve()).then(() => process.exit(0)));
  // The engine's address is its first argument after the logging flags it adds under `pulumi --logflow`.
  const served = await serve(withoutEngineFlags(process.argv.slice(2))[0]);
  running.close = served.close;
  process.stdout.write(`${served.port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `pulumi-resource-rimuhosting failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
