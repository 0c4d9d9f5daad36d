/**
 * The model's two front ends on the one core (engine.ts calls them as the Pulumi engine calls each provider):
 *
 * - "dynamic": the dynamic `Vps`'s host, impl's check, diff, create, update, delete, read, with the preview flag in
 *   the inputs of a preview's check (provider/vps.ts adds it).
 * - "native": the native plugin's resource functions (provider/native/vps-resource.ts: what its gRPC server calls),
 *   in-process, inputs and state in the protocol's bags. Its Check is not told the phase (it checks as a preview
 *   does, and may leave a budget verdict to the step); the engine tells it at Create and Update, whose preview calls
 *   (`preview` set) are steps of the preview here (engine.ts).
 */
import * as impl from "../../../provider/impl/index";
import * as native from "../../../provider/native/vps-resource";
import { computeChanges, type VpsChanges } from "../../../provider/impl/inputs/vps-changes";
import { inputsFromWire, stateFromWire, withSecretOutputs } from "../../../provider/native/protocol";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import type { Held, Spec, Stack } from "./engine";

export type FrontEndName = "dynamic" | "native";

export interface Checked {
  inputs: VpsInputs;
  failures?: readonly { reason: string }[];
}
export interface Diffed {
  changes: boolean;
  replaces: readonly string[];
  /** What the update will do, input by input (I6). */
  planned?: VpsChanges;
}
type Outs = Record<string, unknown>;

/** One front end's calls of a VPS, as the engine makes them (each inside the run of its provider process). */
export interface FrontEnd {
  readonly name: FrontEndName;
  /** Check: of the program's inputs against `held`'s (none: a new resource, or a replacement's second check). */
  check(stack: Stack, spec: Spec, olds: VpsInputs | undefined, preview: boolean): Promise<Checked>;
  diff(stack: Stack, held: Held, checked: VpsInputs): Promise<Diffed>;
  /** The preview's step of a create or an update (native: Create/Update with `preview`); throws a refusal. */
  previewStep?(stack: Stack, spec: Spec, checked: VpsInputs, held?: Held): Promise<void>;
  create(stack: Stack, spec: Spec, checked: VpsInputs): Promise<{ id: string; outs: Outs }>;
  update(stack: Stack, held: Held, checked: VpsInputs): Promise<{ outs: Outs }>;
  delete(held: Held): Promise<void>;
  read(held: Held): Promise<{ id?: string; outs?: Outs; inputs?: VpsInputs }>;
  /** What the state records of a create or update that failed half-done (impl's VpsIncompleteError). */
  stateOfIncomplete(properties: Outs): Outs;
}

/** What the program gives a VPS (both front ends); the dynamic `Vps` class adds its internal inputs. */
const programInputs = (stack: Stack, spec: Spec): VpsInputs => ({
  domainName: `${spec.name}.${stack.name}.model.example.com`,
  distro: "deb12.64",
  dcLocation: spec.dcLocation,
  memoryMb: spec.memoryMb,
  diskSpaceMb: spec.diskSpaceMb,
  ...(spec.reverseDns === undefined ? {} : { reverseDns: `${spec.reverseDns}.model.example.com` }),
  ...(spec.adopt === undefined ? {} : { adoptOrderOid: spec.adopt }),
});

/** The dynamic `Vps`'s inputs: its creation scope (project/stack/name, as the native URN gives it) and flags. */
export const inputsOf = (stack: Stack, spec: Spec, preview: boolean): VpsInputs => ({
  ...programInputs(stack, spec),
  creationScope: `model/${stack.name}/${spec.name}`,
  __provider: "text",
  ...(preview ? { __preview: true } : {}),
});

const noFailures = (failures: readonly { reason: string }[] | undefined) =>
  failures && failures.length > 0 ? { failures } : {};

const dynamic: FrontEnd = {
  name: "dynamic",
  async check(stack, spec, olds, preview) {
    const checked = await impl.check(olds ?? {}, inputsOf(stack, spec, preview));
    return { inputs: checked.inputs, ...noFailures(checked.failures) };
  },
  async diff(_stack, held, checked) {
    const diff = await impl.diffVps(held.id, held.outs as never, checked);
    return { changes: diff.changes, replaces: diff.replaces, planned: diff.planned };
  },
  stateOfIncomplete: (properties) => properties,
  async create(_stack, _spec, checked) {
    const made = await impl.create(checked);
    return { id: made.id, outs: made.outs as Outs };
  },
  async update(_stack, held, checked) {
    return { outs: (await impl.update(held.id, held.outs as never, checked)).outs as Outs };
  },
  async delete(held) {
    await impl.delete(held.id, held.outs as never);
  },
  async read(held) {
    const read = await impl.read(held.id, held.outs as never);
    return {
      ...(read.id ? { id: read.id } : {}),
      ...(read.props ? { outs: read.props as Outs } : {}),
      // The dynamic host keeps the serialized provider beside the inputs read.
      ...(read.inputs ? { inputs: { ...read.inputs, __provider: held.inputs.__provider } } : {}),
    };
  },
};

/** The URN the engine gives a VPS of the model's project: its creation scope is model/<stack>/<name>. */
const urnOf = (stack: Stack, name: string) =>
  `urn:pulumi:${stack.name}::model::rimuhosting:index:Vps::${name}`;
type Bag = Record<string, unknown>;

const nativePlugin: FrontEnd = {
  name: "native",
  async check(stack, spec, olds, _preview) {
    const checked = await native.check(
      urnOf(stack, spec.name),
      (olds ?? {}) as Bag,
      programInputs(stack, spec),
    );
    return { inputs: checked.inputs as VpsInputs, ...noFailures(checked.failures) };
  },
  async diff(stack, held, checked) {
    const answer = await native.diff(held.id, urnOf(stack, held.spec.name), held.outs, checked as Bag);
    // What the update will do (the plugin's Diff says it as a detailed diff): the same pure rule, for I6.
    const planned = computeChanges(
      held.id,
      stateFromWire(held.outs, held.id),
      inputsFromWire(checked as Bag),
    );
    return { changes: answer.changes, replaces: answer.replaces, planned };
  },
  async previewStep(stack, spec, checked, held) {
    const urn = urnOf(stack, spec.name);
    if (held) await native.update(held.id, urn, held.outs, checked as Bag, true);
    else await native.create(urn, checked as Bag, true);
  },
  async create(stack, spec, checked) {
    const made = await native.create(urnOf(stack, spec.name), checked as Bag, false);
    return { id: made.id, outs: made.properties };
  },
  // The server sends an unfinished change's properties as it sends outputs (secrets marked), and the engine records them.
  stateOfIncomplete: (properties) => withSecretOutputs(properties),
  async update(stack, held, checked) {
    const urn = urnOf(stack, held.spec.name);
    return { outs: (await native.update(held.id, urn, held.outs, checked as Bag, false)).properties };
  },
  async delete(held) {
    await native.deleteVps(held.id, held.outs);
  },
  async read(held) {
    const read = await native.read(held.id, held.outs);
    return read.id ? { id: read.id, outs: read.properties, inputs: read.inputs as VpsInputs } : {};
  },
};

export const FRONT_ENDS: Record<FrontEndName, FrontEnd> = { dynamic, native: nativePlugin };
