// The order jest starts the test files in (test/slow-first-sequencer.js): on a fresh clone it has no timings, and
// each group's files go by their CPU budget, the largest first, so the costliest file is never the run's tail.
import * as path from "node:path";
const { readBudgets } = require("./helpers/cpu-budget") as { readBudgets: () => Record<string, number> };
const { slowFirst } = require("./slow-first-sequencer") as {
  slowFirst: (ordered: Fake[], hasFailed: (test: Fake) => boolean, budgets: Record<string, number>) => Fake[];
};

interface Fake {
  path: string;
  duration?: number;
}

const ROOT = path.resolve(__dirname, "..");
const at = (file: string, duration?: number): Fake => ({ path: path.join(ROOT, file), duration });
const names = (tests: Fake[]) => tests.map((t) => path.relative(ROOT, t.path));

describe("the order of the test files", () => {
  test("failed first, then the slow folders, then the rest; untimed ones by budget, timed ones as jest has them", () => {
    const budgets = {
      "test/engine/a.test.ts": 40,
      "test/engine/b.test.ts": 400,
      "test/engine/c.test.ts": 90,
      "test/package/d.test.ts": 120,
      "test/unit/e.test.ts": 30,
      "test/unit/f.test.ts": 60,
    };
    // jest's own order: untimed by size (a, c, b, d, e, f), then timed by duration (g, h)
    const ordered = [
      at("test/engine/a.test.ts"),
      at("test/engine/c.test.ts"),
      at("test/engine/b.test.ts"),
      at("test/package/d.test.ts"),
      at("test/unit/e.test.ts"),
      at("test/unit/f.test.ts"),
      at("test/engine/g.test.ts", 9000),
      at("test/engine/h.test.ts", 1000),
    ];
    const failed = new Set([path.join(ROOT, "test/unit/e.test.ts")]);
    expect(names(slowFirst(ordered, (t) => failed.has(t.path), budgets))).toEqual([
      "test/unit/e.test.ts",
      "test/engine/b.test.ts",
      "test/package/d.test.ts",
      "test/engine/c.test.ts",
      "test/engine/a.test.ts",
      "test/engine/g.test.ts",
      "test/engine/h.test.ts",
      "test/unit/f.test.ts",
    ]);
  });

  test("on a fresh clone, the file with the largest budget starts first", () => {
    const budgets = readBudgets();
    const files = Object.keys(budgets).sort(); // jest's order by size is no guide: any order will do
    const first = slowFirst(
      files.map((file) => at(file)),
      () => false,
      budgets,
    )[0]!;
    const largest = Math.max(...Object.values(budgets));
    expect({ file: names([first])[0], budget: budgets[names([first])[0]!] }).toEqual({
      file: expect.stringMatching(/^test\/(engine\/|package\/|cost\/money-model\.test\.ts$)/),
      budget: largest,
    });
  });
});
