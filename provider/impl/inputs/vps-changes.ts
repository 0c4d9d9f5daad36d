/**
 * What a change of inputs means for an existing VPS: a pure function of the old outputs (or the live
 * order as outputs) and the new inputs. diff() reports it; update() carries it out.
 */
import {
  REPORTED_FIELDS,
  VPS_FIELDS,
  VPS_INPUT_FIELDS,
  VPS_INPUT_NAMES,
  inputsOfKind,
  type VpsInputName,
} from "../fields/vps-fields.js";
import { type FieldRule } from "../fields/vps-field-rules.js";
import { containsUnknown } from "./unknowns.js";
import { same } from "./canonical-json.js";
import { changeRefusals } from "./vps-refusals.js";
import { VpsChangeRefusedError } from "../engine/errors.js";

export interface VpsChanges {
  /** Inputs whose change needs a new VPS (reported to the engine as `replaces`). */
  replaces: VpsInputName[];
  /** memoryMb / diskSpaceMb / diskSpace2Mb to apply with one resize (restarts the VPS). */
  parameters: VpsInputName[];
  /** hostServerOid changed: move the VPS. */
  move: boolean;
  /** Fields applied by a reinstall (erases the disk). */
  reinstall: VpsInputName[];
  /** runningState changed. */
  runningState: boolean;
  /** reverseDns changed: set the PTR record of the primary address. */
  reverseDns: boolean;
  /** Provider settings that changed (no API call). */
  settings: VpsInputName[];
  /** Order-only fields that changed and cannot be applied (reported as a warning). */
  orderOnly: VpsInputName[];
}

/**
 * Every input whose change forces a replacement, in table order. The one list: computeChanges() puts
 * only these in `replaces`, and the creation token (creation-token.ts) is derived from their values.
 */
export const REPLACE_FORCING_INPUTS: readonly VpsInputName[] = inputsOfKind("replace", "adopt");

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Create-only inputs the service never reports (pricingPlanCode, vpsType): going from unset to set cannot
 * be told apart from "recording what the order already is", so only a change from one value to another
 * replaces.
 */
const UNREPORTED_CREATE_ONLY = new Set<VpsInputName>(
  inputsOfKind("replace").filter((name) => !REPORTED_FIELDS.includes(name)),
);

/**
 * Compares old outputs with new inputs. Inputs the user did not set are never changes: the service
 * picked those values (host server, distro, sizes...). An input still unknown (preview) counts as changed.
 */
export function computeChanges(
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): VpsChanges {
  const changes: VpsChanges = {
    replaces: [],
    parameters: [],
    move: false,
    reinstall: [],
    runningState: false,
    reverseDns: false,
    settings: [],
    orderOnly: [],
  };
  for (const name of VPS_INPUT_NAMES) {
    const kind = VPS_INPUT_FIELDS[name];
    const after = news[name];
    const before = olds[name];
    if (kind === "setting") {
      // A setting left out is its default (allowReinstall: false): SDKs generated from the schema send the
      // default, programs on the dynamic Vps leave it out, and neither is a change.
      const fallback = (VPS_FIELDS[name] as FieldRule).defaultValue;
      const value = (v: unknown) => (isSet(v) ? v : fallback);
      if (!same(value(before), value(after))) changes.settings.push(name);
      continue;
    }
    if (!isSet(after)) continue;
    const unknown = containsUnknown(after);
    if (kind === "adopt") {
      if (unknown || Number(after) !== Number(id)) changes.replaces.push(name);
      continue;
    }
    if (!unknown && same(before, after)) continue;
    if (!unknown && !isSet(before) && UNREPORTED_CREATE_ONLY.has(name)) continue;
    switch (kind) {
      case "replace":
        changes.replaces.push(name);
        break;
      case "parameters":
        changes.parameters.push(name);
        break;
      case "move":
        changes.move = true;
        break;
      case "reinstall":
        changes.reinstall.push(name);
        break;
      case "running-state":
        changes.runningState = true;
        break;
      case "reverse-dns":
        changes.reverseDns = true;
        break;
      case "order-only":
        changes.orderOnly.push(name);
        break;
    }
  }
  return changes;
}

/**
 * The inputs a change set names, in table order: the one way back from VpsChanges to input names. Two of its parts
 * are not changes of the VPS, so each caller says whether it wants them:
 * - `settings` (allowReinstall, timeouts) are the provider's own: an update records them with no API call. A
 *   detailed diff names them (such an update is theirs alone); a refresh never finds them drifted (the service
 *   has no such thing: the refreshed outputs keep the recorded ones).
 * - `orderOnly` (billingOid, metaData) cannot be changed on an existing order: an update leaves them (a warning
 *   says so), so a detailed diff does not show them changing; the service reports them, so a refresh's drift does.
 */
export function changedInputNames(
  changes: VpsChanges,
  include: { settings: boolean; orderOnly: boolean },
): VpsInputName[] {
  const changed = new Set<VpsInputName>([
    ...changes.replaces,
    ...changes.parameters,
    ...changes.reinstall,
    ...(include.settings ? changes.settings : []),
    ...(include.orderOnly ? changes.orderOnly : []),
    ...(changes.move ? (["hostServerOid"] as const) : []),
    ...(changes.runningState ? (["runningState"] as const) : []),
    ...(changes.reverseDns ? (["reverseDns"] as const) : []),
  ]);
  return VPS_INPUT_NAMES.filter((name) => changed.has(name));
}

/** True if anything must happen (including recording a setting). */
export function hasChanges(changes: VpsChanges): boolean {
  return (
    changes.replaces.length > 0 ||
    changes.parameters.length > 0 ||
    changes.move ||
    changes.reinstall.length > 0 ||
    changes.runningState ||
    changes.reverseDns ||
    changes.settings.length > 0
  );
}

/**
 * Throws if an in-place change is not allowed: a disk shrink, or a reinstall without allowReinstall
 * (the rule check() applied, changeRefusals). Not checked when the VPS is replaced anyway.
 */
export function assertChangesAllowed(
  changes: VpsChanges,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): void {
  if (changes.replaces.length > 0) return;
  const refusals = changeRefusals(olds, news, changes.reinstall);
  // A shrink is named first: it cannot be allowed, while a reinstall can.
  const refusal =
    refusals.find((r) => !changes.reinstall.includes(r.property as VpsInputName)) ?? refusals[0];
  if (refusal) throw new VpsChangeRefusedError(refusal.property, refusal.reason);
}
