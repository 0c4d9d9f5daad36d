/**
 * What a refresh found changed outside Pulumi, in words: the drift, and a disk the program would now shrink. A
 * refresh's diff (refresh-diff.ts) shows these instead of the effects and the price of a change (vps-effects.ts,
 * money.ts), because it plans none: the refresh records what it read, and the next `pulumi up` plans from the
 * program then (a disk the program would shrink is refused by its check, vps-refusals.ts).
 */
import { changedInputNames, type VpsChanges } from "./vps-changes.js";
import { SECRET_FIELDS } from "./vps-fields.js";
import { changeRefusals } from "./vps-refusals.js";
import { info, warning, type Note } from "./notes.js";

const SECRET = new Set<string>(SECRET_FIELDS);

const shown = (value: unknown): string =>
  typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);

/**
 * The drift a refresh's diff found (`changes`: from the live order `live` to the recorded inputs `recorded`), as
 * one line naming each input with its recorded and its live value (a secret by name only), and a warning for each
 * disk the recorded inputs would shrink. The recorded inputs are those of the last up (or import), not the program:
 * an `up --refresh` of a program that already matches the VPS runs this first, so the warning says what it is based
 * on and when the next up is refused, never that the program says it.
 */
export function driftNotes(
  name: string,
  live: Record<string, unknown>,
  recorded: Record<string, unknown>,
  changes: VpsChanges,
): Note[] {
  // An order-only input changed outside Pulumi is drift; a setting is the provider's, never drift.
  const drifted = changedInputNames(changes, { settings: false, orderOnly: true });
  if (drifted.length === 0) return [];
  const values = drifted.map((input) =>
    SECRET.has(input) ? input : `${input} ${shown(recorded[input])} → ${shown(live[input])}`,
  );
  const notes = [info(`${name}: changed outside Pulumi: ${values.join(", ")}.`)];
  for (const refusal of changeRefusals(live, recorded, [])) {
    notes.push(
      warning(
        `${name}: if the program still says ${refusal.property} ${shown(recorded[refusal.property])} (as recorded ` +
          `before this refresh), the next up is refused: ${refusal.reason}`,
      ),
    );
  }
  return notes;
}
