/**
 * What a refresh found changed outside Pulumi, in words: the drift, and a disk the program would now shrink. A
 * refresh's diff (refresh-diff.ts) shows these instead of the effects and the price of a change (vps-effects.ts,
 * money.ts), because it plans none: the refresh records what it read, and the next `pulumi up` plans from the
 * program then (a disk the program would shrink is refused by its check, vps-refusals.ts).
 */
import { changedInputNames, hasChanges, type VpsChanges } from "../inputs/vps-changes.js";
import { PRINTABLE_FIELDS } from "../fields/vps-fields.js";
import { changeRefusals } from "../inputs/vps-refusals.js";
import { info, resourceName, warning, type Note } from "../engine/notes.js";
import { log, type LogSink } from "../engine/log.js";
import { observedOutOfBand, type ObservedChange } from "./service-drift.js";
import { driftValue } from "./drift-value.js";

const PRINTABLE = new Set<string>(PRINTABLE_FIELDS);

/**
 * The drift a refresh's diff found (`changes`: from the live order `live` to the recorded inputs `recorded`), as
 * one line naming each input with its recorded and its live value, and a warning for each disk the recorded inputs
 * would shrink. Values only of the inputs the field table calls printable (plain facts: sizes, state, host, distro)
 * and the program did not mark secret (`secret`, the keys it gave as secrets where the front end knows them: the
 * native plugin's; the dynamic provider's host strips the marks): every other input by name only. The recorded inputs are those of the last up (or import), not the program:
 * an `up --refresh` of a program that already matches the VPS runs this first, so the warning says what it is based
 * on and when the next up is refused, never that the program says it. `observed`: what read() saw change that the
 * program does not set (service-drift.ts: the host, the IP addresses, the fee), named with both values (plain facts).
 */
export function driftNotes(
  name: string,
  live: Record<string, unknown>,
  recorded: Record<string, unknown>,
  changes: VpsChanges,
  secret: readonly string[] = [],
  observed: readonly ObservedChange[] = [],
): Note[] {
  const shows = (input: string) => PRINTABLE.has(input) && !secret.includes(input);
  // An order-only input changed outside Pulumi is drift; a setting is the provider's, never drift.
  const drifted = changedInputNames(changes, { settings: false, orderOnly: true });
  if (drifted.length === 0 && observed.length === 0) return [];
  const values = [
    ...drifted.map((input) =>
      shows(input) ? `${input} ${driftValue(recorded[input])} → ${driftValue(live[input])}` : input,
    ),
    ...observed.map(
      ({ property, before, after }) => `${property} ${driftValue(before)} → ${driftValue(after)}`,
    ),
  ];
  const notes = [info(`${name}: changed outside Pulumi: ${values.join(", ")}.`)];
  for (const refusal of changeRefusals(live, recorded, [])) {
    const input = refusal.property;
    notes.push(
      warning(
        shows(input)
          ? `${name}: if the program still says ${input} ${driftValue(recorded[input])} (as recorded before this ` +
              `refresh), the next up is refused: ${refusal.reason}`
          : `${name}: if the program still says the ${input} recorded before this refresh, the next up is ` +
              `refused: ${input} can only grow.`,
      ),
    );
  }
  return notes;
}

/**
 * A refresh's diff (`live`: the outputs read() returned, `recorded`: the inputs of the last up): the drift, never a
 * plan. It says there are changes whenever anything drifted, the facts the program does not set too (read() saw
 * them, service-drift.ts), so that the refresh shows it and `refresh --expect-no-changes` fails on it. `drifted`
 * names each property, for the native plugin's detailed diff.
 */
export function refreshDrift(
  name: string,
  live: Record<string, unknown>,
  recorded: Record<string, unknown>,
  changes: VpsChanges,
  secret: readonly string[],
): { changes: boolean; notes: Note[]; drifted: string[] } {
  const observed = observedOutOfBand(live, recorded);
  const drifted = [
    ...changedInputNames(changes, { settings: false, orderOnly: true }),
    ...observed.map((change) => change.property),
  ];
  return {
    changes: hasChanges(changes) || drifted.length > 0,
    notes: driftNotes(name, live, recorded, changes, secret, observed),
    drifted,
  };
}

/** A read of an order RimuHosting no longer has: the engine drops the VPS; its drift line says so. */
export function goneRead(
  run: { readonly log: LogSink },
  recorded: Record<string, unknown>,
  oid: number,
): Record<string, never> {
  const domain = typeof recorded.domainName === "string" ? recorded.domainName : undefined;
  if (Object.keys(recorded).length > 0) log(run, goneLine(resourceName(recorded), oid, domain));
  return {};
}

/**
 * The drift line of a VPS a refresh found gone (deleted, or past its cancellation, outside Pulumi): the engine shows
 * only its delete step, so this names it as the other drift is named. The credit RimuHosting gave is in its answer
 * to the delete (docs/rimuhosting-api.md R6), which only whoever deleted it saw: no read reports it.
 */
function goneLine(name: string, oid: number, domainName: string | undefined): string {
  const order = domainName === undefined ? `order ${oid}` : `order ${oid} ${domainName}`;
  return `${name}: changed outside Pulumi: ${order} → gone (cancelled or removed).`;
}
