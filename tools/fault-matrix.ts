/**
 * The fault matrix: every lifecycle operation of the Vps provider under every kind of fault, against
 * the emulator's fault injection, counting what must never happen.
 *
 *   npm run build && node dist/tools/fault-matrix.js
 *
 * Rows: create, resize, move, reinstall, running state, delete, refresh. Columns: 503, 429, a dropped
 * connection (before anything is done), a response lost after the change was committed, a client
 * timeout (the answer comes after the provider's time limit), an emulator restart in the middle of
 * the call (state kept in its state file). Each cell runs one `pulumi up` (or destroy, or refresh)
 * the way the engine drives the provider (check → diff → create/update/delete/read, recording what an
 * error says), then `pulumi refresh` and up to three more `pulumi up`s on the recorded state, then
 * `pulumi destroy`, and counts:
 *   - leaked: an active order that the state does not know (billed, unmanaged);
 *   - duplicated: more than one active order for the one resource;
 *   - stranded: refresh, up or destroy that cannot work from what was recorded;
 *   - half-applied: a recorded state that does not tell the truth about the live order (a change
 *     made but not recorded), or an `up` that never converges.
 * The update rows change two things at once with the faulted step in the middle or last.
 * The test test/provider/fault-matrix.test.ts runs the same matrix and requires all four to be 0.
 *
 * A last column, "engineKilled", runs when `pulumi` is on PATH: the real CLI SIGKILLed (engine,
 * language host, program and provider host) in the middle of each operation, then what a user runs
 * next (`pulumi cancel`, refresh, up or destroy), on one stack of examples/lifecycle in turn, counted
 * the same way (test/engine/engine-kill.ts; its tests: test/engine/engine-kill*.test.ts). Without a
 * CLI the output says that column was not measured.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, DEMO_API_KEY, type RunningEmulator, type FaultSpec } from "../emulator/index.js";
import type { EndpointName } from "../contract/index.js";
import { createClient } from "../provider/client/index.js";
import * as impl from "../provider/impl/index.js";
import * as seams from "../provider/impl/testing.js";
import { findPulumiCli } from "../test/engine/cli-stack.js";
import { runEngineKills } from "../test/engine/engine-kill.js";
import { OPERATIONS, type MatrixCounts, type Operation } from "../test/helpers/fault-matrix-cells.js";
import { until } from "../test/helpers/promises.js";
import { formatMatrix } from "./fault-matrix-report.js";

export const FAULTS = ["503", "429", "drop", "lostResponse", "clientTimeout", "restart"] as const;
export type Fault = (typeof FAULTS)[number];
/** The column measured through the real CLI (test/engine/engine-kill.ts), not through the provider in-process. */
export const ENGINE_KILLED = "engineKilled";
export type Column = Fault | typeof ENGINE_KILLED;
export { OPERATIONS };

export interface CellResult extends MatrixCounts {
  operation: Operation;
  fault: Column;
  /**
   * What the faulted command did: ok, recorded (partial failure), failed (plain error); for a killed
   * engine how the user got out: recovered (cancel, refresh, up/destroy) or taken back (by the next up).
   */
  outcome: string;
}

const ROUTE: Record<Operation, EndpointName> = {
  create: "createVps",
  resize: "changeParameters",
  move: "moveVps",
  reinstall: "reinstallVps",
  runningState: "setRunningState",
  delete: "deleteVps",
  // A refresh reads its order from the run's listing of the account (issue 90), not its own GET.
  refresh: "listOrders",
};

/** The provider's time limit in the matrix: short, so a delayed answer is a client timeout. */
const LIMIT_MINUTES = 0.005; // 300 ms
const LIMIT_MS = LIMIT_MINUTES * 60_000;

const BASE = {
  domainName: "matrix.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  memoryMb: 1024,
  diskSpaceMb: 20480,
  creationScope: "matrix/dev/web",
  timeouts: { createMinutes: LIMIT_MINUTES, updateMinutes: LIMIT_MINUTES, deleteMinutes: LIMIT_MINUTES },
  __provider: "text",
};

