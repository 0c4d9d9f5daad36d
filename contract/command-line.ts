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

/** What is wrong with a command line, in the command's words (`--stack needs a value`), said under its name. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Walks `args` as `--flag`, `--flag value` and `--flag=value`, calling `take` for each: a `switches` flag (given no
 * value), a `valued` one with its value (missing or empty: a UsageError). Any other flag is an UnknownOptionError; an
 * argument that is no flag a UsageError, `'<it>' is no option: <positional>`. For commands that take options only.
 */
export function walkOptions(
  args: readonly string[],
  flags: { switches: readonly string[]; valued: readonly string[]; positional: string },
  take: (flag: string, value?: string) => void,
): void {
  for (let i = 0; i < args.length; i += 1) {
    const [flag, inline] = args[i]!.startsWith("--") ? args[i]!.split(/=(.*)/s, 2) : [args[i]!];
    if (flags.switches.includes(flag!) && inline === undefined) take(flag!);
    else if (flags.valued.includes(flag!)) {
      const value = inline ?? args[++i];
      if (value === undefined || value === "") throw new UsageError(`${flag} needs a value`);
      take(flag!, value);
    } else if (flag!.startsWith("-")) throw new UnknownOptionError(flag!);
    else throw new UsageError(`'${flag}' is no option: ${flags.positional}`);
  }
}

/**
 * How every command's run begins: `--help` or `-h` anywhere prints `usage` on stdout (exit 0); otherwise the options
 * `parse` makes of `args`, or, when it throws a UsageError or an UnknownOptionError, that line under the command's
 * `name` (a UsageError's words ending with `end`), the usage after it, on stderr, and USAGE_EXIT.
 */
export function commandLine<T>(
  args: readonly string[],
  parse: (args: readonly string[]) => T,
  said: {
    name: string;
    usage: string;
    stdout: NodeJS.WritableStream;
    stderr: NodeJS.WritableStream;
    end?: string;
  },
): { options: T } | { exit: number } {
  if (args.includes("--help") || args.includes("-h")) {
    said.stdout.write(`${said.usage}\n`);
    return { exit: 0 };
  }
  try {
    return { options: parse(args) };
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof UnknownOptionError)) throw error;
    const line =
      error instanceof UnknownOptionError
        ? unknownOptionMessage(said.name, error.option)
        : `${said.name}: ${error.message}${said.end ?? ""}`;
    said.stderr.write(`${line}\n\n${said.usage}\n`);
    return { exit: USAGE_EXIT };
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
