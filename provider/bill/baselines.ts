/**
 * What `--compare-to` names, read once before any preview runs (a wrong file ends the command before it spends a
 * preview): JSON bills, each of one stack, or directories holding one per stack under the name `--out-dir` gives it
 * (`<project>.<stack>.json`), as a workflow downloads main's bills. Each bill is compared with the baseline of its
 * own stack.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Bill } from "./bill.js";
import {
  compareBills,
  NotBaselineError,
  parseBaseline,
  stackOf,
  type Baseline,
  type Comparison,
  type MissingBaseline,
} from "./compare.js";

export interface Baselines {
  files: Baseline[];
  dirs: string[];
}

/** Reads each `--compare-to` path; throws a NotBaselineError naming the one that cannot be read and why. */
export function loadBaselines(paths: readonly string[]): Baselines {
  const loaded: Baselines = { files: [], dirs: [] };
  for (const at of paths) {
    let text: string;
    try {
      if (fs.statSync(at).isDirectory()) {
        loaded.dirs.push(at);
        continue;
      }
      text = fs.readFileSync(at, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "there is no such file or directory" : (error as Error).message;
      throw new NotBaselineError(`--compare-to ${at}: cannot read it: ${why}.`);
    }
    const baseline = parseBaseline(text, at);
    const twin = loaded.files.find((b) => stackOf(b) === stackOf(baseline));
    if (twin)
      throw new NotBaselineError(
        `--compare-to ${twin.source} and ${at} are both bills of stack ${stackOf(baseline)}: give one per stack.`,
      );
    loaded.files.push(baseline);
  }
  return loaded;
}

/**
 * The bill against the baseline of its stack: from the files given, else from `<dir>/<jsonName>` of a directory
 * given (none there: the comparison says so). Undefined without `--compare-to`. Throws a NotBaselineError when only
 * files were given and none is of the bill's stack (a wrong file), or a directory's file is not a bill.
 */
export function comparisonFor(
  bill: Bill,
  baselines: Baselines,
  jsonName: string,
): Comparison | MissingBaseline | undefined {
  if (baselines.files.length === 0 && baselines.dirs.length === 0) return undefined;
  const file = baselines.files.find((b) => stackOf(b) === stackOf(bill));
  if (file) return compareBills(bill, file);
  for (const dir of baselines.dirs) {
    const at = path.join(dir, jsonName);
    if (fs.existsSync(at)) return compareBills(bill, parseBaseline(fs.readFileSync(at, "utf8"), at));
  }
  if (baselines.dirs.length === 0)
    throw new NotBaselineError(
      `--compare-to: no bill of stack ${stackOf(bill)} among ${baselines.files.map((b) => `${b.source} (${stackOf(b)})`).join(", ")}: give the JSON bill of the same stack.`,
    );
  return {
    source: baselines.dirs.join(", "),
    missing: `no bill of stack ${stackOf(bill)} there (${jsonName}): a new stack, or its bill was not made`,
  };
}
