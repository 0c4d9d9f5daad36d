/**
 * The plugin's own commands, `pulumi-resource-rimuhosting <command> [flags]` (or `pulumi plugin run --kind resource
 * rimuhosting -- <command> [flags]`). The engine starts the plugin with its address as the first argument, never one
 * of these words, so a first argument that names a command runs that command instead of the provider.
 *
 * A command's code is a part (parts.ts), loaded only when the command runs: the provider's start-up loads none of it.
 * To add one: its part in parts.ts, a module exporting `run(args)`, and a row here.
 */
import { loadPart } from "./parts.js";

export interface PluginCommand {
  /** Runs the command with the arguments after its name; the process ends when the command is done with it. */
  run(args: string[]): Promise<void>;
}

export const COMMANDS: Record<string, () => PluginCommand> = {
  emulator: () => loadPart<PluginCommand>("emulator"),
  bill: () => loadPart<PluginCommand>("bill"),
};

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

/**
 * What the process's arguments (after the executable) ask for: a command, the provider (the engine's address first,
 * never a bare word), or a word that is no command (a typo: better said than taken for an address).
 */
export function commandOf(
  args: string[],
): { name: string; command: () => PluginCommand; args: string[] } | { unknown: string } | undefined {
  const [name, ...rest] = withoutEngineFlags(args);
  if (name === undefined) return undefined;
  if (Object.hasOwn(COMMANDS, name)) return { name, command: COMMANDS[name]!, args: rest };
  if (/^[a-z][a-z-]*$/.test(name)) return { unknown: name };
  return undefined;
}

/** The line for a word that is no command. */
export const unknownCommandMessage = (word: string): string =>
  `pulumi-resource-rimuhosting: unknown command '${word}'. Its commands: ${Object.keys(COMMANDS).join(", ")} ` +
  `(pulumi-resource-rimuhosting <command> --help); without one it is the provider, which the Pulumi engine starts.`;
