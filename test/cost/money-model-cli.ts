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
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { ENDPOINTS, type EndpointName } from "../../contract/index";
import { DEMO_API_KEY } from "../../emulator/index";
import { BUDGET_ENV_VARS, ENV_VARS } from "../../provider/config";
import { BUDGET_SETTINGS } from "../../provider/impl/budget/budget";
import { I1, I2, I3, I4, type OrderSeen, type PreviewSeen } from "./invariants";
import type { Settings } from "./judges";
import { boundarySettings, caseWords, cliCaseArb, type CliCase } from "./model/cli-cases";
import type { Spec } from "./model/engine";
import { ordersOf } from "./model/runs";
import { controlApi } from "../helpers/control-api";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "../engine/cli-stack";
import { VPS_TYPE } from "../engine/e2e-support";
import {
  CACHED_PLUGIN_ENTRY,
  NATIVE_VPS_TYPE,
  PLUGIN_VERSION,
  REPO_ROOT,
  writeYamlProgram,
} from "../engine/native-programs";

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

/** One front end: its VPS type, its project, and how a stack's program is written before a run. */
export interface FrontEnd {
  name: string;
  type: string;
  project: string;
  programDir(): string;
  /** Writes `program` for the stack labelled `label`; returns the program as the CLI runs it (for the failure). */
  write(cli: CliStack, label: string, program: readonly Spec[]): Promise<string>;
}

const domainOf = (label: string, spec: Spec) => `${spec.name}.${label}.model.example.com`;
const ptrOf = (spec: Spec) =>
  spec.reverseDns === undefined ? undefined : `${spec.reverseDns}.model.example.com`;

export const DYNAMIC: FrontEnd = {
  name: "dynamic Vps",
  type: VPS_TYPE,
  project: "money-model",
  programDir: () => path.join(REPO_ROOT, "test/engine/fixtures/money-model"),
  async write(cli, label, program) {
    const vpss = JSON.stringify(
      program.map((spec) => ({
        name: spec.name,
        dcLocation: spec.dcLocation,
        memoryMb: spec.memoryMb,
        diskSpaceMb: spec.diskSpaceMb,
        ...(ptrOf(spec) === undefined ? {} : { reverseDns: ptrOf(spec) }),
        deleteBeforeReplace: spec.deleteBeforeReplace,
      })),
    );
    await cli.setConfigs({ vpss, label });
    return `config vpss: ${vpss}`;
  },
};

// No `dependsOn` between the VPSs: the plugin keeps I1 whatever order the update checks them in (docs/cost.md).
const yamlOf = (label: string, program: readonly Spec[]): string =>
  `resources:\n${program
    .map((spec) => {
      const options = spec.deleteBeforeReplace ? ["      deleteBeforeReplace: true\n"] : [];
      return `  ${spec.name}:
    type: rimuhosting:index:Vps
    properties:
      domainName: ${domainOf(label, spec)}
      distro: deb12.64
      dcLocation: ${spec.dcLocation}
      memoryMb: ${spec.memoryMb}
      diskSpaceMb: ${spec.diskSpaceMb}
${ptrOf(spec) === undefined ? "" : `      reverseDns: ${ptrOf(spec)}\n`}${options.length > 0 ? `    options:\n${options.join("")}` : ""}`;
    })
    .join("")}`;

let yamlDir = "";
export const YAML: FrontEnd = {
  name: "native plugin (YAML)",
  type: NATIVE_VPS_TYPE,
  project: "money-model-yaml",
  programDir: () =>
    (yamlDir ||= writeYamlProgram("money-model-yaml", "resources: {}\n", { version: PLUGIN_VERSION })),
  write(_cli, label, program) {
    // One project for every stack: the program is the resources written before each stack's run. The plugin is
    // named with its version, so the CLI caches its schema: one start of the plugin a program run, not two.
    const body = program.length === 0 ? "resources: {}\n" : yamlOf(label, program);
    fs.writeFileSync(
      path.join(yamlDir, "Pulumi.yaml"),
      `name: money-model-yaml\nruntime: yaml\n${CACHED_PLUGIN_ENTRY}${body}`,
    );
    return Promise.resolve(body);
  },
};

/** Whether a logged request changed anything: the contract says so of each route. */
const mutates = (route: EndpointName | "unknown"): boolean => route !== "unknown" && ENDPOINTS[route].mutates;

/** What a stack's state holds: the order of each VPS by name, and every order it records (pending deletes too). */
interface StateSeen {
  held: Map<string, number>;
  oids: Set<number>;
}

