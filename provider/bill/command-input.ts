/**
 * What the package's commands that read a run's output share (rimuhosting-bill, rimuhosting-drift): `--help`, a
 * file argument (or standard input), the messages and exit code 2 for wrong arguments and a file that cannot be
 * read, and how a message names a field of what was read. Each command then parses and renders what it read.
 */
import * as fs from "node:fs";
import { unknownOptionMessage, USAGE_EXIT } from "../../contract/command-line.js";

/** What a command reads and writes (the plugin's subcommands and tests pass their own). */
export interface CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * When no file is given and standard input is a terminal, the command would wait, silently, for a person to type
 * a run's output: it says so with its help instead (on stderr, as for wrong arguments) and exit code 2. "-" still
 * reads the terminal, for whoever asks for it. Undefined otherwise (a file given, or input piped in).
 */
export function terminalWithoutFile(
  files: readonly string[],
  io: CommandIo,
  name: string,
  help: string,
): { exit: number } | undefined {
  if (files.length > 0 || (io.stdin as { isTTY?: boolean }).isTTY !== true) return undefined;
  io.stderr.write(
    `${name}: no file given, and standard input is a terminal: give the file to read, or pipe it in ` +
      `("-" reads what you type).\n\n${help}\n`,
  );
  return { exit: USAGE_EXIT };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The text the command is to read and where it came from (`source`: the file's name, or "standard input"), or the
 * exit code when it is done already (after `--help`: 0; wrong arguments or an unreadable file: 2, said on stderr).
 * `name` is how the user called the command; `usage` its help, written with `command` as its name.
 */
export async function commandInput(
  args: readonly string[],
  io: CommandIo,
  name: string,
  usage: { text: string; command: string },
): Promise<{ text: string; source: string } | { exit: number }> {
  const help = usage.text.split(usage.command).join(name);
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${help}\n`);
    return { exit: 0 };
  }
  const unknown = args.find((arg) => arg.startsWith("-") && arg !== "-");
  if (unknown !== undefined || args.length > 1) {
    const line =
      unknown !== undefined
        ? unknownOptionMessage(name, unknown.split("=")[0]!)
        : `${name}: one file at most, got ${args.length}.`;
    io.stderr.write(`${line}\n\n${help}\n`);
    return { exit: USAGE_EXIT };
  }
  return terminalWithoutFile(args, io, name, help) ?? readSource(args[0], io, name);
}

/**
 * The text of `file` (standard input when it is undefined or "-"), and where it came from; or exit code 2 when it
 * cannot be read, said on stderr.
 */
export async function readSource(
  file: string | undefined,
  io: CommandIo,
  name: string,
): Promise<{ text: string; source: string } | { exit: number }> {
  const path = file !== undefined && file !== "-" ? file : undefined;
  try {
    const text = path !== undefined ? fs.readFileSync(path, "utf8") : await readAll(io.stdin);
    return { text, source: path ?? "standard input" };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "there is no such file" : (error as Error).message;
    io.stderr.write(`${name}: cannot read ${path ?? "standard input"}: ${why}.\n`);
    return { exit: 2 };
  }
}

/** `steps[2].urn` for zod's path ["steps", 2, "urn"]. */
export function pathText(path: readonly PropertyKey[]): string {
  const text = path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
  return text.replace(/^\./, "") || "the whole file";
}
