/**
 * The bill as data (`--format json`, provider/bill/bill-json.ts) and against a baseline (`--compare-to`,
 * compare.ts), in this process: every figure of the JSON is the one the Markdown shows for the same preview (the
 * preview recorded from the real CLI, fixtures/policy.events, and ones written by hand, test/helpers/preview-log.ts);
 * a VPS not priced is named, never $0; a comparison per VPS and in total, on the fee each run leaves a VPS with;
 * and the messages for a baseline that is not a JSON bill. The built command's flags: test/bill/cli.test.ts; real
 * previews of one stack compared: test/engine/bill.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { billOf, type Bill } from "../../provider/bill/bill";
import { billDocument } from "../../provider/bill/bill-json";
import { compareBills, NotBaselineError, parseBaseline } from "../../provider/bill/compare";
import { parsePreviewLog } from "../../provider/bill/event-log";
import { headline, QUIET_MARKER, renderBill, renderQuiet } from "../../provider/bill/markdown";
import { outcomeOf } from "../../provider/bill/outcome";
import { billTableRows as rows } from "../helpers/bill-table";
import { resized, vpsLog, type VpsSpec } from "../helpers/preview-log";

const bill = (text: string): Bill => billOf(parsePreviewLog(text, "preview.events"));
const NO_LIMITS = { warn: [], fail: [], quiet: [] };
const data = (b: Bill) => billDocument(b, outcomeOf(b, NO_LIMITS));
/** A JSON bill as `--format json` writes it, read back as `--compare-to` reads it. */
const baselineOf = (b: Bill, source = "main.json") => parseBaseline(JSON.stringify(data(b)), source);

const RECORDED = fs.readFileSync(path.join(__dirname, "fixtures/policy.events"), "utf8");
const KEPT: VpsSpec = { name: "cache", op: "same", fee: 30, planned: 30 };
const CREATED: VpsSpec = { name: "api", op: "create", planned: 12 };
const UNPRICED: VpsSpec = {
  name: "replica",
  op: "create",
  news: { memoryMb: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" },
};

/** "$16.00" → 1600, "—" → none, "+$6.00" → 600. */
function centsOfCell(text: string): number | "none" | "unknown" {
  if (text === "—") return "none";
  if (text.startsWith("⚠️")) return "unknown";
  const m = /^([+-]?)\$([\d,]+)\.(\d\d)$/.exec(text.replace("±", ""));
  if (!m) throw new Error(`not an amount: ${text}`);
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]!.replace(/,/g, "")) * 100 + Number(m[3]));
}
const feeCents = (fee: object): number | "none" | "unknown" =>
  "cents" in fee ? (fee.cents as number) : "none" in fee ? "none" : "unknown";

describe("--format json: the figures the Markdown shows", () => {
  test.each([
    ["the preview recorded from the real CLI", RECORDED],
    ["a resize beside an unchanged VPS and a create", vpsLog([resized(10, 16), KEPT, CREATED])],
    ["a VPS not priced", vpsLog([resized(10, 16), UNPRICED])],
  ])("%s: each VPS's fees and change, and the stack's totals", (_what, log) => {
    const b = bill(log);
    const doc = data(b);
    const table = rows(renderBill(b));
    expect(doc.vpss.length).toBeGreaterThan(0);
    for (const v of doc.vpss) {
      const [, before, after, change] = table.get(v.name)!;
      expect([feeCents(v.before), feeCents(v.after)]).toEqual([centsOfCell(before!), centsOfCell(after!)]);
      expect(v.changeCents ?? "unknown").toEqual(centsOfCell(change!));
    }
    // Every VPS changes: the table of changes is the whole stack, and its totals row is the stack's.
    const label = b.stoppedEarly ? "Listed before it stopped (incomplete)" : "Stack total";
    const [, before, after, change] = (table.get(label) ?? table.get("Change"))!;
    // A column with a fee not priced: "**$16.00** + ⚠️", the sum of the fees known.
    const known = (text: string) => centsOfCell(text.replace(/\*\*/g, "").replace(" + ⚠️", ""));
    expect(known(before!)).toBe(doc.totals.beforeCents);
    expect(known(after!)).toBe(doc.totals.afterCents);
    if (doc.totals.notPriced.length === 0) expect(centsOfCell(change!)).toBe(doc.totals.changeCents);
    // The headline's amount and percentage.
    const change_ = outcomeOf(b, NO_LIMITS).change;
    const sign = doc.totals.changeCents > 0 ? "+" : "";
    if (doc.totals.percent !== null) expect(headline(change_)).toContain(`(${sign}${doc.totals.percent} %)`);
    expect(doc).toMatchObject({ format: "rimuhosting-bill", version: 1, currency: "USD" });
  });

  test("the recorded preview: its stack, status and policy findings, as data", () => {
    const doc = data(bill(RECORDED));
    expect(doc).toMatchObject({ project: "bill", status: "fail", complete: false });
    expect(doc.totals).toEqual({
      beforeCents: 2000,
      afterCents: 2700,
      changeCents: 700,
      percent: 35,
      notPriced: [],
    });
    expect(doc.policyPacks).toEqual([{ name: "rimuhosting-guard", version: "0.1.0" }]);
    expect(doc.policies.length).toBeGreaterThan(0);
    for (const p of doc.policies)
      expect(p).toMatchObject({ pack: "rimuhosting-guard", message: expect.any(String) });
  });

  test("a VPS not priced is named and its fee is the reason, never 0", () => {
    const doc = data(bill(vpsLog([resized(10, 16), UNPRICED])));
    const replica = doc.vpss.find((v) => v.name === "replica")!;
    expect(replica.after).toEqual({ unknown: expect.stringMatching(/./) });
    expect(replica.changeCents).toBeNull();
    expect(doc.totals).toMatchObject({ changeCents: 600, notPriced: ["replica"] });
    expect(doc.status).toBe("warn");
  });
});