/**
 * A stack's state, from its checkpoint in the file backend: what `pulumi stack export` prints, without a CLI
 * process per stack and run.
 */
/** A stack's checkpoint in the file backend. */
const checkpointFile = (backendDir: string, front: FrontEnd, stack: string) =>
  path.join(backendDir, ".pulumi", "stacks", front.project, `${stack}.json`);

function stateOf(backendDir: string, front: FrontEnd, stack: string): StateSeen {
  const file = checkpointFile(backendDir, front, stack);
  const seen: StateSeen = { held: new Map(), oids: new Set() };
  if (!fs.existsSync(file)) return seen;
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as {
    checkpoint?: {
      latest?: {
        resources?: {
          urn: string;
          type: string;
          id?: string;
          delete?: boolean;
          outputs?: { orderOid?: unknown };
        }[];
      };
    };
  };
  for (const r of state.checkpoint?.latest?.resources ?? []) {
    if (r.type !== front.type) continue;
    const oid = typeof r.outputs?.orderOid === "number" ? r.outputs.orderOid : Number(r.id);
    if (!Number.isFinite(oid) || oid <= 0) continue;
    seen.oids.add(oid);
    if (!r.delete) seen.held.set(r.urn.split("::").pop()!, oid);
  }
  return seen;
}

/** One step of the preview's JSON document (`pulumi up --json`'s first). */
interface Step {
  op: string;
  urn: string;
  oldState?: { type: string; id?: string; outputs?: { monthlyFeeUsd?: unknown } };
  newState?: { type: string; inputs?: Record<string, unknown> };
}

/** What one `pulumi up --yes --json` did. */
interface UpRun {
  /** Its preview passed: the update started (it printed the update's events). */
  passed: boolean;
  /** It exited 0, its update's summary "succeeded". */
  completed: boolean;
  steps: Step[];
  /** The errors it printed (each diagnostic of severity error; what it printed on stderr if none). */
  errors: string[];
}

async function upWithPreview(cli: CliStack): Promise<UpRun> {
  let stdout: string;
  let stderr = "";
  let exited = true;
  try {
    stdout = await cli.command("up", "--yes", "--json");
  } catch (error) {
    exited = false;
    const failed = error as { stdout?: string; stderr?: string };
    stdout = failed.stdout ?? "";
    stderr = failed.stderr ?? String(error);
  }
  const lines = stdout.split("\n");
  const first = lines.findIndex((line) => line.startsWith('{"sequence"'));
  const previewText = (first < 0 ? lines : lines.slice(0, first)).join("\n").trim();
  const events = (first < 0 ? [] : lines.slice(first))
    .filter((line) => line.trim() !== "")
    .map(
      (line) =>
        JSON.parse(line) as {
          diagnosticEvent?: { message: string; severity: string };
          summaryEvent?: { result: string };
        },
    );
  if (previewText === "") throw new Error(`pulumi up printed no preview:\n${stdout}\n${stderr}`);
  const preview = JSON.parse(previewText) as {
    steps?: Step[];
    diagnostics?: { message: string; severity: string }[];
  };
  const errors = [
    ...(preview.diagnostics ?? []),
    ...events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent] : [])),
  ]
    .filter((d) => d.severity === "error")
    .map((d) => d.message.trim());
  if (!exited && errors.length === 0) errors.push(stderr.trim());
  return {
    passed: events.length > 0,
    completed: exited && events.some((e) => e.summaryEvent?.result === "succeeded"),
    steps: preview.steps ?? [],
    errors,
  };
}

const centsOf = (value: unknown): number | undefined =>
  typeof value === "number" ? Math.round(value * 100) : undefined;

/**
 * The account's monthly fees once the run is done, as its preview counts them: the account before, each VPS step
 * moved from what its order is billed now to its checked plannedMonthlyFeeUsd, each VPS deleted gone. NaN when a
 * changed VPS's fee is not known (the preview then states no figure).
 */
function previewFigure(steps: readonly Step[], type: string, before: readonly OrderSeen[]): number {
  const billed = (step: Step): number => {
    const oid = Number(step.oldState?.id);
    return before.find((o) => o.oid === oid)?.cents ?? centsOf(step.oldState?.outputs?.monthlyFeeUsd) ?? 0;
  };
  let cents = before.reduce((sum, o) => sum + o.cents, 0);
  for (const step of steps) {
    if (step.op === "same" || (step.newState ?? step.oldState)?.type !== type) continue;
    if (step.op === "delete") {
      cents -= billed(step);
      continue;
    }
    const planned = centsOf(step.newState?.inputs?.plannedMonthlyFeeUsd);
    if (planned === undefined) return NaN;
    const now = centsOf(step.newState?.inputs?.currentMonthlyFeeUsd) ?? (step.oldState ? billed(step) : 0);
    cents += planned - now;
  }
  return cents;
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * I3 for maxMonthlyIncreaseUsd: what the run added to the account, each domain name's orders (a VPS and its
 * replacement) counted from its fees before to its fees after, growth only (shrinks are not netted).
 */
