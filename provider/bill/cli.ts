#!/usr/bin/env node
/**
 * rimuhosting-bill: prints the bill of a preview as Markdown for a pull-request comment, one per stack (docs/cost.md,
 * docs/ci.md). With --stack it runs the stack's preview itself (run-preview.ts); otherwise it reads the event logs of
 * previews run with `--event-log` (a file per stack, or standard input). The same code runs as
 * `pulumi-resource-rimuhosting bill` in the self-contained plugin.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  commandLine,
  exitCodeOf,
  UnknownOptionError,
  USAGE_EXIT,
  UsageError,
} from "../../contract/command-line.js";
import { readSource, terminalWithoutFile, type CommandIo } from "./command-input.js";
import { billOf, type Bill } from "./bill.js";
import { billDocument, renderJson } from "./bill-json.js";
import { comparisonFor, loadBaselines, type Baselines } from "./baselines.js";
import { NotBaselineError } from "./compare.js";
import { NotPreviewLogError, parsePreviewLog } from "./event-log.js";
import { parseThreshold, type Threshold } from "./judge.js";
import { renderBill, renderQuiet } from "./markdown.js";
import { outcomeOf } from "./outcome.js";
import { PreviewNotStarted, runPreview } from "./run-preview.js";

/**
 * The exit codes (docs/cost.md): the bill is printed with 0 and 1; 2 prints only the message. A preview that --stack
 * ran and that failed is 1: its bill shows why.
 */
export const EXIT = { fine: 0, over: 1, badInput: USAGE_EXIT } as const;

const USAGE = `Usage: rimuhosting-bill [options] --stack <stack> [-- <preview flags>]
       rimuhosting-bill [options] [preview.events ...]
  Prints the bill of a preview as Markdown for a pull-request comment: the monthly change, each VPS that changes
  with its fee before and after, and the verdicts of the budgets, the thresholds and the policy packs; or, with
  --format json, the same figures as data (docs/cost.md, "The bill as data").

  With --stack, it runs the preview itself, in this directory (\`pulumi preview --stack <stack>\` with an event log
  of its own; its display goes to standard error), and bills it. Flags after -- go to the preview:

    rimuhosting-bill --stack prod -- --policy-pack ../policy-pack > bill.md

  Otherwise it reads the event log a preview wrote (from standard input when no file is given, or "-"). The
  Pulumi CLI has the --event-log flag only when PULUMI_DEBUG_COMMANDS=true:

    PULUMI_DEBUG_COMMANDS=true pulumi preview --stack prod --event-log prod.events
    rimuhosting-bill prod.events > bill.md

  Options:
    --stack <stack>        run the stack's preview and bill it; once per stack, several with --out-dir
    --warn-over <limit>    warn when the stack's monthly fees rise by more than <limit>
    --fail-over <limit>    fail (exit 1) when they rise by more than <limit>
    --quiet-under <limit>  print a short quiet bill when they change by less than <limit> and there is
                           nothing else to say (no warning, failure, error or VPS not priced)
    --out-dir <dir>        write one bill per stack, <dir>/<project>.<stack>.md (.json with --format json;
                           needed for several stacks)
    --format <format>      markdown (the default) or json
    --compare-to <bill>    compare with a JSON bill of the same stack made earlier (main's last one): each
                           VPS's fee and the total against it; a directory holds one per stack,
                           <project>.<stack>.json; may be given more than once
  A <limit> is USD a month (25, 7.50) or a percentage of the fees before (10%); each option may be given twice,
  once of each kind.

  Exit code: 0; 1 when a budget, a --fail-over limit or a mandatory policy fails, or a preview --stack ran
  fails (the bill is still printed); 2 when the input or the options are wrong, or a preview stopped before it
  previewed anything (a message, no bill).`;

interface Options {
  files: string[];
  /** --stack: the stacks whose previews the command runs (instead of reading files). */
  stacks: string[];
  /** What follows --: flags for each preview --stack runs. */
  previewArgs: string[];
  warn: Threshold[];
  fail: Threshold[];
  quiet: Threshold[];
  outDir?: string;
  format: "markdown" | "json";
  /** --compare-to: baselines' files or directories. */
  compareTo: string[];
}

function parseArgs(args: readonly string[]): Options {
  const options: Options = {
    files: [],
    stacks: [],
    previewArgs: [],
    warn: [],
    fail: [],
    quiet: [],
    format: "markdown",
    compareTo: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      options.previewArgs = args.slice(i + 1);
      break;
    }
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
    else if (flag === "--stack") options.stacks.push(value());
    else if (flag === "--compare-to") options.compareTo.push(value());
    else if (flag === "--format") {
      const format = value();
      if (format !== "markdown" && format !== "json")
        throw new UsageError(`--format ${JSON.stringify(format)} is not a format: give markdown or json`);
      options.format = format;
    } else if (arg.startsWith("-") && arg !== "-") throw new UnknownOptionError(flag);
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
  if (options.stacks.length > 0 && options.files.length > 0)
    throw new UsageError(
      `give --stack or event-log files (${options.files.join(", ")}), not both: --stack runs the preview itself`,
    );
  if (options.previewArgs.length > 0 && options.stacks.length === 0)
    throw new UsageError(
      `the flags after -- (${options.previewArgs.join(" ")}) are for the preview that --stack runs: add --stack <stack>`,
    );
  const many =
    options.stacks.length > 1 ? `${options.stacks.length} stacks` : `${options.files.length} files`;
  if (Math.max(options.files.length, options.stacks.length) > 1 && options.outDir === undefined)
    throw new UsageError(`${many} give one bill each: add --out-dir <dir> to write them`);
  if (options.files.filter((f) => f === "-").length > 1)
    throw new UsageError("standard input (-) can be read once");
  return options;
}

