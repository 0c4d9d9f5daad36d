// The money model's invariants through the real CLI (issue 64; docs/cost.md, "The invariants"), the harness of
// test/engine/money-model-cli-dynamic.test.ts and money-model-cli-yaml.test.ts: 20 generated cases (model/cli-cases.ts:
// 1–2 stacks of one account, 2–3 runs of `pulumi up`, programs of 1–4 VPSs created, resized up and down, moved with
// and without deleteBeforeReplace, removed, their PTR name changed, under monthlyBudgetUsd and maxMonthlyIncreaseUsd
// at the boundary: exact, a cent either side, or far above), each run through `pulumi up` on each front end: the
// dynamic Vps (fixtures/money-model, its VPSs from the stack config) and the native plugin (a YAML program, written
// again before each run). After each run, the invariants that hold through the CLI, with the checkers of
// test/cost/invariants.ts:
// - I1: the run's preview passed ⇒ `up` completed and the account ends at the preview's figure (the account before,
//   moved by each VPS step's plannedMonthlyFeeUsd less what it is billed now, less each VPS deleted);
// - I2: the preview failed ⇒ the `up` ordered, changed and cancelled nothing (no change request in the emulator's log);
// - I3: the account within every budget (the monthly one, and what the run added within maxMonthlyIncreaseUsd);
// - I4: every active order in exactly one stack's state, or named in the output of the run that made it.
// `pulumi up --json` is the preview and the update in one CLI process: its first JSON document is the preview's
// steps (with their checked fees), then the update's events; a failed preview ends it there. Seed 6464 unless
// RIMU_MODEL_CLI_SEED says another (`random` explores); RIMU_MODEL_CLI_CASE=<index> runs one case of that seed.
// CPU: one project per front end, one emulator per front end reset between cases (its control API), its stacks made
// once and put back as `stack init` left them before each case (StackPool), the stacks' states read from the file
// backend (what `pulumi stack export` prints), the key from the environment (no `config set-all`), the plugin named
// with its version (the CLI caches its schema). About 48 `pulumi up`s per front end: 154 CPU-s on the dynamic Vps
// (3.1 an `up`: two node programs and two provider hosts, 0.7 each, and the CLI's 0.45), 75 on the native plugin
// (1.55: the plugin started twice). One test file per front end, so that two workers can share them.
//
// The pieces: money-model-cli-front-ends.ts (the two front ends), money-model-cli-stacks.ts (the stacks and their
// states), money-model-cli-up.ts (what an `up` did, and the figures the invariants compare).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { ENDPOINTS, type EndpointName } from "../../contract/index";
import { I1, I2, I3, I4, type OrderSeen, type PreviewSeen } from "./invariants";
import { boundarySettings, caseWords, cliCaseArb, type CliCase } from "./model/cli-cases";
import { ordersOf } from "./model/runs";
import type { FrontEnd } from "./money-model-cli-front-ends";
import { setBudget, StackPool, stateOf } from "./money-model-cli-stacks";
import { centsOf, increaseKept, previewFigure, upWithPreview, usd } from "./money-model-cli-up";
import { controlApi } from "../helpers/control-api";
import { ownLoopbackHost, startTestEmulator, type TestEmulator } from "../helpers/start-emulator";

const SEED = ((value) => {
  if (value === "random") return Date.now() % 2 ** 31;
  const seed = Number(value ?? "6464");
  if (!Number.isInteger(seed))
    throw new Error(`RIMU_MODEL_CLI_SEED is "${value}": give a whole number, or random`);
  return seed;
})(process.env.RIMU_MODEL_CLI_SEED);
const CASE_COUNT = 20;
const CASES: CliCase[] = fc.sample(cliCaseArb, { seed: SEED, numRuns: CASE_COUNT });
const ONLY =
  process.env.RIMU_MODEL_CLI_CASE === undefined ? undefined : Number(process.env.RIMU_MODEL_CLI_CASE);
if (ONLY !== undefined && !(Number.isInteger(ONLY) && ONLY >= 0 && ONLY < CASE_COUNT))
  throw new Error(`RIMU_MODEL_CLI_CASE is "${process.env.RIMU_MODEL_CLI_CASE}": give a case index, 0 to 19`);
const INDICES = CASES.map((_, i) => i).filter((i) => ONLY === undefined || i === ONLY);
const REPLAY = `RIMU_MODEL_CLI_SEED=${SEED}`;
console.log(`money model through the CLI: seed ${SEED} (${REPLAY} replays it), ${INDICES.length} cases`);

/** Whether a logged request changed anything: the contract says so of each route. */
const mutates = (route: EndpointName | "unknown"): boolean => route !== "unknown" && ENDPOINTS[route].mutates;

