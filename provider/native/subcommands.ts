/**
 * The plugin's own commands, `pulumi-resource-rimuhosting <command> [flags]` (or `pulumi plugin run --kind resource
 * rimuhosting -- <command> [flags]`). The engine starts the plugin with its address as the first argument, never one
 * of these words, so a first argument that names a command runs that command instead of the provider.
 *
 * A command's code is a part (parts.ts), loaded only when the command runs: the provider's start-up loads none of it.
 * To add one: its part in parts.ts, a module exporting `run(args)`, and a row here.
 */
import { unknownOptionMessage } from "../../contract/command-line.js";
import { loadPart } from "./parts.js";

export interface PluginCommand {
  /** Runs the command with the arguments after its name; the process ends when the command is done with it. */
  run(args: string[]): Promise<void>;
}

/** What each command does, for the plugin's `--help` (one line each; the command's own `--help` says more). */
export const COMMAND_SUMMARIES: Record<keyof typeof COMMANDS, string> = {
  emulator: "runs the local emulator of the RimuHosting API, for trying programs without an account",
  bill: "prints the bill of a preview (run with --stack, or its --event-log) as Markdown for a pull-request comment",
  drift: "prints what changed outside Pulumi, from `pulumi refresh --preview-only --json`",
  "import-file": "writes the account's VPSs as a `pulumi import --file` document",
  "killed-orders": "cancels the orders a killed `pulumi up` left in no state, where `pulumi destroy` cannot",
};

export const COMMANDS = {
  emulator: () => loadPart<PluginCommand>("emulator"),
  bill: () => loadPart<PluginCommand>("bill"),
  drift: () => loadPart<PluginCommand>("drift"),
  "import-file": () => loadPart<PluginCommand>("import-file"),
  "killed-orders": () => loadPart<PluginCommand>("killed-orders"),
} satisfies Record<string, () => PluginCommand>;

/**
 * The flags the engine puts before a plugin's own arguments when it is asked to (`--logflow`, `--tracing`): a command
 * word after them is still the command.
 */
export function withoutEngineFlags(args: string[]): string[] {
  let i = 0;
  while (i < args.length) {
    if (args[i] === "--logtostderr" || /^-v=\d+$/.test(args[i]!)) i += 1;
    else if (args[i] === "--tracing") i += 2;
    else break;
  }
  return args.slice(i);
}

/** The plugin's own flags, which print and exit. */
const HELP = new Set(["--help", "-h", "help"]);
const VERSION = new Set(["--version", "version"]);

/**
 * What the process's arguments (after the executable) ask for: a command, the help or the version, the provider (the
 * engine's address first, never a bare word or a flag), or a word or flag that is none of these (a typo: better said
 * than taken for an address, where the provider would wait for an engine that never comes).
 */
export function commandOf(
  args: string[],
):
  | { name: string; command: () => PluginCommand; args: string[] }
  | { unknown: string }
  | { print: "help" | "version" }
  | undefined {
  const [name, ...rest] = withoutEngineFlags(args);
  if (name === undefined) return undefined;
  if (HELP.has(name)) return { print: "help" };
  if (VERSION.has(name)) return { print: "version" };
  if (Object.hasOwn(COMMANDS, name))
    return { name, command: COMMANDS[name as keyof typeof COMMANDS], args: rest };
  if (/^[a-z][a-z-]*$/.test(name) || name.startsWith("-")) return { unknown: name };
  return undefined;
}

/** `pulumi-resource-rimuhosting --help`: what the plugin is, how it starts, its commands. */
export function helpText(): string {
  const names = Object.keys(COMMANDS) as (keyof typeof COMMANDS)[];
  const width = Math.max(...names.map((name) => name.length));
  return [
    "Usage: pulumi-resource-rimuhosting <command> [options]",
    "",
    "The native Pulumi provider for RimuHosting VPSs. The Pulumi engine starts it with its own address as",
    "the only argument and reads the port it serves on from its first line of output; you run it yourself",
    "for one of its commands:",
    "",
    ...names.map((name) => `  ${name.padEnd(width)}  ${COMMAND_SUMMARIES[name]}`),
    "",
    "  --help, -h   this text",
    "  --version    the plugin's version",
    "",
    "Each command's options: pulumi-resource-rimuhosting <command> --help",
  ].join("\n");
}

/** The line for a word that is no command, or a flag that is none of the plugin's (worded as every command words it). */
export const unknownCommandMessage = (word: string): string =>
  `${
    word.startsWith("-")
      ? unknownOptionMessage("pulumi-resource-rimuhosting", word.split("=")[0]!)
      : `pulumi-resource-rimuhosting: unknown command '${word}'.`
  } Its commands: ${Object.keys(COMMANDS).join(", ")} ` +
  `(pulumi-resource-rimuhosting <command> --help); without one it is the provider, which the Pulumi engine starts.`;
