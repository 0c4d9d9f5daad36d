#!/usr/bin/env node
/**
 * rimuhosting-bill: reads the event log of `pulumi preview --event-log <file>` (a file per stack, or standard
 * input) and prints the bill as Markdown for a pull-request comment, one per stack (docs/cost.md, docs/ci.md).
 * The same code runs as `pulumi-resource-rimuhosting bill` in the self-contained plugin.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  exitCodeOf,
  UnknownOptionError,
  unknownOptionMessage,
  USAGE_EXIT,
} from "../../contract/command-line.js";
import { readSource, terminalWithoutFile, type CommandIo } from "./command-input.js";
import { billOf, type Bill } from "./bill.js";
import { NotPreviewLogError, parsePreviewLog } from "./event-log.js";
import { isUnder, judgeThresholds, parseThreshold, thresholdText, type Threshold } from "./judge.js";
import { changeOf, renderBill, renderQuiet } from "./markdown.js";
import { isMandatory } from "./policy-lines.js";

/** The exit codes (docs/cost.md): the bill is printed with 0 and 1; 2 prints only the message. */
export const EXIT = { fine: 0, over: 1, badInput: USAGE_EXIT } as const;

const USAGE = `Usage: rimuhosting-bill [options] [preview.events ...]
  Reads the event log of a preview (\`pulumi preview --event-log preview.events\`; from standard input when no
  file is given and it is piped in, or "-") and prints the bill of the run as Markdown for a pull-request
  comment: the monthly change, each VPS that changes with its fee before and after, and the verdicts of the
  budgets, the thresholds and the policy packs.

    pulumi preview --stack prod --event-log prod.events
    rimuhosting-bill prod.events > bill.md

  Options:
    --warn-over <limit>    warn when the stack's monthly fees rise by more than <limit>
    --fail-over <limit>    fail (exit 1) when they rise by more than <limit>
    --quiet-under <limit>  print a short quiet bill when they change by less than <limit> and there is
                           nothing else to say (no warning, failure, error or VPS not priced)
    --out-dir <dir>        write one bill per stack, <dir>/<project>.<stack>.md (needed for several files)
  A <limit> is USD a month (25, 7.50) or a percentage of the fees before (10%); each option may be given twice,
  once of each kind.

  Exit code: 0; 1 when a budget, a --fail-over limit or a mandatory policy fails (the bill is still printed);
  2 when the input or the options are wrong (a message, no bill).`;

class UsageError extends Error {}

interface Options {
  files: string[];
  warn: Threshold[];
  fail: Threshold[];
  quiet: Threshold[];
  outDir?: string;
}

