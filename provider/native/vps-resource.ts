/**
 * `rimuhosting:index:Vps` on the native protocol: each method adapts one request to provider/impl's
 * lifecycle (the same check, diff, create, read, update and delete the dynamic `Vps` runs) and adapts the
 * answer back. No rule of the resource lives here; what is here is what the protocol adds:
 *
 * - creationScope from the URN, secrets unwrapped and re-marked (protocol.ts);
 * - a detailed diff, one entry per input, saying which ones replace the VPS (impl's computeChanges());
 * - previews: the engine calls Create and Update with `preview` set, instead of the `__preview` input the
 *   dynamic Vps class adds. A preview answers with the outputs the change will have, unknown where the
 *   service decides them, and shows what the change will do and cost (preview-effects.ts);
 * - `pulumi import`: a Read with no recorded state (impl's read() then reports every input).
 */
import * as impl from "../impl/index.js";
import { computeChanges } from "../impl/vps-changes.js";
import { VPS_INPUT_NAMES, VPS_OUTPUT_ONLY, type VpsInputName } from "../impl/vps-fields.js";
import { UNKNOWN } from "../impl/unknowns.js";
import { log } from "../impl/log.js";
import { creationScopeOf, plainBag, withSecretOutputs, type Bag } from "./protocol.js";
import { changeEffects, previewCreate, previewUpdate, rememberReplacement } from "./preview-effects.js";

export type PropertyDiffKind =
  "add" | "delete" | "update" | "add-replace" | "delete-replace" | "update-replace";

export interface DiffAnswer {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Per input: what the change does (the engine shows `~ memoryMb`, `+- dcLocation`). */
  detailedDiff: Record<string, PropertyDiffKind>;
}

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

export async function check(
  urn: string,
  olds: Bag,
  news: Bag,
): Promise<{ inputs: Bag; failures: { property: string; reason: string }[] }> {
  // What the dynamic Vps class adds to every resource's inputs (provider/vps.ts), from the URN here.
  const result = await impl.check(plainBag(olds), { ...plainBag(news), creationScope: creationScopeOf(urn) });
  return { inputs: result.inputs, failures: result.failures ?? [] };
}

export async function diff(id: string, urn: string, olds: Bag, news: Bag): Promise<DiffAnswer> {
  const before = plainBag(olds);
  const after = plainBag(news);
  const answer = await impl.diff(id, before, after);
  const detailedDiff: Record<string, PropertyDiffKind> = {};
  if (answer.changes) {
    const changes = computeChanges(id, before, after);
    const replacing = new Set<string>(answer.replaces);
    const changed = new Set<VpsInputName>([
      ...answer.replaces.filter((name): name is VpsInputName => (VPS_INPUT_NAMES as string[]).includes(name)),
      ...changes.parameters,
      ...changes.reinstall,
      ...changes.settings,
      ...(changes.move ? (["hostServerOid"] as const) : []),
      ...(changes.runningState ? (["runningState"] as const) : []),
      ...(changes.reverseDns ? (["reverseDns"] as const) : []),
    ]);
    for (const name of VPS_INPUT_NAMES.filter((input) => changed.has(input))) {
      const kind = !isSet(before[name]) ? "add" : !isSet(after[name]) ? "delete" : "update";
      detailedDiff[name] = replacing.has(name) ? `${kind}-replace` : kind;
    }
    if (answer.replaces.length > 0) rememberReplacement(urn, before);
  }
  return { ...answer, detailedDiff };
}

export async function create(
  urn: string,
  properties: Bag,
  preview: boolean,
): Promise<{ id: string; properties: Bag }> {
  const inputs = plainBag(properties);
  if (preview) {
    await previewCreate(urn, inputs);
    return { id: "", properties: withSecretOutputs(previewOutputs(inputs, {})) };
  }
  const created = await impl.create(inputs);
  return { id: created.id, properties: withSecretOutputs(created.outs as unknown as Bag) };
}

export async function read(
  id: string,
  properties: Bag | undefined,
): Promise<{ id: string; properties: Bag; inputs?: Bag }> {
  const importing = properties === undefined || Object.keys(properties).length === 0;
  const result = await impl.read(id, properties ? plainBag(properties) : undefined);
  if (!result.id || !result.props) return { id: "", properties: {} };
  const inputs = result.inputs ?? {};
  if (importing && typeof inputs.__creationNonce === "string") {
    log(
      `Vps ${result.id}: warning: this order was created by a Pulumi stack. If that stack still manages it, ` +
        `remove it there (\`pulumi state delete\`), so that only this stack changes it.`,
    );
  }
  return { id: result.id, properties: withSecretOutputs(result.props as unknown as Bag), inputs };
}

export async function update(
  id: string,
  urn: string,
  olds: Bag,
  news: Bag,
  preview: boolean,
): Promise<{ properties: Bag }> {
  const before = plainBag(olds);
  const after = plainBag(news);
  if (preview) {
    const effects = changeEffects(id, before, after);
    await previewUpdate(urn, before, after, effects);
    const unknown = Object.fromEntries(effects.unknownOutputs.map((name) => [name, UNKNOWN]));
    return { properties: withSecretOutputs(previewOutputs(after, { ...before, ...unknown })) };
  }
  const updated = await impl.update(id, before, after);
  return { properties: withSecretOutputs(updated.outs as unknown as Bag) };
}

export async function deleteVps(id: string, properties: Bag): Promise<void> {
  await impl.delete(id, plainBag(properties));
}

/**
 * The outputs a preview shows: the inputs as given over what is known (the old outputs of an update), and
 * unknown for every other output (what the service will decide: order number, addresses, fee, the values
 * it picks for inputs left out), as Pulumi's own providers show them.
 */
function previewOutputs(inputs: Bag, known: Bag): Bag {
  const outputs: Bag = {};
  for (const name of [...VPS_INPUT_NAMES, ...VPS_OUTPUT_ONLY] as string[]) {
    outputs[name] = isSet(inputs[name]) ? inputs[name] : isSet(known[name]) ? known[name] : UNKNOWN;
  }
  for (const [name, value] of Object.entries(known)) if (value === UNKNOWN) outputs[name] = UNKNOWN;
  for (const name of ["creationScope", "__creationNonce"])
    if (isSet(inputs[name])) outputs[name] = inputs[name];
  return outputs;
}
