// The engine killed mid-operation, through the real `pulumi` CLI: one scenario per operation (the emulator holds the
// request the engine is killed in), each followed by what a user does next and counted the way the fault matrix
// counts (leaked, duplicated, stranded, half-applied). The machinery (killing a whole run, cutting a request at a
// proxy, reading the checkpoint the kill leaves): kill-run.ts.
//
// Used by test/engine/engine-kill.test.ts (all seven on one stack), test/engine/native-engine-kill.test.ts (create and
// resize on the native plugin) and the "engineKilled" column of `npm run fault-matrix` (tools/fault-matrix.ts).
import type { MatrixCounts, Operation } from "../helpers/fault-matrix-cells";
import type { EndpointName } from "../../contract/index";
import type { CliStack } from "./cli-stack";
import { liveOrders, startScenario, VPS_TYPE, type Scenario } from "./e2e-support";
import { checkpointOf, runKilled, type Checkpoint } from "./kill-run";
import { scaledMs } from "../helpers/deadlines";

// engine-kill.test.ts takes the machinery from here (it imported it before kill-run.ts held it).
export { checkpointOf, killingProxy, runKilled } from "./kill-run";

/** In the order a single stack can go through them: create first, delete (destroy) last. */
export const KILLED_OPERATIONS = [
  "create",
  "resize",
  "move",
  "reinstall",
  "runningState",
  "refresh",
  "delete",
] as const satisfies readonly Operation[];
export type KilledOperation = (typeof KILLED_OPERATIONS)[number];

/** How long the emulator holds the answer of the request the engine is killed in: far longer than the kill takes. */
const HOLD_MS = 60_000;

/** The dynamic Vps, or the native plugin's (test/engine/native-engine-kill.test.ts runs these scenarios on it too). */
const VPS_TYPES = new Set([VPS_TYPE, "rimuhosting:index:Vps"]);
const vpsIn = (cp: Checkpoint) => cp.deployment.resources?.find((r) => VPS_TYPES.has(r.type));

/** What the operations change, as the Vps outputs name them. */
type Live = { memoryMb?: number; hostServerOid?: string; distro?: string; runningState?: string };
type Field = keyof Live;
const FIELDS: readonly Field[] = ["memoryMb", "hostServerOid", "distro", "runningState"];
const same = (a: unknown, b: unknown) => a !== undefined && b !== undefined && String(a) === String(b);

async function liveVps(s: Scenario, oid: number): Promise<Live> {
  const order = (await s.client.getOrder(oid)).about_order;
  return {
    memoryMb: order.vps_parameters?.memory_mb ?? undefined,
    hostServerOid: order.host_server_oid ?? undefined,
    distro: order.distro ?? undefined,
    runningState: order.running_state ?? undefined,
  };
}

/** One in-place change of the lifecycle example: the stack config that asks for it and the call that applies it. */
interface Change {
  route: EndpointName;
  field: Field;
  value: string | number;
  config: Record<string, string>;
}
type UpdateOperation = "resize" | "move" | "reinstall" | "runningState";
const CHANGES: Record<UpdateOperation, (live: Live) => Change> = {
  resize: (live) => {
    const value = live.memoryMb === 2048 ? 3072 : 2048;
    return { route: "changeParameters", field: "memoryMb", value, config: { memoryMb: String(value) } };
  },
  move: (live) => {
    // two large hosts of the example's data centre (emulator/catalog/hosts.ts)
    const value = live.hostServerOid === "835" ? "764" : "835";
    return { route: "moveVps", field: "hostServerOid", value, config: { hostServerOid: value } };
  },
  reinstall: (live) => {
    const value = live.distro === "deb13.64" ? "deb12.64" : "deb13.64";
    return {
      route: "reinstallVps",
      field: "distro",
      value,
      config: { distro: value, allowReinstall: "true" },
    };
  },
  runningState: (live) => {
    const value = live.runningState === "NOTRUNNING" ? "RUNNING" : "NOTRUNNING";
    return { route: "setRunningState", field: "runningState", value, config: { runningState: value } };
  },
};

export interface KillResult extends MatrixCounts {
  operation: KilledOperation;
  /** How the user got out: "recovered" (cancel, refresh, up or destroy) or "taken back" (the next up, see create). */
  outcome: string;
  /** What happened, for the tests' own assertions. */
  seen: {
    /** The changed field: live before, asked for, and in the state between the kill and the follow-up. */
    before?: unknown;
    target?: unknown;
    recordedAfterKill?: unknown;
    /** The order the operation was about. */
    orderOid?: number;
    /** Mutating API calls made by the follow-up commands. */
    followUpMutations: { method: string; route: string }[];
  };
}

/**
 * One stack of examples/lifecycle on the real CLI, taken through the killed operations one after another (the
 * state each leaves is where the next starts). `desired` is what the stack config asks of the VPS so far.
 */
