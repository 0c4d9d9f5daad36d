/**
 * `pulumi-resource-rimuhosting`: the engine starts this with its own address as the first argument and
 * reads the port to call from the first line of stdout (docs/native-plugin.md). bin/ and the packed plugin
 * start it with `node`. A first argument that names one of the plugin's commands (subcommands.ts, e.g.
 * `emulator`, `bill`) runs that command instead; `--help` and `--version` print and exit. So does a start without
 * arguments in a terminal: the engine never starts it so (it passes its address and reads stdout through a pipe), and a
 * person who did would otherwise see a bare port number and a process that waits forever.
 */
import { writeSync } from "node:fs";
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
  // The engine's address is its first argument after the logging flags it adds under `pulumi --logflow`. The port
  // goes straight to fd 1 as soon as the socket listens (serve() says why so early): the first use of process.stdout
  // builds its stream (a pipe socket, under the engine), which took about 2.7 ms of the first answer; the plugin
  // writes nothing else to stdout.
  const served = await serve(withoutEngineFlags(process.argv.slice(2))[0], (port) =>
    writeSync(1, `${port}\n`),
  );
  running.close = served.close;
}

function start(): void {
  main().catch((error: unknown) => {
    process.stderr.write(
      `pulumi-resource-rimuhosting failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}

/**
 * Built-ins the server loads when it first binds its port (net's listen loads cluster, http2 loads crypto and
 * assert, ...) that a startup snapshot can hold, unlike http, https, http2 and tls themselves.
 */
const SNAPSHOT_BUILTINS = [
  "assert",
  "child_process",
  "cluster",
  "crypto",
  "dgram",
  "dns/promises",
  "fs/promises",
];

/*
 * The release's linux-amd64 executable starts from a startup snapshot (tools/release/plugin-executable.ts): the
 * bundle runs once while the executable is made, and this is that run. It evaluates the server (gRPC, the
 * protocol's stubs, the schema) and the built-ins above into the snapshot, answers GetPluginInfo once with no
 * socket so that the snapshot holds that code compiled (fast-start.ts), serving nothing, and names start() as what
 * the executable runs when it starts from it. Everywhere else (bin/, the launcher, the other executables) the
 * plugin starts at once.
 */
const { startupSnapshot } = require("node:v8") as typeof import("node:v8");
if (startupSnapshot?.isBuildingSnapshot()) {
  const { compileFirstAnswer } = require("./fast-start.js") as typeof import("./fast-start.js");
  const { firstAnswerParts } = require("./server.js") as typeof import("./server.js");
  for (const builtin of SNAPSHOT_BUILTINS) require(`node:${builtin}`);
  startupSnapshot.setDeserializeMainFunction(start);
  // The snapshot is written once the event loop has run out, so after this has settled.
  compileFirstAnswer(...firstAnswerParts()).catch((error: unknown) => {
    process.stderr.write(`compiling the first answer into the snapshot failed: ${String(error)}\n`);
    process.exit(1);
  });
} else start();
