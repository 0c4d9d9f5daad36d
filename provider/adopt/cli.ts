#!/usr/bin/env node
/**
 * rimuhosting-import-file: writes the account's VPSs as a `pulumi import --file` document, so that one
 * `pulumi import --file` brings them all under a stack and writes the program that declares them
 * (docs/native-plugin.md#bring-an-existing-account-under-pulumi). The same code runs as
 * `pulumi-resource-rimuhosting import-file` in the self-contained plugin.
 *
 *   rimuhosting-import-file --out vpss.json && pulumi import --file vpss.json
 *
 * Exit codes: 0 when the document was written; 1 when no VPS is left to adopt (nothing written); 2 for wrong
 * arguments, a missing API key, a failed call, or a backend whose states could not be read (nothing written).
 */
import * as fs from "node:fs";
import * as tty from "node:tty";
import { domainToASCII } from "node:url";
import { commandLine, exitCodeOf, USAGE_EXIT, UsageError, walkOptions } from "../../contract/command-line.js";
import { DC_LOCATIONS } from "../../contract/literals.js";
import { createClient, RimuConfigError } from "../client/index.js";
import { CONFIG_KEYS, ENV_VARS, missingApiKeyMessage } from "../config.js";
import { presentError, VPS_ERROR_CODES, VpsError } from "../impl/engine/errors.js";
import { clientOptionsOf } from "../impl/engine/retry-settings.js";
import {
  inPulumiProject,
  ordersByStack,
  readBackendStates,
  type BackendStates,
} from "../impl/ownership/backend-states.js";
import { backendReadEnv } from "../impl/engine/backend-cli.js";
import { adoptionOf, type Adoption, type Selection } from "./import-document.js";
import { findSettings, StackSettingsError, type FoundSettings } from "./stack-settings.js";
import { stackResourceNames } from "./stack-names.js";

const USAGE = `Usage: rimuhosting-import-file [options]
  Writes the account's VPSs as a \`pulumi import --file\` document (to the file, or to standard output), one
  resource each, named after its domain name. Then \`pulumi import --file <file>\` adopts them all and writes
  the program that declares them.

    --dc <code>         only VPSs in this data centre (DCDALLAS, DCLONDON, ...); again for more
    --name <pattern>    only VPSs whose domain name matches (* any characters, ? one); again for more
    --include-managed   also VPSs a Pulumi stack manages (left out by default): one a stack created, or one
                        in the state of a stack of this project's backend (adopted or imported)
    --stack <stack>     read the API key from this stack's config (default: the selected stack)
    --out <file>        write the document here (default: standard output)

  The API key and address come from the stack's config (rimuhosting:apiKey, rimuhosting:baseUrl) when run in
  a Pulumi project, else from RIMUHOSTING_APIKEY and RIMUHOSTING_BASEURL; the retries and pace likewise
  (rimuhosting:retryLimit, rimuhosting:requestsPerSecond, else RIMUHOSTING_RETRYLIMIT and
  RIMUHOSTING_REQUESTSPERSECOND).

  The stacks' states are read with \`pulumi stack ls --all\` and \`pulumi stack export\` (in a Pulumi project only);
  when they cannot be, nothing is written (exit 2), unless --include-managed asks for every VPS.

  At a terminal with no option, it prints this help (exit 2) rather than the document on the screen.

  Exit code: 0 when the document was written; 1 when no VPS is left to adopt; 2 for wrong arguments, a
  missing API key, a failed call, or stacks' states that could not be read.`;