export class EngineKillRun {
  private desired: Partial<Live> | "destroyed" = { memoryMb: 1024, distro: "deb12.64" };
  private constructor(
    readonly s: Scenario,
    private readonly owned: boolean,
  ) {}

  /** A run on a scenario the caller made (and closes). */
  static on(s: Scenario): EngineKillRun {
    return new EngineKillRun(s, false);
  }

  /** A run with a scenario of its own; `withVps`: `pulumi up` first, for runs that do not start with create. */
  static async start(opts: { withVps: boolean }): Promise<EngineKillRun> {
    const run = new EngineKillRun(await startScenario("lifecycle"), true);
    if (opts.withVps) await run.s.stack.up();
    return run;
  }

  async close(): Promise<void> {
    if (this.owned) await this.s.close();
  }

  /** Kills the engine in the middle of `operation`, recovers as a user would, and counts what went wrong. */
  async kill(operation: KilledOperation): Promise<KillResult> {
    const r: KillResult = {
      operation,
      outcome: operation === "create" ? "taken back" : "recovered",
      leaked: 0,
      duplicated: 0,
      stranded: 0,
      halfApplied: 0,
      notes: [],
      seen: { followUpMutations: [] },
    };
    try {
      if (operation === "create") await this.killCreate(r);
      else if (operation === "refresh") await this.killRefresh(r);
      else if (operation === "delete") await this.killDelete(r);
      else await this.killUpdate(operation, r);
    } catch (error) {
      r.stranded += 1;
      r.notes.push(`${operation}: ${firstLines(error)}`);
    } finally {
      this.s.emulator.app.emulator.faults.clear();
    }
    return r;
  }

  private get cli(): CliStack {
    return this.s.stack.cli!;
  }

  private async orderOid(): Promise<number> {
    const vps = vpsIn(await checkpointOf(this.s));
    if (!vps) throw new Error("the stack has no VPS to kill an operation on");
    return Number(vps.outputs?.orderOid ?? vps.id);
  }