function parseArgs(args: readonly string[]): Options {
  const options: Options = { files: [], warn: [], fail: [], quiet: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? args[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const limit = (): Threshold => {
      const text = value();
      const t = parseThreshold(text);
      if (!t)
        throw new UsageError(
          `${flag} ${JSON.stringify(text)} is not a limit: give USD a month in digits (25, 7.50) or a percentage (10%)`,
        );
      return t;
    };
    if (flag === "--warn-over") options.warn.push(limit());
    else if (flag === "--fail-over") options.fail.push(limit());
    else if (flag === "--quiet-under") options.quiet.push(limit());
    else if (flag === "--out-dir") options.outDir = value();
    else if (arg.startsWith("-") && arg !== "-") throw new UnknownOptionError(flag);
    else options.files.push(arg);
  }
  for (const [name, list] of [
    ["--warn-over", options.warn],
    ["--fail-over", options.fail],
    ["--quiet-under", options.quiet],
  ] as const)
    if (list.filter((t) => "cents" in t).length > 1 || list.filter((t) => "percent" in t).length > 1)
      throw new UsageError(
        `${name} is given twice of one kind: give it at most once as an amount and once as a percentage`,
      );
  if (options.files.length > 1 && options.outDir === undefined)
    throw new UsageError(
      `${options.files.length} files give one bill each: add --out-dir <dir> to write them`,
    );
  if (options.files.filter((f) => f === "-").length > 1)
    throw new UsageError("standard input (-) can be read once");
  return options;
}

/** One stack's bill: its Markdown (or the quiet one) and whether it fails. */
function billText(bill: Bill, options: Options): { text: string; fails: boolean } {
  const change = changeOf(bill);
  const thresholds = judgeThresholds(change, { warn: options.warn, fail: options.fail });
  const statuses = [...bill.budgets.map((b) => b.status), thresholds.status];
  const mandatory = bill.policies.some(isMandatory);
  const fails = statuses.includes("fail") || mandatory;
  const calm =
    !fails &&
    !statuses.includes("warn") &&
    // A stack over a budget is said in full, even when this run (lowering or keeping it) passes.
    !bill.budgets.some((b) => b.overButNotBlocked) &&
    bill.policies.length === 0 &&
    !bill.stoppedEarly &&
    change.unpriced.length === 0 &&
    options.quiet.length > 0 &&
    options.quiet.every((t) => isUnder(change, t));
  if (calm) return { text: renderQuiet(bill, options.quiet.map(thresholdText).join(" and ")), fails };
  return { text: renderBill(bill, { thresholds }), fails };
}

/** `shop.prod.md`: a file name for the stack's bill (characters a file name cannot hold replaced). */
const fileName = (bill: Bill): string =>
  `${bill.project ?? "project"}.${bill.stack ?? "stack"}.md`.replace(/[^\w.-]/g, "_");

/**
 * Runs the command with `args` (what follows the command's name); resolves to the exit code. `name` is how the
 * user called it, for messages.
 */
export async function runBill(
  args: readonly string[],
  io: CommandIo = process,
  name = "rimuhosting-bill",
): Promise<number> {
  const usage = USAGE.replace(/rimuhosting-bill/g, name);
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${usage}\n`);
    return EXIT.fine;
  }
  let options: Options;
  try {
    options = parseArgs(args);
  } catch (error) {
    if (error instanceof UnknownOptionError) {
      io.stderr.write(`${unknownOptionMessage(name, error.option)}\n\n${usage}\n`);
      return EXIT.badInput;
    }
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${name}: ${error.message}.\n\n${usage}\n`);
    return EXIT.badInput;
  }
  const atTerminal = terminalWithoutFile(options.files, io, name, usage);
  if (atTerminal) return atTerminal.exit;
  const sources = options.files.length > 0 ? options.files : ["-"];
  const bills: { bill: Bill; text: string; fails: boolean }[] = [];
  for (const file of sources) {
    const input = await readSource(file, io, name);
    if ("exit" in input) return EXIT.badInput;
    try {
      const bill = billOf(parsePreviewLog(input.text, input.source));
      const twin = bills.find((b) => fileName(b.bill) === fileName(bill));
      if (twin) {
        io.stderr.write(
          `${name}: two files are previews of stack ${bill.project}/${bill.stack}: give one per stack.\n`,
        );
        return EXIT.badInput;
      }
      bills.push({ bill, ...billText(bill, options) });
    } catch (error) {
      if (!(error instanceof NotPreviewLogError)) throw error;
      io.stderr.write(`${name}: ${error.message}\n`);
      return EXIT.badInput;
    }
  }
  if (options.outDir === undefined) io.stdout.write(bills[0]!.text);
  else {
    fs.mkdirSync(options.outDir, { recursive: true });
    for (const b of bills) fs.writeFileSync(path.join(options.outDir, fileName(b.bill)), b.text);
  }
  return bills.some((b) => b.fails) ? EXIT.over : EXIT.fine;
}

if (require.main === module)
  void exitCodeOf(() => runBill(process.argv.slice(2)), "rimuhosting-bill").then(
    (code) => (process.exitCode = code),
  );