type Bag = Record<string, unknown>;
interface Recorded {
  id: string;
  outs: Bag;
  inputs: Bag;
}

/** The engine, reduced to what it does with the provider's answers. */
class Engine {
  state: Recorded | undefined;

  async up(program: Bag | undefined): Promise<string> {
    if (!program) return this.destroy();
    const checked = await impl.check(this.state?.inputs ?? {}, program);
    if (checked.failures) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
    const inputs = checked.inputs;
    if (!this.state) return this.create(inputs);
    const diff = await impl.diff(this.state.id, this.state.outs, inputs);
    if (diff.replaces.length > 0) {
      const old = this.state;
      this.state = undefined;
      const outcome = await this.create(inputs);
      await impl.delete(old.id, old.outs);
      return outcome;
    }
    if (!diff.changes) return "ok";
    const state = this.state;
    try {
      const { outs } = await impl.update(state.id, state.outs, inputs);
      this.state = { id: state.id, outs: outs as unknown as Bag, inputs };
      return "ok";
    } catch (error) {
      return this.recordFailure(error, state.id, inputs);
    }
  }

  private async create(inputs: Bag): Promise<string> {
    try {
      const { id, outs } = await impl.create(inputs);
      this.state = { id, outs: outs as unknown as Bag, inputs };
      return "ok";
    } catch (error) {
      return this.recordFailure(error, undefined, inputs);
    }
  }

  /** An error with an id is a partial failure: the engine records its properties; others record nothing. */
  private recordFailure(error: unknown, id: string | undefined, inputs: Bag): string {
    const partial = error as { id?: string; properties?: Bag };
    if (partial.id && partial.properties) {
      this.state = { id: partial.id ?? id, outs: partial.properties, inputs };
      return "recorded";
    }
    return `failed (${(error as { code?: string }).code ?? "error"})`;
  }

  async destroy(): Promise<string> {
    if (!this.state) return "ok";
    try {
      await impl.delete(this.state.id, this.state.outs);
      this.state = undefined;
      return "ok";
    } catch (error) {
      return `failed (${(error as { code?: string }).code ?? "error"})`;
    }
  }

  async refresh(): Promise<string> {
    if (!this.state) return "ok";
    const read = await impl.read(this.state.id, this.state.outs);
    if (!read.id) {
      this.state = undefined;
      return "ok";
    }
    this.state = {
      id: read.id,
      outs: (read.props ?? {}) as Bag,
      inputs: { ...(read.inputs ?? this.state.inputs), __provider: "text" },
    };
    return "ok";
  }
}

/** An emulator that can be restarted on the same port with the same state file. */
class Service {
  emulator!: RunningEmulator;
  private port = 0;
  constructor(private readonly stateFile: string) {}

  async start(): Promise<void> {
    this.emulator = await startEmulator({
      timeScale: 0,
      seed: 11,
      stateFile: this.stateFile,
      port: this.port,
    });
    this.port = this.emulator.port;
  }

  /** Kills every connection (an in-flight call loses its answer), stops, and starts again. */
  async restart(): Promise<void> {
    this.emulator.app.server.closeAllConnections();
    await this.emulator.close();
    await this.start();
  }

  active(): number[] {
    return this.emulator
      .snapshot()
      .filter((o) => !o.cancelled)
      .map((o) => o.orderOid);
  }
}

function faultSpec(fault: Fault, route: EndpointName): FaultSpec | undefined {
  switch (fault) {
    case "503":
      return { route, kind: "status", status: 503 };
    case "429":
      return { route, kind: "status", status: 429, retryAfterSeconds: 0 };
    case "drop":
      return { route, kind: "drop" };
    case "lostResponse":
      return { route, kind: "drop-after-commit" };
    case "clientTimeout":
      return { route, kind: "delay-after-commit", delayMs: LIMIT_MS * 3 };
    case "restart":
      return { route, kind: "delay-after-commit", delayMs: 2_000 };
  }
}

