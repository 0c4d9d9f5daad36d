#!/usr/bin/env node
/**
 * rimuhosting-drift: reads what `pulumi refresh --preview-only --json` printed (a file, or standard input) and prints
 * the drift as Markdown, one row per VPS and property changed outside Pulumi, for an issue (docs/ci.md's scheduled
 * drift workflow). The same code runs as `pulumi-resource-rimuhosting drift` in the self-contained plugin.
 *
 *   pulumi refresh --preview-only --json > refresh.json; rimuhosting-drift refresh.json > drift.md
 *
 * Exit codes: 0 no drift; 1 drift (the report is printed); 2 when the input is not a refresh's JSON or the
 * arguments are wrong.
 */
import { exitCodeOf, USAGE_EXIT } from "../../contract/command-line.js";
import { commandInput, type CommandIo } from "../bill/command-input.js";
import { renderDrift } from "./markdown.js";
import { NotRefreshJsonError, parseRefreshJson } from "./refresh-json.js";
import { driftOf } from "./report.js";

const USAGE = `Usage: rimuhosting-drift [refresh.json]
  Reads the JSON that \`pulumi refresh --preview-only --json\` prints (from the file, or from standard input when
  none is given and it is piped in, or the file is "-") and prints what changed outside Pulumi as Markdown: one
  row per VPS and property, its value before → after and its effect on the monthly fee.

    pulumi refresh --preview-only --json > refresh.json
    rimuhosting-drift refresh.json > drift.md

  Exit code: 0 no drift; 1 drift (the report is printed); 2 when the input is not a refresh's JSON.`;

/** Runs the command with `args` (what follows its name); resolves to the exit code. `name`: how the user called it. */
export async function runDrift(
  args: readonly string[],
  io: CommandIo = process,
  name = "rimuhosting-drift",
): Promise<number> {
  const input = await commandInput(args, io, name, { text: USAGE, command: "rimuhosting-drift" });
  if ("exit" in input) return input.exit;
  try {
    const report = driftOf(parseRefreshJson(input.text, input.source));
    io.stdout.write(renderDrift(report));
    return report.rows.length > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof NotRefreshJsonError)) throw error;
    io.stderr.write(`${name}: ${error.message}\n`);
    return USAGE_EXIT;
  }
}

if (require.main === module)
  void exitCodeOf(() => runDrift(process.argv.slice(2)), "rimuhosting-drift").then(
    (code) => (process.exitCode = code),
  );