describe("--compare-to: a bill against a baseline of the same stack", () => {
  const main = bill(vpsLog([{ ...resized(10, 10, 1024, 1024), op: "same" }, KEPT]));

  test("per VPS and in total, on the fee each run leaves a VPS with", () => {
    const pr = bill(vpsLog([resized(10, 16), KEPT, CREATED]));
    const c = compareBills(pr, baselineOf(main));
    expect(c.vpss.map((v) => [v.name, v.changeCents])).toEqual([
      ["web", 600],
      ["cache", 0],
      ["api", 1200],
    ]);
    expect(c.vpss.find((v) => v.name === "api")).toMatchObject({ baseline: null, current: { cents: 1200 } });
    expect(c.totals).toEqual({ baselineCents: 4000, currentCents: 5800, changeCents: 1800, notPriced: [] });
    const markdown = renderBill(pr, { comparison: c });
    expect(markdown).toContain("**Against the baseline** (`main.json`): +$18.00 a month ▲.");
    const table = markdown.slice(markdown.indexOf("| VPS | Baseline |"));
    expect(rows(table.slice(0, table.indexOf("\n\n")))).toEqual(
      new Map([
        ["web", ["$10.00", "$16.00", "+$6.00"]],
        ["api", ["—", "$12.00", "+$12.00"]],
        ["Stack total", ["$40.00", "$58.00", "+$18.00"]],
      ]),
    );
  });

  test("a VPS the pull request removes counts down; one not priced is ⚠️ and not counted", () => {
    const pr = bill(vpsLog([resized(10, 10, 1024, 1024), UNPRICED]));
    const c = compareBills(pr, baselineOf(main));
    expect(c.vpss.find((v) => v.name === "cache")).toMatchObject({ current: null, changeCents: -3000 });
    expect(c.totals).toMatchObject({ changeCents: -3000, notPriced: ["replica"] });
    expect(renderBill(pr, { comparison: c })).toContain(
      "**Against the baseline** (`main.json`): -$30.00 a month ▼ on the priced VPSs · ⚠️ 1 VPS not priced.",
    );
  });

  test("a quiet bill keeps the comparison's line", () => {
    const pr = bill(vpsLog([resized(10, 10.5, 1024, 1024), KEPT]));
    const outcome = outcomeOf(pr, { ...NO_LIMITS, quiet: [{ cents: 100 }] });
    expect(outcome.quiet).toBe(true);
    expect(renderQuiet(pr, outcome.quietUnder, compareBills(pr, baselineOf(main))).split("\n")).toEqual([
      "<!-- rimuhosting-bill: shop/prod -->",
      QUIET_MARKER,
      "RimuHosting bill for stack `prod`: +$0.50 a month ▲ (+1.3 %), under $1.00 a month; nothing else to say.",
      "**Against the baseline** (`main.json`): +$0.50 a month ▲.",
      "",
    ]);
  });

  test("the same bill: no difference, and no table", () => {
    const c = compareBills(main, baselineOf(main));
    expect(c.totals.changeCents).toBe(0);
    const markdown = renderBill(main, { comparison: c });
    expect(markdown).toContain("**Against the baseline** (`main.json`): no difference in the monthly fees.");
    expect(markdown).not.toContain("| VPS | Baseline |");
  });

  test.each([
    ["empty", "", "--compare-to main.json is empty"],
    ["Markdown", "## bill", "--compare-to main.json is not JSON"],
    [
      "a preview's JSON",
      JSON.stringify({ steps: [] }),
      '--compare-to main.json is not a bill (its "format" is missing, not "rimuhosting-bill")',
    ],
    [
      "a newer version",
      JSON.stringify({ ...data(main), version: 2 }),
      "--compare-to main.json is a bill of format version 2, newer than this command reads (1): update pulumi-rimuhosting to the version that wrote it.",
    ],
    [
      "a VPS without its URN",
      JSON.stringify({ ...data(main), vpss: [{ name: "web" }] }),
      "--compare-to main.json is not a whole bill: vpss[0].urn:",
    ],
  ])("a baseline that is not a JSON bill (%s) is refused, saying what it is", (_what, text, message) => {
    expect(() => parseBaseline(text, "main.json")).toThrow(NotBaselineError);
    expect(() => parseBaseline(text, "main.json")).toThrow(message);
  });
});

describe("the steps of a preview with --refresh", () => {
  test("a VPS's update after its refresh step is the bill's line, not the refresh", () => {
    // `pulumi preview --refresh` logs a refresh step per resource first, then the step the run takes.
    const refreshed: VpsSpec = { ...resized(10, 16), op: "refresh", planned: undefined, news: undefined };
    const [web] = bill(vpsLog([refreshed, resized(10, 16)])).vpss;
    expect(web).toMatchObject({ kind: "resize", changes: ["memoryMb 1024 → 2048"] });
    expect([feeCents(web!.before), feeCents(web!.after)]).toEqual([1000, 1600]);
  });

  test("a VPS only refreshed keeps its fee", () => {
    const refreshed: VpsSpec = { name: "cache", op: "refresh", fee: 30 };
    const [cache] = bill(vpsLog([refreshed])).vpss;
    expect(cache).toMatchObject({ kind: "same", before: { cents: 3000 }, after: { cents: 3000 } });
  });
});
