// The stack's run records pruned (provider/impl/ownership/record-pruning.ts) through the real CLI on a file backend,
// on a YAML program (the native plugin):
// - four `up`s that each replace the VPS (each orders): the tags hold the records of the last two runs only, the
//   ones whose orders were still billed when the last run wrote its record, not one record per run for ever;
// - a run killed without checkpoints after its order, then an `up` that finishes ordering nothing and two that order
//   (each pruning): the killed run's record stays while its order is billed, and the `destroy` cancels that order
//   by it.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RUN_TAG_PREFIX } from "../../provider/impl/ownership/run-records";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import type { CliStack } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";
import { runKilled } from "./kill-run";
import { pulumiText } from "./native-programs";
import { yamlVps } from "./positive-proof-scenarios";
import { yamlStack as yamlStackOn } from "./yaml-stacks";

jest.setTimeout(900_000);

/** How long the emulator holds a new order's answer back: the run is killed well within it. */
const HOLD_MS = 120_000;

describeCliOnly("a stack's run records, pruned", () => {
  let emulator: TestEmulator;
  let scratch: string;
  const stacks: CliStack[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "record-pruning-"));
  });
  afterAll(async () => {
    for (const stack of stacks) stack.close();
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** A stack `name` of a YAML project of its own on a file backend; `write` sets its resources. */
  const yamlStack = (name: string, resources: string, env: Record<string, string> = {}) =>
    yamlStackOn({ scratch, baseUrl: emulator.baseUrl, made: stacks }, name, resources, env);

  /** The stack's run records: its tags' values by run id. */
  const runRecords = async (stack: CliStack): Promise<Map<string, string>> => {
    const tags = JSON.parse(await stack.command("stack", "tag", "ls", "--json")) as Record<string, string>;
    return new Map(
      Object.entries(tags)
        .filter(([name]) => name.startsWith(RUN_TAG_PREFIX))
        .map(([name, value]) => [name.slice(RUN_TAG_PREFIX.length), value]),
    );
  };

  const active = (domain: string) =>
    emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled && o.domainName.endsWith(domain));

  test("four `up`s that each order: the records of the last two runs are left, not four", async () => {
    const domain = ".pruned.example.com";
    const { stack, write } = await yamlStack("pruned", yamlVps("web", `web${domain}`, "DCDALLAS"));
    const runs: string[] = [];
    for (let i = 0; i < 4; i++) {
      // A move between data centres replaces the VPS: each `up` orders, and cancels the order it replaces.
      write(yamlVps("web", `web${domain}`, i % 2 === 0 ? "DCDALLAS" : "DCLONDON"));
      await pulumiText(stack, "up", "--yes", "--skip-preview");
      const records = await runRecords(stack);
      const fresh = [...records.keys()].filter((id) => !runs.includes(id));
      expect(fresh).toHaveLength(1);
      runs.push(fresh[0]!);
      // The record names the account it orders on (a hash), with the operations it counted before it.
      expect(records.get(fresh[0]!)).toMatch(new RegExp(`^\\d+ cp ${i} acct-[0-9a-f]{12}$`));
      expect(active(domain)).toHaveLength(1);
    }
    // Each run pruned, under the tags' lock, what could prove nothing: the runs whose orders were cancelled.
    expect([...(await runRecords(stack)).keys()].sort()).toEqual(runs.slice(2).sort());
    await pulumiText(stack, "destroy", "--yes", "--skip-preview");
    expect(active(domain)).toEqual([]);
  });

  test("a killed run's record stays while its order is billed, through later runs that prune", async () => {
    const domain = ".killed-pruned.example.com";
    const { stack, write } = await yamlStack("killedpruned", yamlVps("lost", `lost${domain}`), {
      PULUMI_SKIP_CHECKPOINTS: "true",
    });
    emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: HOLD_MS });
    try {
      await runKilled(stack, "up", "the order to be committed", () => active(domain).length > 0);
    } finally {
      emulator.app.emulator.faults.clear();
    }
    const [lost] = active(domain);
    expect(lost).toBeDefined();
    const [killed] = [...(await runRecords(stack)).keys()];
    expect(killed).toBeDefined();
    // An `up` that orders nothing finishes: the history now holds an operation after the killed run's record, so that
    // run has ended. Then two `up`s of another VPS, each ordering, each pruning.
    // The history's times are whole seconds: an operation that began in the record's own second is taken as the run's
    // own (finished: its order named, never cancelled; run-records.ts, runFinished). A user's next command, here
    // within a second of the kill, begins in a later one.
    await new Promise((later) => setTimeout(later, 1_100));
    write("");
    await pulumiText(stack, "up", "--yes", "--skip-preview");
    for (const dc of ["DCDALLAS", "DCLONDON"]) {
      write(yamlVps("web", `web${domain}`, dc));
      await pulumiText(stack, "up", "--yes", "--skip-preview");
      expect((await runRecords(stack)).has(killed!)).toBe(true);
    }
    expect(active(domain).map((o) => o.orderOid)).toContain(lost!.orderOid);
    // The record still proves the killed run's order this stack's: the destroy cancels it.
    const said = await pulumiText(stack, "destroy", "--yes", "--skip-preview");
    expect(said).toContain(`order ${lost!.orderOid} (lost${domain}, $`);
    expect(said).toContain(
      "this stack's backend records the run that placed it, which kept no checkpoints and never finished",
    );
    expect(active(domain)).toEqual([]);
  });
});