function increaseKept(
  limitUsd: string | undefined,
  before: readonly OrderSeen[],
  after: readonly OrderSeen[],
) {
  if (limitUsd === undefined) return undefined;
  const byDomain = (orders: readonly OrderSeen[]) => {
    const sums = new Map<string, number>();
    for (const o of orders) sums.set(o.domain, (sums.get(o.domain) ?? 0) + o.cents);
    return sums;
  };
  const [was, is] = [byDomain(before), byDomain(after)];
  let added = 0;
  for (const [domain, cents] of is) added += Math.max(0, cents - (was.get(domain) ?? 0));
  const limit = Math.round(Number(limitUsd) * 100);
  return added <= limit
    ? undefined
    : `I3: the run added ${usd(added)} a month (new VPSs and growing changes), over maxMonthlyIncreaseUsd ${usd(limit)}`;
}

/** The budget's settings in the stack config: those of `settings` set, the others removed. */
async function setBudget(cli: CliStack, settings: Settings): Promise<void> {
  const set = Object.fromEntries(
    Object.entries(settings).map(([key, value]) => [`rimuhosting:${key}`, value!]),
  );
  await cli.setConfigs(set);
  await cli.removeConfigs(
    BUDGET_SETTINGS.filter((key) => !(key in settings)).map((key) => `rimuhosting:${key}`),
  );
}

/** The environment every stack's commands get: the key (no `config set-all` process), no budget from outside. */
const ENV: NodeJS.ProcessEnv = {
  [ENV_VARS.apiKey]: DEMO_API_KEY,
  ...Object.fromEntries(Object.values(BUDGET_ENV_VARS).map((name) => [name, ""])),
};

/**
 * The stacks a front end's cases run on, each made once (`pulumi stack init`, the emulator's address in its config)
 * and put back before each case as that left it: its checkpoint in the file backend (with the backend's attributes
 * file beside it) and its settings file. A fresh stack to the engine, without a `stack init` process per stack and
 * case (about 0.3 CPU-s each, 60 of them).
 */
class StackPool {
  private readonly made: { cli: CliStack; files: [string, Buffer][] }[] = [];

  constructor(
    private readonly front: FrontEnd,
    private readonly emu: TestEmulator,
    private readonly backendDir: string,
  ) {}

  /** `count` stacks, each as `stack init` left it. */
  async fresh(count: number): Promise<CliStack[]> {
    while (this.made.length < count) {
      const cli = await CliStack.create({
        programDir: this.front.programDir(),
        stackName: `s${this.made.length}`,
        backendDir: this.backendDir,
        env: ENV,
        config: { "rimuhosting:baseUrl": this.emu.baseUrl },
      });
      const checkpoint = checkpointFile(this.backendDir, this.front, cli.name);
      const files = [checkpoint, `${checkpoint}.attrs`, path.join(cli.programDir, `Pulumi.${cli.name}.yaml`)];
      this.made.push({ cli, files: files.map((file) => [file, fs.readFileSync(file)]) });
    }
    const taken = this.made.slice(0, count);
    for (const { files } of taken) for (const [file, bytes] of files) fs.writeFileSync(file, bytes);
    return taken.map(({ cli }) => cli);
  }

  close(): void {
    for (const { cli } of this.made) cli.close();
  }
}

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
    emu = await startTestEmulator({ control: true, timeScale: 0 });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "money-model-cli-"));
    pool = new StackPool(front, emu, path.join(workDir, "backend"));
  });
  afterAll(async () => {
    pool?.close();
    await emu?.close();
    fs.rmSync(workDir, { recursive: true, force: true });
    if (front === YAML && yamlDir) fs.rmSync(yamlDir, { recursive: true, force: true });
  });
  test.each(INDICES.map((i) => [i, CASES[i]!.stacks, CASES[i]!.runs.length] as const))(
    `case %i of seed ${SEED}: %i stack(s), %i runs keep I1–I4`,
    async (index) => runCase(front, emu, pool!, path.join(workDir, "backend"), index),
  );
}