/** One stack's bill as the options ask (Markdown, quiet or in full, or JSON), and whether it fails. */
function billText(bill: Bill, options: Options, baselines: Baselines): { text: string; fails: boolean } {
  const outcome = outcomeOf(bill, options);
  const comparison = comparisonFor(bill, baselines, fileName(bill, "json"));
  const fails = outcome.status === "fail";
  if (options.format === "json") return { text: renderJson(billDocument(bill, outcome, comparison)), fails };
  if (outcome.quiet) return { text: renderQuiet(bill, outcome.quietUnder, comparison), fails };
  return { text: renderBill(bill, { thresholds: outcome.thresholds, comparison }), fails };
}

/** `shop.prod.md`: a file name for the stack's bill (characters a file name cannot hold replaced). */
const fileName = (bill: Bill, extension: "md" | "json"): string =>
  `${bill.project ?? "project"}.${bill.stack ?? "stack"}.${extension}`.replace(/[^\w.-]/g, "_");

const EXTENSION = { markdown: "md", json: "json" } as const;

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
  const line = commandLine(args, parseArgs, { name, usage, stdout: io.stdout, stderr: io.stderr, end: "." });
  if ("exit" in line) return line.exit;
  const { options } = line;
  if (options.stacks.length === 0) {
    const atTerminal = terminalWithoutFile(options.files, io, name, usage);
    if (atTerminal) return atTerminal.exit;
  }
  // The baselines before any preview runs: a wrong one ends the command before it spends a preview.
  let baselines: Baselines;
  try {
    baselines = loadBaselines(options.compareTo);
  } catch (error) {
    if (!(error instanceof NotBaselineError)) throw error;
    io.stderr.write(`${name}: ${error.message}\n`);
    return EXIT.badInput;
  }
  const bills: { bill: Bill; text: string; fails: boolean }[] = [];
  let previewFailed = false;
  for await (const read of inputs(options, io, name)) {
    if ("exit" in read) return read.exit;
    previewFailed ||= read.previewFailed;
    try {
      const bill = billOf(parsePreviewLog(read.text, read.source));
      const twin = bills.find((b) => fileName(b.bill, "md") === fileName(bill, "md"));
      if (twin) {
        io.stderr.write(
          `${name}: two files are previews of stack ${bill.project}/${bill.stack}: give one per stack.\n`,
        );
        return EXIT.badInput;
      }
      bills.push({ bill, ...billText(bill, options, baselines) });
    } catch (error) {
      if (!(error instanceof NotPreviewLogError || error instanceof NotBaselineError)) throw error;
      io.stderr.write(`${name}: ${error.message}\n`);
      return EXIT.badInput;
    }
  }
  if (options.outDir === undefined) io.stdout.write(bills[0]!.text);
  else {
    fs.mkdirSync(options.outDir, { recursive: true });
    const extension = EXTENSION[options.format];
    for (const b of bills) fs.writeFileSync(path.join(options.outDir, fileName(b.bill, extension)), b.text);
  }
  return previewFailed || bills.some((b) => b.fails) ? EXIT.over : EXIT.fine;
}

type Input = { text: string; source: string; previewFailed: boolean } | { exit: number };

/**
 * The event logs to bill, one at a time: of each --stack's preview, run now, or of each file (standard input when
 * there is none). A preview that cannot start, or stops before the engine writes anything, ends the command (2).
 */
async function* inputs(options: Options, io: CommandIo, name: string): AsyncGenerator<Input> {
  if (options.stacks.length === 0) {
    for (const file of options.files.length > 0 ? options.files : ["-"]) {
      const read = await readSource(file, io, name);
      yield "exit" in read ? read : { ...read, previewFailed: false };
    }
    return;
  }
  for (const stack of options.stacks) {
    let run;
    try {
      run = await runPreview(stack, options.previewArgs, io.stderr);
    } catch (error) {
      if (!(error instanceof PreviewNotStarted)) throw error;
      io.stderr.write(`${name}: ${error.message}.\n`);
      yield { exit: EXIT.badInput };
      return;
    }
    // Stopped before it finished (its event log has no summary): the cause is in its display, not in the log, so
    // the message quotes it rather than calling the log cut off.
    if (run.eventLog.trim() === "" || (run.exitCode !== 0 && !isWholePreview(run.eventLog))) {
      const cause =
        run.errors.length > 0 ? `, saying: ${run.errors.join(" ")}. Fix that` : ": fix what it says above";
      io.stderr.write(
        `${name}: \`pulumi preview --stack ${stack}\` stopped (exit ${run.exitCode ?? "by a signal"}) before it ` +
          `previewed anything${cause}, then run this again.\n`,
      );
      yield { exit: EXIT.badInput };
      return;
    }
    yield { text: run.eventLog, source: `the preview of stack ${stack}`, previewFailed: run.exitCode !== 0 };
  }
}

/** Whether `eventLog` is a whole preview's, one the bill can read. */
function isWholePreview(eventLog: string): boolean {
  try {
    parsePreviewLog(eventLog, "the preview");
    return true;
  } catch (error) {
    if (error instanceof NotPreviewLogError) return false;
    throw error;
  }
}

if (require.main === module)
  void exitCodeOf(() => runBill(process.argv.slice(2)), "rimuhosting-bill").then(
    (code) => (process.exitCode = code),
  );
