/**
 * `rimuhosting:index:Vps` on the native protocol: each method adapts one request to provider/impl's
 * lifecycle (the same check, diff, create, read, update and delete the dynamic `Vps` runs) and adapts the
 * answer back. No rule of the resource lives here; what is here is what the protocol adds:
 *
 * - creationScope from the URN, secrets unwrapped and re-marked (protocol.ts);
 * - a detailed diff, one entry per input, saying which ones replace the VPS (impl's computeChanges());
 * - previews: Check and Diff carry no preview flag on this protocol, so they always run as the dynamic
 *   provider's preview does (impl's look-ahead checks, the effects' warnings, one quote per distinct request):
 *   a preview shows everything, and `pulumi up` checks the same before its first call. The engine then calls
 *   Create and Update with `preview` set; they answer with the outputs the change will have, unknown where
 *   the service decides them (a move's addresses, a resize's fee), or refuse with the budget's verdict that Check
 *   left to them (impl's previewRefusal: over only for a shrink the latest preview planned, which the update's guard
 *   waits for; docs/cost.md). A refresh's Diff (after its Read, before any
 *   Check) shows only the drift: impl's diffVps() tells it apart (impl/lifecycle/refresh-diff.ts);
 * - `pulumi import`: a Read with no recorded state (impl's read() then reports every input).
 */
import * as impl from "../impl/index.js";
import { changedInputNames, computeChanges } from "../impl/inputs/vps-changes.js";
import { effectsOf, type ChangeEffects } from "../impl/lifecycle/vps-effects.js";
import {
  INTERNAL_INPUTS,
  PREVIEW_FLAG,
  VPS_INPUT_NAMES,
  VPS_OUTPUT_ONLY,
} from "../impl/fields/vps-fields.js";
import { withUnknown } from "../impl/inputs/unknowns.js";
import { UNKNOWN } from "../impl/inputs/unknowns.js";
import { setValues } from "../impl/inputs/vps-values.js";
import { CURRENT_FEE_KEY, PLANNED_FEE_KEY } from "../impl/budget/planned-fee.js";
import type { RecordedOutputs, VpsInputs } from "../impl/index.js";
import type { EngineRequest } from "../impl/engine/time-limits.js";
import { sendNote, sendNotes } from "./engine-log.js";
import {
  creationScopeOf,
  inputsFromWire,
  inputsFromWireMarkingSecrets,
  stateFromWire,
  withSecretOutputs,
  type Bag,
} from "./protocol.js";

export type PropertyDiffKind =
  "add" | "delete" | "update" | "add-replace" | "delete-replace" | "update-replace";

