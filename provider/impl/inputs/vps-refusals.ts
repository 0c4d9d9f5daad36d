/**
 * THE refusal rule of a change, before anything is changed: a reinstall without allowReinstall, a grow-only input
 * that would shrink. check() applies it to the previous inputs (transitionFailures), update() to the changes it
 * planned against the live order (changeRefusals, through assertChangesAllowed in vps-changes.ts).
 */
import { containsUnknown } from "./unknowns.js";
import { GROW_ONLY_FIELDS, REPORTED_FIELDS, inputsOfKind } from "../fields/vps-fields.js";
import { same } from "./canonical-json.js";
import { VPS_ERROR_CODES } from "../engine/errors.js";
import type { CheckFailure } from "../engine/check-failure.js";
import type { ParsedInputs } from "./vps-values.js";

/** Installed by a reinstall only, so a change needs allowReinstall (from the one table, vps-fields.ts). */
const REINSTALL_FIELDS = inputsOfKind("reinstall");

/**
 * Refuses, before anything is changed, what the service would refuse or what destroys data without
 * consent: compared with the previous inputs (olds). check() calls it; update() applies the same rule
 * (changeRefusals) to the changes it planned against the live order.
 */
export function transitionFailures(olds: Record<string, unknown>, parsed: ParsedInputs): CheckFailure[] {
  if (Object.keys(olds).length === 0) return []; // a new resource: nothing to change from
  const news: Record<string, unknown> = parsed.values;
  const known: Record<string, unknown> = parsed.known;
  const reinstalled = REINSTALL_FIELDS.filter((field) => {
    if (known[field] === undefined) return false;
    const old = olds[field];
    if (old !== undefined && old !== null && !containsUnknown(old)) return !same(old, known[field]);
    // Set now, unset before: the service does not report these, so the VPS has none the program knows of,
    // and update() reinstalls to install them. A reported one (distro) is compared with the live order.
    return !REPORTED_FIELDS.includes(field) && olds[field] === undefined;
  });
  return changeRefusals(olds, news, reinstalled);
}

/**
 * THE refusal rule of a change, for check() and update() alike: reinstalling fields without
 * allowReinstall (an allowReinstall still unknown in a preview is not refused), and shrinking a
 * grow-only input. Reinstall refusals first, one failure per field.
 */
export function changeRefusals(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  reinstalled: readonly string[],
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (news.allowReinstall !== true && !containsUnknown(news.allowReinstall)) {
    for (const field of reinstalled)
      failures.push({
        property: field,
        reason: reinstallRefusal(field, olds[field], news[field]),
        code: VPS_ERROR_CODES.changeRefused,
      });
  }
  failures.push(...shrinkFailures(olds, news));
  return failures;
}

/** A grow-only input (a disk: RimuHosting only grows disks) that would shrink from `olds` to `news`. */
function shrinkFailures(olds: Record<string, unknown>, news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const field of GROW_ONLY_FIELDS) {
    const before = olds[field];
    const after = news[field];
    if (typeof before === "number" && typeof after === "number" && after < before) {
      failures.push({
        property: field,
        reason: shrinkRefusal(field, before, after),
        code: VPS_ERROR_CODES.changeRefused,
      });
    }
  }
  return failures;
}

/** The reason given when a reinstall field changes without allowReinstall. */
function reinstallRefusal(field: string, before: unknown, after: unknown): string {
  // Values are named only for distro: the other reinstall fields may be secrets.
  const change = field === "distro" ? ` from ${String(before)} to ${String(after)}` : "";
  return (
    `changing ${field}${change} means reinstalling the VPS, which erases its disk. ` +
    `Set allowReinstall: true to reinstall in place (same order, same IP), ` +
    `or put ${field} back to its previous value.`
  );
}

/** The reason given for a disk shrink. */
function shrinkRefusal(field: string, before: number, after: number): string {
  return (
    `a disk cannot shrink (${before} MB to ${after} MB): RimuHosting only grows disks. ` +
    `Keep ${field} at ${before} or more, or order a new VPS with the smaller disk.`
  );
}
