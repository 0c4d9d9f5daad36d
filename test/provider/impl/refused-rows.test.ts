/**
 * Every refused row of the preview's case table (test/engine/preview-cases.ts) in-process: the inputs the Vps class
 * registers for the row's program (captured under Pulumi's mocks, as a preview), checked by the dynamic provider's
 * check() against the emulator the way the engine runs it: one resource at a time in program order, a change to an
 * existing VPS with its recorded inputs and then diff(), a new run for each row, stopping at the first check that
 * fails. It must fail on the row's VPS (or, for VPSs whose needs add up, on one of them) with the row's code and
 * input, and make no request that changes anything.
 *
 * What the engine adds to a check that fails (the preview stops there, prints the line on the resource, and
 * `pulumi up` orders nothing) is the same for every row of a kind: test/engine/preview-cases.test.ts takes the
 * table's REFUSED_THROUGH_CLI rows through the real CLI: every row of a stack setting (those are not run here: they
 * are the stack's config), every row whose VPSs add up, and one row of each code those do not show.
 */
import * as pulumi from "@pulumi/pulumi";
import { ENDPOINTS } from "../../../contract/index";
import * as impl from "../../../provider/impl/index";
import { PREVIEW_FLAG } from "../../../provider/impl/fields/vps-fields";
import * as testing from "../../../provider/impl/testing";
import type { VpsArgs } from "../../../provider/generated/vps-types";
import type { RefusedCase } from "../../engine/preview-case-kinds";
import { REFUSED, caseSpec, refusedName } from "../../engine/preview-cases";
import { BASELINE, prepare, type Fixtures } from "../../engine/preview-fixtures";
import { startTestEmulator, type TestEmulator } from "../../helpers/start-emulator";
import { stackConfig } from "../support/impl-fixture";

/** Resolves each Vps's registered inputs, by name, as the mocks receive them. */
const registering = new Map<string, (inputs: Record<string, unknown>) => void>();

// setMocks returns a promise: the tests start once the mocks are in place. A preview: the class sets its flag.
beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registering.get(args.name)?.(args.inputs as Record<string, unknown>);
        registering.delete(args.name);
        return { id: `${args.name}-id`, state: {} };
      },
      call: (args) => args.inputs,
    },
    "preview-cases",
    "lane",
    true,
  );
});

// Imported after setMocks, as Pulumi's docs prescribe.
import { Vps } from "../../../provider/index";

/** The inputs the program's `new Vps(name, args)` registers, as the engine hands them to check(). */
function programInputs(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const inputs = new Promise<Record<string, unknown>>((resolve) => registering.set(name, resolve));
  new Vps(name, args as unknown as VpsArgs);
  return inputs;
}

/** A lane as the CLI test has it: an emulator, and the baseline VPSs ordered on it (the "existing" lane). */
interface Lane {
  emulator: TestEmulator;
  recorded: Map<string, { id: string; inputs: Record<string, unknown>; outs: Record<string, unknown> }>;
}

async function useLane(lane: Lane): Promise<void> {
  testing.resetConfiguration();
  await impl.configure({ config: stackConfig(lane.emulator.baseUrl) });
}

/** Orders the baseline as `pulumi up --skip-preview` does: check() of the inputs an update registers, create(). */
async function orderBaseline(lane: Lane): Promise<void> {
  await useLane(lane);
  for (const [name, args] of Object.entries(BASELINE)) {
    const { [PREVIEW_FLAG]: _preview, ...inputs } = await programInputs(name, args);
    const checked = await impl.check({}, inputs);
    expect(checked.failures).toBeUndefined();
    const { id, outs } = await impl.create(checked.inputs);
    lane.recorded.set(name, { id, inputs: checked.inputs, outs: outs as Record<string, unknown> });
  }
}

/** The row's program checked as the engine checks it; where it stopped, and the requests that changed anything. */
async function checkRow(
  lane: Lane,
  c: RefusedCase,
  f: Fixtures,
): Promise<{ failedOn?: string; reason?: string; mutations: string[] }> {
  await useLane(lane); // a new provider process: a new run
  const mark = lane.emulator.requestLog().length;
  let stopped: { failedOn?: string; reason?: string } = {};
  for (const [name, args] of Object.entries(caseSpec(c, refusedName(c), f).vpss)) {
    const news = await programInputs(name, args);
    const old = lane.recorded.get(name);
    const checked = await impl.check(old?.inputs ?? {}, news);
    if (checked.failures) {
      stopped = { failedOn: name, reason: checked.failures.map((x) => x.reason).join("\n") };
      break;
    }
    if (old) await impl.diff(old.id, old.outs, checked.inputs);
  }
  const mutations = lane.emulator
    .requestLog()
    .slice(mark)
    .filter((entry) => entry.route !== "unknown" && ENDPOINTS[entry.route].mutates)
    .map((entry) => `${entry.method} ${entry.route}`);
  return { ...stopped, mutations };
}

const ROWS = REFUSED.filter((c) => !c.config);

describe("every refused row of the preview's case table, checked in-process as the engine checks it", () => {
  const lanes: Record<RefusedCase["on"], Lane> = {} as Record<RefusedCase["on"], Lane>;
  let fixtures: Fixtures;

  beforeAll(async () => {
    testing.setLogSink(() => undefined);
    for (const on of ["new", "existing"] as const)
      lanes[on] = { emulator: await startTestEmulator({ timeScale: 0 }), recorded: new Map() };
    fixtures = await prepare(lanes.existing.emulator);
    // The same orders and ids in both (seeded emulators), so new-VPS rows may name them too.
    const { notTheApi: _own, ...ids } = fixtures;
    expect(await prepare(lanes.new.emulator)).toMatchObject(ids);
    await orderBaseline(lanes.existing);
  }, 60_000);

  afterAll(async () => {
    testing.resetConfiguration();
    await Promise.all(Object.values(lanes).map((lane) => lane?.emulator.close()));
  });

  test("the table's rows of a stack setting are the only ones left to the CLI alone", () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(60);
    expect(REFUSED.filter((c) => c.config).map((c) => c.on)).toEqual(["existing", "existing", "existing"]);
  });

  test.each(ROWS.map((c) => [c.id, c] as const))("refused: %s", async (_id, c) => {
    const result = await checkRow(lanes[c.on], c, fixtures);
    const together = [refusedName(c), ...Object.keys({ ...c.alongside, ...c.behind })];
    expect({
      failedOn: together.includes(result.failedOn ?? "") ? "the row's VPS" : result.failedOn,
    }).toEqual({
      failedOn: "the row's VPS",
    });
    expect(result.mutations).toEqual([]);
    expect(result.reason).toContain(`[${c.code}] ${c.names}`);
    if (c.says) expect(result.reason).toMatch(c.says);
    expect(result.reason).not.toMatch(/\n\s+at |value \{/); // no stack, no value in the engine's own notation
  });
});
