/**
 * Which keys a Vps's inputs may hold: the field table's inputs, the internal keys, and the outputs the Vps class
 * seeds as undefined. Any other key is refused by check(), with the input it most likely meant.
 */
import { INTERNAL_KEYS, USER_SET_INTERNAL, VPS_INPUT_NAMES, VPS_OUTPUT_ONLY } from "../fields/vps-fields.js";
import type { CheckFailure } from "../engine/check-failure.js";
import type { ParsedInputs } from "./vps-values.js";

/** Keys the program may pass besides the inputs: the outputs the Vps class seeds as undefined. */
const OUTPUT_ONLY_KEYS = new Set<string>(VPS_OUTPUT_ONLY);
const KNOWN_KEYS = new Set<string>([...VPS_INPUT_NAMES, ...INTERNAL_KEYS, USER_SET_INTERNAL]);

/** True for a key the input schema validates or the provider sets (the internal keys). */
export const isKnownKey = (key: string): boolean => KNOWN_KEYS.has(key);

/** Failures for keys that are not inputs (a typo such as memorymb would otherwise be ignored). */
export function unknownKeyFailures(news: ParsedInputs): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const set: Record<string, unknown> = news.values;
  for (const key of news.named) {
    if (KNOWN_KEYS.has(key)) continue;
    if (OUTPUT_ONLY_KEYS.has(key) && set[key] === undefined) continue;
    const suggestion = closestInput(key);
    failures.push({
      property: key,
      reason:
        `is not an input of Vps` +
        (suggestion ? `; did you mean ${suggestion}?` : `; the inputs are ${VPS_INPUT_NAMES.join(", ")}`),
    });
  }
  return failures;
}

/** The input a mistyped key most likely meant: same letters ignoring case, or at most 2 edits away. */
function closestInput(key: string): string | undefined {
  const lower = key.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of VPS_INPUT_NAMES) {
    const distance = name.toLowerCase() === lower ? 0 : editDistance(lower, name.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