/** The program after the operation's change (undefined: the resource is removed). */
function programFor(operation: Operation, hostServerOid: string | undefined): Bag | undefined {
  switch (operation) {
    case "create":
    case "refresh":
      return BASE;
    case "resize":
      return { ...BASE, memoryMb: 2048, runningState: "NOTRUNNING" };
    case "move":
      return { ...BASE, memoryMb: 2048, hostServerOid: hostServerOid === "835" ? "764" : "835" };
    case "reinstall":
      return { ...BASE, memoryMb: 2048, distro: "deb13.64", allowReinstall: true };
    case "runningState":
      return { ...BASE, memoryMb: 2048, runningState: "NOTRUNNING" };
    case "delete":
      return undefined;
  }
}

const TRUTH_FIELDS = ["memoryMb", "diskSpaceMb", "distro", "hostServerOid", "runningState"] as const;

export async function runCell(operation: Operation, fault: Fault): Promise<CellResult> {
  const dir = mkdtempSync(join(tmpdir(), "rimu-matrix-"));
  const service = new Service(join(dir, "state.json"));
  await service.start();
  seams.resetConfiguration();
  seams.setCreateLookupGrace(3_000);
  seams.setLogSink(() => undefined);
  const result: CellResult = {
    operation,
    fault,
    outcome: "",
    leaked: 0,
    duplicated: 0,
    stranded: 0,
    halfApplied: 0,
    notes: [],
  };
  const configure = () =>
    impl.configure({
      config: {
        get: (key: string) =>
          ({ "rimuhosting:apiKey": DEMO_API_KEY, "rimuhosting:baseUrl": service.emulator.baseUrl })[key],
      },
    });
  await configure();
  const engine = new Engine();
  try {
    if (operation !== "create") {
      const setup = await engine.up(BASE);
      if (setup !== "ok") throw new Error(`setup failed: ${setup}`);
    }
    const program = programFor(operation, engine.state?.outs.hostServerOid as string | undefined);
    const spec = faultSpec(fault, ROUTE[operation]);
    if (spec) service.emulator.injectFault(spec);
    // A client timeout is the faulted operation's: its reads give up after the limit. The checks and recovery runs
    // after it read with the client's own timeout, so a slow machine does not time them out too.
    if (fault === "clientTimeout") seams.setReadTimeoutForTests(LIMIT_MS);
    const command =
      operation === "refresh" ? engine.refresh().then(() => engine.up(program)) : engine.up(program);
    if (fault === "restart") {
      await waitForRequest(service, ROUTE[operation]);
      await service.restart();
    }
    result.outcome = await command.catch(
      (error: unknown) => `threw: ${(error as Error).message.slice(0, 80)}`,
    );
    seams.setReadTimeoutForTests(undefined);

    // The recorded state must tell the truth about the live order.
    await checkTruth(service, engine, result);

    // refresh, then up until converged (at most 3), then destroy: each must work from what was recorded.
    await step(result, "refresh", () => engine.refresh());
    let converged = false;
    for (let attempt = 0; attempt < 3 && !converged; attempt++) {
      const outcome = await step(result, "up", () => engine.up(program), false);
      converged = outcome === "ok" && (await matchesProgram(service, engine, program));
    }
    if (!converged) {
      result.stranded += 1;
      result.notes.push("up did not converge in 3 runs");
    }
    const active = service.active();
    const known = engine.state ? [Number(engine.state.outs.orderOid ?? engine.state.id)] : [];
    result.leaked += active.filter((oid) => !known.includes(oid)).length;
    if (active.length > 1) result.duplicated += active.length - 1;
    await step(result, "destroy", () => engine.destroy());
    const after = service.active();
    if (after.length > 0) {
      result.leaked += after.length;
      result.notes.push(`active after destroy: ${after.join(", ")}`);
    }
  } finally {
    seams.setReadTimeoutForTests(undefined);
    seams.setCreateLookupGrace(undefined);
    seams.resetConfiguration();
    await service.emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** Runs one follow-up command; a throw or a failure counts as stranded. */
async function step(
  result: CellResult,
  what: string,
  run: () => Promise<string>,
  strict = true,
): Promise<string> {
  try {
    const outcome = await run();
    if (strict && outcome !== "ok") {
      result.stranded += 1;
      result.notes.push(`${what}: ${outcome}`);
    }
    return outcome;
  } catch (error) {
    result.stranded += 1;
    result.notes.push(`${what} threw: ${(error as Error).message.slice(0, 160)}`);
    return "threw";
  }
}

async function liveOrder(service: Service, oid: number): Promise<Bag | undefined> {
  const client = createClient({ apiKey: DEMO_API_KEY, baseUrl: service.emulator.baseUrl });
  try {
    const order = (await client.getOrder(oid)).about_order;
    return {
      memoryMb: order.vps_parameters?.memory_mb,
      diskSpaceMb: order.vps_parameters?.disk_space_mb,
      distro: order.distro,
      hostServerOid: order.host_server_oid,
      runningState: order.running_state,
    };
  } catch {
    return undefined;
  } finally {
    client.close();
  }
}

async function checkTruth(service: Service, engine: Engine, result: CellResult): Promise<void> {
  const state = engine.state;
  if (!state || state.outs.orderOid === undefined) return;
  const live = await liveOrder(service, Number(state.outs.orderOid));
  if (!live) return;
  for (const field of TRUTH_FIELDS) {
    if (state.outs[field] !== undefined && live[field] !== undefined && state.outs[field] !== live[field]) {
      result.halfApplied += 1;
      result.notes.push(`recorded ${field}=${String(state.outs[field])}, live ${String(live[field])}`);
    }
  }
}

async function matchesProgram(service: Service, engine: Engine, program: Bag | undefined): Promise<boolean> {
  if (!program) return engine.state === undefined;
  const state = engine.state;
  if (!state || state.outs.orderOid === undefined) return false;
  const live = await liveOrder(service, Number(state.outs.orderOid));
  if (!live) return false;
  return TRUTH_FIELDS.every((field) => program[field] === undefined || program[field] === live[field]);
}

/** Resolves once the emulator has seen the route (the call is in flight), polling its request log. */
async function waitForRequest(service: Service, route: EndpointName): Promise<void> {
  const seen = () => service.emulator.requestLog().filter((r) => r.route === route).length;
  const before = seen();
  const armed = () => service.emulator.app.emulator.faults.pending().length;
  await until(`the ${route} request`, () => seen() > before || armed() === 0, { timeoutMs: 30_000 });
  await new Promise((resolve) => setTimeout(resolve, 50)); // let the call commit first
}

export async function runFaultMatrix(
  operations: readonly Operation[] = OPERATIONS,
  faults: readonly Fault[] = FAULTS,
): Promise<CellResult[]> {
  const results: CellResult[] = [];
  for (const operation of operations) {
    for (const fault of faults) results.push(await runCell(operation, fault));
  }
  return results;
}

/** The "engineKilled" column through the real CLI, or why it cannot be measured here. */
export async function runEngineKilledColumn(): Promise<{ results: CellResult[]; notMeasured?: string }> {
  const cli = findPulumiCli();
  if (!cli.path) return { results: [], notMeasured: cli.reason };
  const killed = await runEngineKills();
  return { results: killed.map(({ seen: _seen, ...r }) => ({ ...r, fault: ENGINE_KILLED })) };
}

async function main(): Promise<void> {
  const results = await runFaultMatrix();
  const killed = await runEngineKilledColumn();
  results.push(...killed.results);
  console.log(formatMatrix(results));
  if (killed.notMeasured)
    console.log(
      `\nNOT MEASURED: the "${ENGINE_KILLED}" column (the real CLI killed mid-operation), because there is ` +
        `${killed.notMeasured}. The totals above cover only the ${results.length} cells measured.`,
    );
  const bad = results.some((r) => r.leaked + r.duplicated + r.stranded + r.halfApplied > 0);
  process.exitCode = bad ? 1 : 0;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
