/**
 * What update() changes: what diff() planned, and nothing else (I6, docs/cost.md "A change is what diff() plans").
 * diff() compares the recorded state with the program (old outputs, new inputs); that plan is what the preview shows,
 * the bill and the budget price, and the engine hands to update(). update() reads the live order and converges it
 * (vps-converge.ts) to the target built here: the program's value for every input the plan names, and the order's
 * own value for every other input a step would change. So a VPS resized, moved, reinstalled or stopped outside
 * Pulumi keeps that change through an update of something else (a reverseDns): no restart and no fee the preview did
 * not show. The state keeps its record of such an input (keepingRecorded), so the next run plans nothing there
 * either, and `pulumi refresh` reports the change, as it would have before the update; after the refresh, the plan
 * holds the way back to the program, priced. (On the native plugin the engine reads the VPS before it plans, so the
 * plan already holds it: docs/vps.md, "Changed outside Pulumi".)
 *
 * A half-done earlier update still finishes. Its error recorded the order as it stood (vps-converge.ts,
 * failureToRecord), so what is left differs between that state and the program and is in the plan. A step that was
 * applied but not recorded (the engine killed, the read-back lost) is in the plan too, and already on the order:
 * converge() compares with the live order and skips it.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { REPORTED_FIELDS, inputsOfKind, type VpsInputName } from "../fields/vps-fields.js";
import { changedInputNames, computeChanges } from "../inputs/vps-changes.js";
import type { VpsInputs } from "../inputs/vps-input-schema.js";
import { orderOutputs, type RecordedOutputs } from "../inputs/vps-outputs.js";

/**
 * The inputs a step of update() changes and the order reports: the ones that can differ between the order and the
 * state without the state knowing (vps-converge.ts reads a lost step's outcome from them too). The others (a PTR
 * name, install-time options) are compared with the state on both sides, so only the plan can name them.
 */
export const LIVE_STEP_INPUTS: readonly VpsInputName[] = inputsOfKind(
  "parameters",
  "move",
  "reinstall",
  "running-state",
).filter((name) => REPORTED_FIELDS.includes(name));

/** The input names diff() plans to change: the recorded state against the program, as diffVps() compares them. */
export function plannedInputs(oid: number, recorded: RecordedOutputs, news: VpsInputs): Set<VpsInputName> {
  const planned = computeChanges(String(oid), recorded, news);
  return new Set(changedInputNames(planned, { settings: false, orderOnly: false }));
}

/** What update() does to a live order: the inputs to bring it to, and the inputs it leaves as the order has them. */
export interface PlannedUpdate {
  target: VpsInputs;
  /** Inputs the program sets that the plan does not name: left as the order has them, recorded as they were. */
  leftAlone: VpsInputName[];
}

/**
 * The inputs update() brings `live` to: `news` where the plan changes an input, the order's value where a step would
 * otherwise change an input the plan leaves alone. A running state the order reports that is no input's value (a
 * VPS restarting) is not a target: nothing is set.
 */
export function plannedUpdate(live: AboutOrder, recorded: RecordedOutputs, news: VpsInputs): PlannedUpdate {
  const planned = plannedInputs(live.order_oid, recorded, news);
  const current = orderOutputs(live, recorded) as Record<string, unknown>;
  const target: Record<string, unknown> = { ...news };
  const leftAlone: VpsInputName[] = [];
  for (const name of LIVE_STEP_INPUTS) {
    if (planned.has(name) || news[name] === undefined || news[name] === null) continue;
    leftAlone.push(name);
    const value = current[name];
    const settable = name !== "runningState" || value === "RUNNING" || value === "NOTRUNNING";
    if (value === undefined || !settable) delete target[name];
    else target[name] = value;
  }
  return { target: target as VpsInputs, leftAlone };
}

/**
 * The outputs an update records, with each input it left alone at its recorded value: the state says of it what it
 * said before the run (and the engine records the program's inputs beside it), so the next check, diff, budget and
 * bill agree that the run changes nothing there, and a refresh reports the change made outside Pulumi, as it would
 * have before. Everything the update did is recorded as the order now has it.
 */
export function keepingRecorded<T extends object>(
  outputs: T,
  recorded: RecordedOutputs,
  leftAlone: readonly VpsInputName[],
): T {
  const kept = leftAlone.filter((name) => recorded[name] !== undefined && recorded[name] !== null);
  return { ...outputs, ...Object.fromEntries(kept.map((name) => [name, recorded[name]])) };
}