/** Runs case `index` on `front`, checking I1–I4 after each run; throws the first violation with the case's words. */
async function runCase(
  front: FrontEnd,
  emu: TestEmulator,
  pool: StackPool,
  backendDir: string,
  index: number,
) {
  const c = CASES[index]!;
  expect((await controlApi(emu.baseUrl)("POST", "/reset")).status).toBe(200);
  const stacks = await pool.fresh(c.stacks);
  /**
   * The errors the runs printed: an order named there is accounted for (I4). Only the errors, as the model's
   * runs keep them: the provider's info lines name every order it makes.
   */
  const said: string[] = [];
  /** Each run's outcome in a line: the failure message's history of the case. */
  const trace: string[] = [];
  for (const [r, run] of c.runs.entries()) {
    const cli = stacks[run.stack]!;
    const before = ordersOf(emu);
    const settings = boundarySettings(
      run.budget,
      before,
      stateOf(backendDir, front, cli.name).held,
      run.program,
    );
    await setBudget(cli, settings);
    const program = await front.write(cli, `s${run.stack}`, run.program);
    const mark = emu.requestLog().length;
    const up = await upWithPreview(cli);
    const after = ordersOf(emu);
    said.push(...up.errors);
    const changes = emu
      .requestLog()
      .slice(mark)
      .filter((e) => mutates(e.route))
      .map((e) => e.route);
    const preview: PreviewSeen = {
      stack: `s${run.stack}`,
      passed: up.passed,
      figureCents: previewFigure(up.steps, front.type, before),
      ordersBefore: before,
      // A preview that passed is not seen apart from its update (one `pulumi up` process); one that failed ended it.
      ordersAfter: up.passed ? before : after,
    };
    const total = (orders: readonly OrderSeen[]) => usd(orders.reduce((sum, o) => sum + o.cents, 0));
    trace.push(
      `run ${r + 1}: settings ${JSON.stringify(settings)}; preview ` +
        `${up.passed ? `passed at ${usd(preview.figureCents)}` : "failed"}; up ` +
        `${up.completed ? "completed" : "failed"}; account ${total(before)} → ${total(after)}`,
    );
    const states = new Map(stacks.map((s, i) => [`s${i}`, stateOf(backendDir, front, s.name).oids]));
    const broken = [
      // A case's preview fails only on the budget: failing on anything else (a program or plugin that cannot load),
      // every run would keep I1–I4 while proving none of them.
      !up.passed && !up.errors.some((error) => error.includes("RIMU_ERR_BUDGET"))
        ? `${preview.stack}'s preview failed, and not on the budget (no RIMU_ERR_BUDGET): the run proves nothing`
        : undefined,
      I1({
        stack: preview.stack,
        preview,
        completed: up.completed,
        errors: up.errors,
        ordersAfter: after,
        alone: true,
      }),
      I2(preview, after),
      !up.passed && changes.length > 0
        ? `I2: ${preview.stack}'s preview failed, and its up made ${changes.join(", ")}`
        : undefined,
      I3({
        budgetCents:
          settings.monthlyBudgetUsd === undefined ? undefined : centsOf(Number(settings.monthlyBudgetUsd)),
        ordersBefore: before,
        ordersAfter: after,
      }),
      increaseKept(settings.maxMonthlyIncreaseUsd, before, after),
      I4({ orders: after, states, outside: new Set(), said }),
    ].filter((v): v is string => v !== undefined);
    if (broken.length > 0)
      throw new Error(
        `money model through the CLI, ${front.name}: seed ${SEED}, case ${index} ` +
          `(${REPLAY} RIMU_MODEL_CLI_CASE=${index} replays it)\n${caseWords(c)}\n${trace.join("\n")}\n` +
          `${broken.join("\n")}\nrun ${r + 1}'s program:\n${program}\nits errors:\n${up.errors.join("\n") || "(none)"}`,
      );
  }
  if (process.env.RIMU_MODEL_CLI_TRACE)
    console.log(`${front.name}, case ${index}: ${caseWords(c)}\n${trace.join("\n")}`);
}

/** The generated cases, a test each, on `front` (inside the describe of its test file). */
export function modelCases(front: FrontEnd): void {
  let emu: TestEmulator;
  let workDir = "";
  let pool: StackPool | undefined;
  beforeAll(async () => {
    emu = await startTestEmulator({ control: true, timeScale: 0, host: ownLoopbackHost() });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "money-model-cli-"));
    pool = new StackPool(front, emu, path.join(workDir, "backend"));
  });
  afterAll(async () => {
    pool?.close();
    await emu?.close();
    fs.rmSync(workDir, { recursive: true, force: true });
    front.removeProgram();
  });
  test.each(INDICES.map((i) => [i, CASES[i]!.stacks, CASES[i]!.runs.length] as const))(
    `case %i of seed ${SEED}: %i stack(s), %i runs keep I1–I4`,
    async (index) => runCase(front, emu, pool!, path.join(workDir, "backend"), index),
  );
}