export interface ImportFileIo {
  /** Only whether it is a terminal matters (the command reads no input): see atTerminal. */
  stdin?: { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** The environment (`pulumi config` runs in it) and directory the settings are read from (default: this process's). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** This process's streams (standard input only as whether it is a terminal: the command never reads it). */
export const PROCESS_IO: ImportFileIo = {
  stdin: { isTTY: tty.isatty(0) },
  stdout: process.stdout,
  stderr: process.stderr,
};

/**
 * Run at a terminal (standard input and output both) with no option, the command would dump the document on the
 * screen, which nobody at a terminal wants: it says so with its help instead (on stderr, exit 2, as bill and drift
 * do). `> import.json`, a pipe, or `--out` write the document as before.
 */
function atTerminal(
  args: readonly string[],
  io: ImportFileIo,
  name: string,
  usage: string,
): number | undefined {
  const terminal = (stream: unknown) => (stream as { isTTY?: boolean } | undefined)?.isTTY === true;
  if (args.length > 0 || !terminal(io.stdin) || !terminal(io.stdout)) return undefined;
  io.stderr.write(
    `${name}: no options given, and standard output is a terminal: write the document to a file with ` +
      `--out <file> (or > <file>), or pipe it on.\n\n${usage}\n`,
  );
  return USAGE_EXIT;
}

interface Options extends Selection {
  stack?: string;
  out?: string;
}

function parseArgs(args: readonly string[]): Options {
  const options: Options = { dataCentres: [], names: [], includeManaged: false };
  const dcs: string[] = [];
  const names: string[] = [];
  walkOptions(
    args,
    {
      switches: ["--include-managed"],
      valued: ["--dc", "--name", "--stack", "--out"],
      positional: "the command takes options only (it reads no file)",
    },
    (flag, value = "") => {
      if (flag === "--include-managed") options.includeManaged = true;
      else if (flag === "--dc") {
        const code = value.toUpperCase();
        if (!(DC_LOCATIONS as readonly string[]).includes(code))
          throw new UsageError(
            `--dc ${value} is no RimuHosting data centre; use one of ${DC_LOCATIONS.join(", ")}`,
          );
        dcs.push(code);
      } else if (flag === "--name") names.push(value);
      else if (flag === "--stack") options.stack = value;
      else options.out = value;
    },
  );
  return { ...options, dataCentres: dcs, names };
}

/**
 * The client's refusal of a setting (`invalid client configuration: baseUrl must be …`, after its code), said of
 * the setting the user set, and how to fix it. Never the value: a URL refused for carrying credentials holds them.
 */
function settingRefused(error: RimuConfigError, baseUrlSource: string): string {
  const apiKey = error.fieldName === "apiKey";
  const setting = apiKey ? `the API key (${CONFIG_KEYS.apiKey} or ${ENV_VARS.apiKey})` : baseUrlSource;
  const problem = error.message
    .replace(/^(\[[A-Z_]+\]\s*)?invalid client configuration:\s*/, "")
    .replace(/^(baseUrl|apiKey)\s+/, "")
    .replace(/[.\s]+$/, "");
  const fix = apiKey
    ? "set it to your account's key"
    : "set it to the API's address, or to the emulator's (its banner prints it)";
  return `${setting} ${problem}; ${fix}.`;
}

/** A domain name as DNS writes it (an international name's punycode form), or a word saying there is none. */
function asciiForm(domainName: string): string {
  const ascii = domainToASCII(domainName);
  return ascii === "" ? "none, it is no domain name" : ascii;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const orderList = (orders: Adoption["leftOut"]) =>
  orders.map((o) => `${o.domainName} (order ${o.orderOid}: ${o.by})`).join(", ");

/** What the command says on stderr besides the document: what was left out and why, and what to run next. */
function report(adoption: Adoption, options: Options, name: string, states: BackendStates): string[] {
  const lines: string[] = [];
  const { leftOut, includedManaged, unnamable } = adoption;
  if (unnamable.length > 0)
    lines.push(
      `${name}: left out ${plural(unnamable.length, "VPS", "VPSs")} whose domain name is not a fully qualified ` +
        `domain name as RimuHosting's API documents it (letters, digits and hyphens; an international name in ` +
        `its punycode form, such as xn--caf-dma.example.com for café.example.com): ` +
        `${unnamable.map((o) => `${o.domainName} (order ${o.orderOid}, as DNS writes it: ${asciiForm(o.domainName)})`).join(", ")}. ` +
        `A program could not name it, so no preview of the stack would pass. Rename it to that form in ` +
        `RimuHosting's control panel if RimuHosting lets you, then run this again; or leave it outside Pulumi.`,
    );
  if (leftOut.length > 0)
    lines.push(
      `${name}: left out ${plural(leftOut.length, "VPS", "VPSs")} that a Pulumi stack manages: ` +
        `${orderList(leftOut)}. A VPS that two stacks manage gets changed back and forth. If no stack ` +
        `manages them any longer (its state forgot them with \`pulumi state delete\`), run again with ` +
        `--include-managed to adopt them.`,
    );
  if (includedManaged.length > 0)
    lines.push(
      `${name}: included, as --include-managed asks, ${plural(includedManaged.length, "VPS", "VPSs")} ` +
        `that a Pulumi stack manages: ${orderList(includedManaged)}. Make sure no other stack still manages ` +
        `them (\`pulumi state delete\` there), or both stacks will change them.`,
    );
  if (states.unread !== undefined)
    lines.push(
      `${name}: note: ${states.unread}. A VPS a stack adopted (adoptOrderOid) or imported carries no mark on its ` +
        `order, so only the VPSs a stack created were left out. Run this in the directory of a Pulumi project whose ` +
        `backend (\`pulumi login\`) holds your stacks to leave out the VPSs they manage.`,
    );
  const count = adoption.document.resources.length;
  if (count === 0) {
    const filtered = options.dataCentres.length + options.names.length > 0;
    lines.push(
      `${name}: no VPS to adopt: the account has ${filtered ? "none that the filters select" : "none"}` +
        `${leftOut.length > 0 ? " besides those left out" : ""}. Nothing was written.`,
    );
  } else {
    const file = options.out ?? "<file>";
    lines.push(
      `${name}: ${plural(count, "VPS", "VPSs")} to adopt${options.out ? `, written to ${options.out}` : ""}. ` +
        `Next: pulumi import --file ${file} (it writes the program that declares them).`,
    );
  }
  return lines;
}

/** Why no VPS was written when the backend's states could not be read, and what to do. */
function backendUnreadMessage(unread: string): string {
  return new VpsError(
    VPS_ERROR_CODES.backendUnread,
    `the states of the stacks in this project's backend could not be read: ${unread}. A VPS a stack adopted ` +
      `(adoptOrderOid) or imported carries no mark on its order, so no VPS could be checked, and none was ` +
      `written (run again with --include-managed to write every VPS unchecked).`,
  ).message;
}

/** The message when the state of the stack to import into cannot be read (its resources' names). */
function stackUnreadMessage(why: string, stack: string | undefined): string {
  return new VpsError(
    VPS_ERROR_CODES.backendUnread,
    `the state of ${stack === undefined ? "the selected stack" : `stack ${stack}`} could not be read: ${why}. ` +
      "Its resources' names are needed so that no VPS is given one of them, so none was written. Select the stack " +
      "to import into (`pulumi stack select`, or --stack), or create it (`pulumi stack init`).",
  ).message;
}

/**
 * Runs the command with `args` (what follows the command's name); resolves to the exit code. `name` is how the
 * user called it, for messages.
 */
export async function runImportFile(
  args: readonly string[],
  io: ImportFileIo = PROCESS_IO,
  name = "rimuhosting-import-file",
): Promise<number> {
  const usage = USAGE.replace(/rimuhosting-import-file/g, name);
  const line = commandLine(args, parseArgs, { name, usage, stdout: io.stdout, stderr: io.stderr });
  if ("exit" in line) return line.exit;
  const terminal = atTerminal(args, io, name, usage);
  if (terminal !== undefined) return terminal;
  const { options } = line;
  let settings: FoundSettings;
  try {
    settings = findSettings({ cwd: io.cwd, stack: options.stack, env: io.env });
  } catch (error) {
    if (!(error instanceof StackSettingsError)) throw error;
    io.stderr.write(`${name}: ${error.message}\n`);
    return 2;
  }
  const { config, baseUrlSource, retry } = settings;
  if (retry.problems.length > 0) {
    io.stderr.write(retry.problems.map((problem) => `${name}: ${problem}\n`).join(""));
    return USAGE_EXIT;
  }
  if (config.apiKey === undefined) {
    io.stderr.write(`${name}: ${missingApiKeyMessage("Listing the account's VPSs")}\n`);
    return 2;
  }
  let client: ReturnType<typeof createClient>;
  try {
    client = createClient({ ...config, ...clientOptionsOf(retry.settings) });
  } catch (error) {
    if (!(error instanceof RimuConfigError)) throw error;
    io.stderr.write(`${name}: ${settingRefused(error, baseUrlSource)}\n`);
    return USAGE_EXIT;
  }
  let adoption: Adoption;
  // The states first: a `pulumi` that hangs must not hold the API's connection open.
  const where = { cwd: io.cwd ?? process.cwd(), env: backendReadEnv(io.env ?? process.env) };
  const states = await readBackendStates(where);
  // In a project, a VPS a stack adopted or imported is told only by the states: unread, none can be checked, so
  // none is written (a second stack would manage it), unless --include-managed asks for every VPS anyway.
  if (states.unread !== undefined && inPulumiProject(where.cwd) && !options.includeManaged) {
    client.close();
    io.stderr.write(`${name}: ${backendUnreadMessage(states.unread)}\n`);
    return 2;
  }
  const stackNames = await stackResourceNames({ ...where, stack: options.stack });
  // Without the stack's names a VPS could be given one its resources have (`pulumi import` refuses the file).
  if (stackNames.why !== undefined) {
    client.close();
    io.stderr.write(`${name}: ${stackUnreadMessage(stackNames.why, options.stack)}\n`);
    return 2;
  }
  try {
    const { about_orders: orders } = await client.listOrders({ includeInactive: false });
    adoption = adoptionOf(orders ?? [], options, ordersByStack(states), stackNames);
  } catch (error) {
    io.stderr.write(
      `${name}: ${presentError(error, `Listing the account's VPSs at ${config.baseUrl} (${baseUrlSource})`, settings.name).message}\n`,
    );
    return 2;
  } finally {
    client.close();
  }
  const lines = report(adoption, options, name, states);
  if (adoption.document.resources.length > 0) {
    const text = `${JSON.stringify(adoption.document, null, 2)}\n`;
    if (options.out !== undefined) fs.writeFileSync(options.out, text);
    else io.stdout.write(text);
  }
  io.stderr.write(lines.map((line) => `${line}\n`).join(""));
  return adoption.document.resources.length > 0 ? 0 : 1;
}

if (require.main === module)
  void exitCodeOf(() => runImportFile(process.argv.slice(2)), "rimuhosting-import-file").then(
    (code) => (process.exitCode = code),
  );