  /**
   * Killed once the order is committed and before its answer arrives: nothing of the killed run reaches the next
   * one but the order itself, which carries this resource's creation token and is in no state of the backend. The
   * next `up` takes it back by itself (docs/cost.md, I4): it orders nothing and records that order; then the
   * engine's pending create is cleared (the CLI asks for it).
   */
  private async killCreate(r: KillResult): Promise<void> {
    const s = this.s;
    const before = s.emulator.snapshot().length;
    s.emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: scaledMs(HOLD_MS) });
    await runKilled(this.cli, "up", "the order to be committed", () => s.emulator.snapshot().length > before);
    const order = s.emulator.snapshot()[before]!;
    r.seen.orderOid = order.orderOid;
    await this.recover(r, s.mark(), [
      ["up", () => s.stack.up()],
      ["refresh --clear-pending-creates", () => this.cli.refresh({ clearPendingCreates: true })],
    ]);
    if (vpsIn(await checkpointOf(s))?.id !== String(order.orderOid))
      r.notes.push(`the up after the kill did not take back order ${order.orderOid}`);
  }

  /** Killed once the change is committed (the service's answer held back): refresh, then up. */
  private async killUpdate(operation: UpdateOperation, r: KillResult): Promise<void> {
    const s = this.s;
    const oid = await this.orderOid();
    const before = await liveVps(s, oid);
    const change = CHANGES[operation](before);
    r.seen.orderOid = oid;
    r.seen.before = before[change.field];
    r.seen.target = change.value;
    for (const [key, value] of Object.entries(change.config)) await s.stack.setConfig(key, value);
    if (this.desired !== "destroyed") this.desired[change.field] = change.value as never;
    s.emulator.injectFault({ route: change.route, kind: "delay-after-commit", delayMs: scaledMs(HOLD_MS) });
    await runKilled(this.cli, "up", `the ${operation} to be committed`, async () =>
      same((await liveVps(s, oid))[change.field], change.value),
    );
    // In between, the state shows either the old or the new value, never something else.
    const recorded = vpsIn(await checkpointOf(s))?.outputs?.[change.field];
    r.seen.recordedAfterKill = recorded;
    if (!same(recorded, r.seen.before) && !same(recorded, change.value)) {
      r.halfApplied += 1;
      r.notes.push(`after the kill the state says ${change.field}=${String(recorded)}`);
    }
    await this.recover(r, s.mark(), [
      ["refresh", () => s.stack.refresh()],
      ["up", () => s.stack.up()],
    ]);
  }

  /**
   * Killed while the refresh's read of the order is in flight: refresh again, then up (which changes nothing). The
   * read is the account's listing of active orders (one for the whole fleet, issue 90), the refresh's only one: its
   * fault matches that listing alone (include_inactive=N), not a search by creation token.
   */
  private async killRefresh(r: KillResult): Promise<void> {
    const s = this.s;
    r.seen.orderOid = await this.orderOid();
    const faults = s.emulator.app.emulator.faults;
    const read = { route: "listOrders", matrix: { include_inactive: "N" } } as const;
    s.emulator.injectFault({ ...read, kind: "delay", delayMs: scaledMs(HOLD_MS) });
    await runKilled(
      this.cli,
      "refresh",
      "the refresh's read of the order",
      () => !faults.pending().some((f) => f.route === read.route),
    );
    await this.recover(r, s.mark(), [
      ["refresh", () => s.stack.refresh()],
      ["up", () => s.stack.up()],
    ]);
  }

  /** `pulumi destroy` killed once the cancellation is committed: refresh, then destroy again. */
  private async killDelete(r: KillResult): Promise<void> {
    const s = this.s;
    const oid = await this.orderOid();
    r.seen.orderOid = oid;
    this.desired = "destroyed";
    s.emulator.injectFault({ route: "deleteVps", kind: "delay-after-commit", delayMs: scaledMs(HOLD_MS) });
    await runKilled(
      this.cli,
      "destroy",
      "the cancellation to be committed",
      () => s.emulator.snapshot().find((o) => o.orderOid === oid)?.cancelled === true,
    );
    r.seen.recordedAfterKill = vpsIn(await checkpointOf(s)) ? "in state" : "not in state";
    await this.recover(r, s.mark(), [
      ["refresh", () => s.stack.refresh()],
      ["destroy", () => s.stack.destroy()],
    ]);
  }

  /** Runs the user's follow-up commands (a failure is a stranded stack), then checks the stack against the VPS. */
  private async recover(
    r: KillResult,
    mark: number,
    steps: [string, () => Promise<unknown>][],
  ): Promise<void> {
    for (const [name, step] of steps) {
      try {
        await step();
      } catch (error) {
        r.stranded += 1;
        r.notes.push(`${name} failed: ${firstLines(error)}`);
      }
    }
    r.seen.followUpMutations = this.s.mutationsSince(mark);
    await this.audit(r);
  }

  /**
   * leaked: a live order the state does not know; duplicated: more than one live order for the one VPS;
   * stranded: pending operations left in the checkpoint, or a VPS the state lost; half-applied: the live VPS does not
   * match the program, or the state does not match the live VPS.
   */
  private async audit(r: KillResult): Promise<void> {
    const s = this.s;
    const cp = await checkpointOf(s);
    const vps = vpsIn(cp);
    const live = liveOrders(s.emulator);
    const known = vps ? [Number(vps.outputs?.orderOid ?? vps.id)] : [];
    const unknown = live.filter((o) => !known.includes(o.orderOid));
    r.leaked += unknown.length;
    if (unknown.length > 0)
      r.notes.push(`live orders not in state: ${unknown.map((o) => o.orderOid).join(", ")}`);
    r.duplicated += Math.max(0, live.length - 1);
    const pending = cp.deployment.pending_operations ?? [];
    if (pending.length > 0) {
      r.stranded += 1;
      r.notes.push(`pending operations left: ${pending.map((p) => p.type ?? "?").join(", ")}`);
    }
    if (this.desired === "destroyed") {
      if (vps) {
        r.stranded += 1;
        r.notes.push("the destroyed VPS is still in the state");
      }
      return;
    }
    if (!vps) {
      r.stranded += 1;
      r.notes.push("the state has no VPS");
      return;
    }
    const now = await liveVps(s, known[0]!);
    for (const field of FIELDS) {
      const wanted = this.desired[field];
      if (wanted !== undefined && !same(now[field], wanted)) {
        r.halfApplied += 1;
        r.notes.push(`live ${field}=${String(now[field])}, the program asks for ${String(wanted)}`);
      }
      const recorded = vps.outputs?.[field];
      if (recorded !== undefined && now[field] !== undefined && !same(recorded, now[field])) {
        r.halfApplied += 1;
        r.notes.push(`state ${field}=${String(recorded)}, live ${String(now[field])}`);
      }
    }
  }
}

/** The killed operations on one stack, in KILLED_OPERATIONS order (the fault matrix's "engineKilled" column). */
export async function runEngineKills(
  operations: readonly KilledOperation[] = KILLED_OPERATIONS,
): Promise<KillResult[]> {
  const run = await EngineKillRun.start({ withVps: !operations.includes("create") });
  try {
    const results: KillResult[] = [];
    for (const operation of KILLED_OPERATIONS.filter((o) => operations.includes(o)))
      results.push(await run.kill(operation));
    return results;
  } finally {
    await run.close();
  }
}

function firstLines(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n").slice(0, 6).join(" | ").slice(0, 400);
}
