/**
 * The budget's settings from every source (issue 64, case 8; docs/cost.md, "The budget"), in this process against an
 * emulator:
 *
 * - one parser, one message: each amount given as text (the stack config, the environment, an explicit provider's
 *   argument) or as a number (an explicit provider's argument, as a YAML or SDK program sends it) is accepted with
 *   the same amount or refused with the same sentence, by the native plugin's CheckConfig and its Configure alike
 *   (Configure used to read a number through its text: `1e-7` refused where CheckConfig took 0.0000001, and the
 *   negative zero of YAML's `-0.0` was a $0 budget where the text `-0` is refused);
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import * as impl from "../../provider/impl/index";
import { currentRun } from "../../provider/impl/engine/run-context";
import { checkConfig, configureProvider } from "../../provider/native/provider-config";
import { DEMO_API_KEY, stackConfig, useImplFixture } from "../provider/support/impl-fixture";

const fixture = useImplFixture();
const ALICE = "urn:pulumi:prod::shop::pulumi:providers:rimuhosting::alice";
const ENV = "RIMUHOSTING_MONTHLYBUDGETUSD";

/** What a source made of the value: the amount, or the sentence refusing it with the source's own words generic. */
type Read = { amount: number | undefined } | { refused: string };

const generic = (text: string): string =>
  text
    .replace(/^\[RIMU_ERR_CONFIG\] /, "")
    .replace(
      /rimuhosting:monthlyBudgetUsd|provider 'alice': monthlyBudgetUsd|RIMUHOSTING_MONTHLYBUDGETUSD/g,
      "<name>",
    )
    .replace(/fix it in .*\.$/, "fix it in <place>.")
    .replace(/given: "([^"]*)"/, "given: $1");

function readOf(problems: readonly string[]): Read {
  const budget = problems.filter((p) => /monthlyBudgetUsd|MONTHLYBUDGETUSD/.test(p));
  return budget.length > 0
    ? { refused: generic(budget[0]!) }
    : { amount: currentRun().settings.budget.settings.monthlyBudgetUsd };
}

/** Each source's reading of `value` (text sources only for text). */
const SOURCES: Record<string, (value: string | number) => Promise<Read | undefined> | Read | undefined> = {
  "the stack config": async (value) => {
    if (typeof value !== "string") return undefined;
    const base = stackConfig(fixture().emulator.baseUrl);
    await impl.configure({
      config: { get: (key) => (key === "rimuhosting:monthlyBudgetUsd" ? value : base.get(key)) },
    });
    return readOf(currentRun().settings.budget.problems);
  },
  "the environment": async (value) => {
    if (typeof value !== "string") return undefined;
    process.env[ENV] = value;
    await impl.configure({ config: stackConfig(fixture().emulator.baseUrl) });
    return readOf(currentRun().settings.budget.problems);
  },
  "an explicit provider's argument, as CheckConfig reads it": (value) => {
    const { failures } = checkConfig(ALICE, { apiKey: DEMO_API_KEY, monthlyBudgetUsd: value });
    const refused = failures.map((f) => f.reason);
    return refused.length > 0
      ? readOf(refused)
      : { amount: typeof value === "number" ? value : Number(value) };
  },
  "an explicit provider's argument, as Configure reads it": async (value) => {
    await configureProvider(ALICE, { apiKey: DEMO_API_KEY, monthlyBudgetUsd: value }, new Map());
    return readOf(currentRun().settings.budget.problems);
  },
};

afterEach(async () => {
  delete process.env[ENV];
  await configureProvider(undefined, undefined, new Map());
  await impl.configure({ config: stackConfig(fixture().emulator.baseUrl) });
});

/** Each value as text and as the number a YAML program sends for it (`-0.0` arrives as negative zero). */
const VALUES: { text: string; number?: number; amount?: number }[] = [
  { text: "-0", number: -0 },
  { text: "0.0000001", number: 1e-7, amount: 1e-7 },
  { text: "16", number: 16, amount: 16 },
  { text: "0x10" },
  { text: "1e3" },
  { text: "  5 " }, // text only: read as $5 without a word before issue 82
  { text: "-3", number: -3 },
  { text: "1000000001", number: 1_000_000_001 },
];

describe("the budget's amount: one parser and one message, whatever the source", () => {
  it.each(VALUES.map((v) => [v.text, v] as const))("%s", async (_text, v) => {
    const reads: Record<string, Read> = {};
    for (const [source, read] of Object.entries(SOURCES))
      for (const value of v.number === undefined ? [v.text] : [v.text, v.number]) {
        const got = await read(value);
        if (got !== undefined) reads[`${source} (${typeof value})`] = got;
      }
    const sentences = new Set(Object.values(reads).map((r) => ("refused" in r ? r.refused : undefined)));
    const expected =
      v.amount === undefined
        ? Object.fromEntries(Object.keys(reads).map((k) => [k, { refused: expect.any(String) }]))
        : Object.fromEntries(Object.keys(reads).map((k) => [k, { amount: v.amount }]));
    expect(reads).toEqual(expected);
    // Refused: the one sentence, with the source's name and place, and the value as given.
    if (v.amount === undefined) expect(sentences.size).toBe(1);
  });
});
