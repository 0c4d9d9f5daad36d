/**
 * Each test file declares the CPU it may take (test/cpu-budgets.json; issue 67): the table lists every test file and
 * no other, each with a budget of CPU-seconds, and a file over twice its budget fails, naming the file and the figure
 * (test/helpers/cpu-budget.js, which test/helpers/cpu-log.js applies whenever JEST_CPU_LOG is set, as CI sets it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
const { overBudget, readBudgets, TABLE } = require("./helpers/cpu-budget.js") as {
  overBudget: (
    testPath: string,
    own: number,
    children: number,
    budgets: Record<string, number>,
  ) => string | undefined;
  readBudgets: () => Record<string, number>;
  TABLE: string;
};

const ROOT = path.resolve(__dirname, "..");

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(full);
    return entry.name.endsWith(".test.ts") ? [path.relative(ROOT, full).split(path.sep).join("/")] : [];
  });
}

describe(`${TABLE}: the CPU each test file may take`, () => {
  const budgets = readBudgets();

  test("lists every test file, and no file that is not one, each with a budget of CPU-seconds", () => {
    const files = testFiles(path.join(ROOT, "test")).sort();
    expect(Object.keys(budgets).sort()).toEqual(files);
    for (const [file, budget] of Object.entries(budgets))
      expect({ file, budget: typeof budget === "number" && budget > 0 }).toEqual({ file, budget: true });
  });

  test("a file over twice its budget fails, naming the file and the figure; at twice it passes", () => {
    const file = path.join(ROOT, "test/cost/judges.test.ts");
    const table = { "test/cost/judges.test.ts": 10 };
    expect(overBudget(file, 5, 15, table)).toBeUndefined();
    expect(overBudget(file, 5, 15.1, table)).toBe(
      "test/cost/judges.test.ts took 20.1 CPU-s (its worker 5.0, the processes it waited for 15.1), over twice " +
        `its CPU budget of 10 CPU-s (${TABLE}): make it cheaper, or raise its budget there with the figures of a ` +
        "full CI run (JEST_CPU_LOG, test/README.md).",
    );
    expect(overBudget(file, 1, 0, {})).toMatch(
      /^test\/cost\/judges\.test\.ts took 1\.0 CPU-s .* and has no CPU budget in test\/cpu-budgets\.json/,
    );
  });
});
