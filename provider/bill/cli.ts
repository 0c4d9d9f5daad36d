#!/usr/bin/env node
/**
 * rimuhosting-bill: reads what `pulumi preview --json` printed (a file, or standard input) and prints the bill
 * as Markdown for a pull-request comment (docs/cost.md, docs/ci.md). The same code runs as
 * `pulumi-resource-rimuhosting bill` in the self-contained plugin.
 *
 *   pulumi preview --json --show-sames > preview.json; rimuhosting-bill preview.json > bill.md
 *
 * Exit codes, as Infracost's: 0; 1 when the budget's verdict fails (the bill is printed all the same); 2 when
 * the input is not a preview's JSON or the arguments are wrong.
 */
import * as fs from "node:fs";
import { billOf } from "./bill.js";
import { renderBill } from "./markdown.js";
import { NotPreviewJsonError, parsePreviewJson } from "./preview-json.js";

const USAGE = `Usage: rimuhosting-bill [preview.json]
  Reads the JSON that \`pulumi preview --json\` prints (from the file, or from standard input when none is
  given or it is "-") and prints the bill of the run as Markdown, for a pull-request comment: each VPS's
  change with its monthly fee before and after, credits, the stack's totals and the budget's verdict.

    pulumi preview --json --show-sames > preview.json
    rimuhosting-bill preview.json > bill.md

  Exit code: 0; 1 when the budget's verdict fails (the bill is still printed); 2 when the input is not a
  preview's JSON.`;

/** What the command reads and writes (the plugin's subcommand and tests pass their own). */
export interface BillIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Runs the command with `args` (what follows the command's name); resolves to the exit code. `name` is how the
 * user called it, for messages.
 */
export async function runBill(
  args: readonly string[],
  io: BillIo = process,
  name = "rimuhosting-bill",
): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${USAGE.replace(/rimuhosting-bill/g, name)}\n`);
    return 0;
  }
  const unknown = args.find((arg) => arg.startsWith("-") && arg !== "-");
  if (unknown !== undefined || args.length > 1) {
    const what = unknown !== undefined ? `unknown option ${unknown}` : `one file at most, got ${args.length}`;
    io.stderr.write(`${name}: ${what}\n\n${USAGE.replace(/rimuhosting-bill/g, name)}\n`);
    return 2;
  }
  const file = args[0] !== undefined && args[0] !== "-" ? args[0] : undefined;
  let text: string;
  try {
    text = file !== undefined ? fs.readFileSync(file, "utf8") : await readAll(io.stdin);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "there is no such file" : (error as Error).message;
    io.stderr.write(`${name}: cannot read ${file ?? "standard input"}: ${why}.\n`);
    return 2;
  }
  try {
    const bill = billOf(parsePreviewJson(text, file ?? "standard input"));
    io.stdout.write(renderBill(bill));
    return bill.budget.status === "fail" ? 1 : 0;
  } catch (error) {
    if (!(error instanceof NotPreviewJsonError)) throw error;
    io.stderr.write(`${name}: ${error.message}\n`);
    return 2;
  }
}

if (require.main === module) {
  runBill(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`rimuhosting-bill: ${(error as Error).message}\n`);
      process.exitCode = 2;
    },
  );
}
