/**
 * What every command of the package says about its command line, worded once: rimuhosting-bill, -drift,
 * -import-file and -emulator, and the plugin's subcommands, which run the same code under the plugin's name. Here,
 * in contract/, because the emulator's command and the provider's both say it and neither imports the other.
 * Zod-free, like literals.ts: the commands load it at start.
 */

/** The exit code of a command line that is wrong (an unknown option, a missing value, bad settings): no output. */
export const USAGE_EXIT = 2;

const unknownOption = (option: string): string => `unknown option '${option}'`;

/** A parser's way to say it met an option the command does not have; the command words it (unknownOptionMessage). */
export class UnknownOptionError extends Error {
  constructor(readonly option: string) {
    super(unknownOption(option));
    this.name = "UnknownOptionError";
  }
}

/**
 * The line for an option the command does not have: `command` as the user typed it (`rimuhosting-bill`,
 * `pulumi-resource-rimuhosting bill`), `option` as given without its value (`--out` of `--out=x`), and where the
 * command's options are listed.
 */
export const unknownOptionMessage = (command: string, option: string): string =>
  `${command}: ${unknownOption(option)}; \`${command} --help\` lists its options.`;

/**
 * A command's exit code, the same from the npm command and the plugin's subcommand that runs its code: what `run`
 * resolves to, or, when it throws (a failure no message of the command foresaw), USAGE_EXIT with the error's
 * message under the command's name on stderr, no stack trace. (The plugin's own handler would say "failed to start"
 * and exit 1.)
 */
export async function exitCodeOf(
  run: () => Promise<number>,
  command: string,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  try {
    return await run();
  } catch (error) {
    stderr.write(`${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return USAGE_EXIT;
  }
}
