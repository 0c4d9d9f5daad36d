// The emulator holding a CLI command's requests until the test sees a sign in its request log (GateClock), so a
// test makes the engine's concurrent steps reach RimuHosting in the order it chooses, never after a sleep
// (budget-shrink-create.test.ts). Each hold is a delay fault told apart from the others by its length: give each
// hold of a command a length of its own, none waited for in wall time.
import type { FaultSpec } from "../../emulator/index";
import type { GateClock, GateWait } from "../helpers/gate-clock";
import { READ_TIMEOUT_ENV_VAR } from "../../provider/config";
import type { Scenario } from "./e2e-support";

/** How long a hold may wait for its sign before the test fails naming it (only a bound on a failure: none passes by it). */
export const SIGN_DEADLINE_MS = 180_000;
/**
 * The provider's read timeout past that deadline: a held read it gave up on would be asked again (the client's
 * retries), and after its last retry the run would fail on a machine slow enough, not on the order.
 */
export const HELD_READS_ENV = { [READ_TIMEOUT_ENV_VAR]: String(SIGN_DEADLINE_MS + 60_000) };

/** What a hold's sign is looked for in: the request log since the command started, and the holds waiting now. */
export interface Seen {
  /** The routes of the requests answered since the command started, oldest first. */
  routes: readonly string[];
  /** The holds whose requests the emulator is holding now. */
  holding: ReadonlySet<Hold>;
}

/**
 * One kind of request the emulator holds (a delay fault of `delayMs` on `route`, of the requests `only` picks out:
 * by default every request of the route), and the sign that opens it.
 */
export interface Hold {
  route: FaultSpec["route"];
  delayMs: number;
  only?: Pick<FaultSpec, "matrix" | "skip" | "times">;
  /** What the hold waits for, in words (a failure names it). */
  awaits: string;
  /** Whether it has come. */
  came(seen: Seen): boolean;
}

/**
 * `command` (a CLI run) with the emulator holding each request of `holds`' routes until its sign is in the request
 * log: the gate clock hands the test each wait the emulator starts. A sign that has not come by SIGN_DEADLINE_MS
 * fails the command naming what was awaited (the holds opened, so the CLI ends rather than hangs), and so does a
 * command that ended while a hold waited for its sign.
 */
export async function inOrder<T>(
  s: Scenario,
  clock: GateClock,
  holds: readonly Hold[],
  command: () => Promise<T>,
): Promise<T> {
  const mark = s.mark();
  const routes = () =>
    s.emulator
      .requestLog()
      .slice(mark)
      .map((entry) => entry.route);
  for (const hold of holds)
    s.emulator.injectFault({
      route: hold.route,
      kind: "delay",
      delayMs: hold.delayMs,
      times: 1000,
      ...hold.only,
    });
  const run = command();
  let ended = false;
  const settled = run.then(
    () => (ended = true),
    () => (ended = true),
  );
  const held = new Set<GateWait>();
  /** Each hold with how many of its requests the emulator is holding now. */
  const waiting = new Map<Hold, number>();
  const holding = () => new Set([...waiting].filter(([, count]) => count > 0).map(([hold]) => hold));
  const failures: string[] = [];
  const gate = async (wait: GateWait, hold: Hold) => {
    const deadline = Date.now() + SIGN_DEADLINE_MS;
    waiting.set(hold, (waiting.get(hold) ?? 0) + 1);
    while (!hold.came({ routes: routes(), holding: holding() })) {
      if (ended || Date.now() > deadline) {
        failures.push(
          `the emulator held ${hold.route} for ${hold.awaits}, which ${
            ended ? "had not come when the command ended" : `had not come after ${SIGN_DEADLINE_MS / 1000} s`
          }; requests since the command started: ${routes().join(", ")}`,
        );
        for (const one of held) one.open();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    held.delete(wait);
    waiting.set(hold, waiting.get(hold)! - 1);
    wait.open();
  };
  const gates: Promise<void>[] = [];
  try {
    for (;;) {
      const wait = await clock.nextWait(run).catch(() => undefined);
      if (!wait) break;
      const hold = holds.find((one) => one.delayMs === wait.ms);
      if (!hold || failures.length > 0) {
        wait.open();
        continue;
      }
      held.add(wait);
      gates.push(gate(wait, hold));
    }
  } finally {
    await settled;
    await Promise.all(gates);
    s.emulator.app.emulator.faults.clear();
  }
  if (failures.length > 0) {
    const outcome = await run.then(
      () => "the command then succeeded",
      (error: Error) => `the command then failed: ${error.message}`,
    );
    throw new Error(`${[...new Set(failures)].join("\n")}\n${outcome}`);
  }
  return run;
}