export interface DiffAnswer {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Per input: what the change does (the engine shows `~ memoryMb`, `+- dcLocation`). */
  detailedDiff: Record<string, PropertyDiffKind>;
  /**
   * The detailed diff compares outputs, not inputs: a refresh's, whose drift includes facts that are no inputs
   * (the IP address), shown from the outputs before and after the refresh.
   */
  fromOutputs?: boolean;
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

export async function check(
  urn: string,
  olds: Bag,
  news: Bag,
): Promise<{ inputs: Bag; failures: { property: string; reason: string }[] }> {
  // What the dynamic Vps class adds to every resource's inputs (provider/vps.ts), from the URN here; and the
  // preview flag, always (see above). Its notes go to the resource with their severity (engine-log.ts).
  const given: VpsInputs = {
    ...inputsFromWire(news),
    creationScope: creationScopeOf(urn),
    [PREVIEW_FLAG]: true,
  };
  const result = await impl.checkVps(stateFromWire(olds, "", { refresh: true }) as VpsInputs, given, {
    mayApply: true,
  });
  sendNotes(result.notes);
  const { [PREVIEW_FLAG]: _flag, ...inputs } = result.inputs;
  return { inputs, failures: result.failures.map(impl.presentFailure) };
}

export async function diff(id: string, _urn: string, olds: Bag, news: Bag): Promise<DiffAnswer> {
  const before = stateFromWire(olds, `Vps ${id}`);
  const after = inputsFromWire(news);
  // The inputs the program marked secret stay marked for diffVps(): a refresh's drift names them without values.
  const answer = await impl.diffVps(id, before, {
    ...inputsFromWireMarkingSecrets(news),
    [PREVIEW_FLAG]: true,
  });
  sendNotes(answer.notes);
  const detailedDiff: Record<string, PropertyDiffKind> = {};
  const changes = answer.planned;
  if (answer.drifted) {
    // A refresh's: each property found changed outside Pulumi, shown from the outputs before and after it.
    for (const name of answer.drifted) detailedDiff[name] = "update";
  } else if (answer.changes && changes) {
    const replacing = new Set<string>(answer.replaces);
    // What the update acts on: a setting it records, not an order-only input it cannot apply (vps-changes.ts).
    for (const name of changedInputNames(changes, { settings: true, orderOnly: false })) {
      const kind = !isSet(before[name]) ? "add" : !isSet(after[name]) ? "delete" : "update";
      detailedDiff[name] = replacing.has(name) ? `${kind}-replace` : kind;
    }
  }
  return {
    changes: answer.changes,
    replaces: answer.replaces,
    deleteBeforeReplace: answer.deleteBeforeReplace,
    detailedDiff,
    ...(answer.drifted ? { fromOutputs: true } : {}),
  };
}

/** The outputs an in-place change gives values only the service knows after it ran. */
function outputsChangedBy(effects: ChangeEffects): string[] {
  const unknown = new Set<string>(effects.move?.changesOutputs ?? []);
  if (effects.restart || effects.move) unknown.add("monthlyFeeUsd");
  return [...unknown];
}

export async function create(
  urn: string,
  properties: Bag,
  preview: boolean,
  engine?: EngineRequest,
): Promise<{ id: string; properties: Bag }> {
  const inputs = inputsFromWire(properties);
  if (preview) {
    // Checked and quoted by Check (impl's look-ahead); the service decides the rest.
    const refused = impl.previewRefusal(inputs);
    if (refused) throw refused;
    return { id: "", properties: withSecretOutputs(previewOutputs(inputs, {})) };
  }
  const created = await impl.create(inputs, engine);
  return { id: created.id, properties: withSecretOutputs(created.outs) };
}

export async function read(
  id: string,
  properties: Bag | undefined,
  engine?: EngineRequest,
): Promise<{ id: string; properties: Bag; inputs?: Bag }> {
  const importing = properties === undefined || Object.keys(properties).length === 0;
  const result = await impl.read(
    id,
    properties ? stateFromWire(properties, `Vps ${id}`, { refresh: true }) : undefined,
    engine,
  );
  if (!result.id || !result.props) return { id: "", properties: {} };
  const inputs = result.inputs ?? {};
  if (importing && typeof inputs.__creationNonce === "string") {
    sendNote(
      "warning",
      `Vps ${result.id}: this order was created by a Pulumi stack. If that stack still manages it, ` +
        `remove it there (\`pulumi state delete\`), so that only this stack changes it.`,
    );
  }
  return { id: result.id, properties: withSecretOutputs(result.props), inputs };
}

export async function update(
  id: string,
  urn: string,
  olds: Bag,
  news: Bag,
  preview: boolean,
  engine?: EngineRequest,
): Promise<{ properties: Bag }> {
  const before = stateFromWire(olds, `Vps ${id}`);
  const after = inputsFromWire(news);
  if (preview) {
    // Warned about and quoted by Diff (impl's diffVps); here only the outputs the change makes unknown.
    const refused = impl.previewRefusal(after);
    if (refused) throw refused;
    const effects = effectsOf(computeChanges(id, before, after), after);
    return { properties: withSecretOutputs(previewOutputs(after, before, outputsChangedBy(effects))) };
  }
  const updated = await impl.update(id, before, after, engine);
  return { properties: withSecretOutputs(updated.outs) };
}

/**
 * `urn`: the resource's, which the engine sends. A VPS brought in by `pulumi import` records no creationScope (Read has
 * none to give): its delete takes it from the URN, as check() does, so that a deleteBeforeReplace's cancelled fee is
 * noted under the key its replacement is checked with (ordering/order-guard.ts), and the sweep knows its stack.
 */
export async function deleteVps(
  id: string,
  properties: Bag,
  engine?: EngineRequest,
  urn?: string,
): Promise<void> {
  const recorded = stateFromWire(properties, `Vps ${id}`);
  const scoped = urn !== undefined && typeof recorded.creationScope !== "string";
  await impl.delete(id, scoped ? { ...recorded, creationScope: creationScopeOf(urn) } : recorded, engine);
}

/**
 * The outputs a preview shows: the inputs as given over what is known (the old outputs of an update), and
 * unknown for every other output (what the service will decide: order number, addresses, fee, the values
 * it picks for inputs left out), as Pulumi's own providers show them; and unknown, the outputs `changed` names;
 * and the planned fee, when check() knew it.
 */
function previewOutputs(
  inputs: VpsInputs,
  known: RecordedOutputs,
  changed: readonly string[] = [],
): RecordedOutputs {
  const given: Record<string, unknown> = setValues(inputs);
  const had: Record<string, unknown> = setValues(known);
  const outputs = [...VPS_INPUT_NAMES, ...VPS_OUTPUT_ONLY].map((name) => [
    name,
    given[name] ?? had[name] ?? UNKNOWN,
  ]);
  const internal = INTERNAL_INPUTS.filter((name) => isSet(given[name])).map((name) => [name, given[name]]);
  // The planned and current fees too: a stack policy reads a preview's outputs, and the dynamic Vps's preview
  // outputs are its checked inputs, which carry them (impl/budget/planned-fee.ts). Only in a preview: a real create or
  // update reports monthlyFeeUsd instead.
  const planned = [PLANNED_FEE_KEY, CURRENT_FEE_KEY]
    .filter((key) => isSet(given[key]))
    .map((key) => [key, given[key]]);
  return withUnknown(Object.fromEntries([...outputs, ...internal, ...planned]) as RecordedOutputs, changed);
}
