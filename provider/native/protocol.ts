/**
 * What the native protocol sends differs from what the dynamic-provider host hands provider/impl, and this
 * module is where the difference is undone, in both directions (docs/native-plugin.md, "One core"):
 *
 * - The plugin accepts secrets (ConfigureResponse.acceptSecrets), so inputs arrive with secret envelopes
 *   anywhere in them. impl works on plain values, as the dynamic host gives it: `plain()` unwraps them.
 * - On the way back, the outputs the field table marks secret go out as secrets (the dynamic `Vps` class
 *   declares them `additionalSecretOutputs`; here the provider says so itself).
 * - The dynamic `Vps` class adds `creationScope` = `<project>/<stack>/<name>` to the inputs; here it is
 *   derived from the URN, so a VPS moved from one front end to the other keeps its creation token.
 * - google.protobuf.Struct cannot carry `undefined`: such keys are dropped.
 */
import { Struct, type JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";
import { SECRET_FIELDS } from "../impl/fields/vps-fields.js";
import { asSecret, isSecretValue, unwrapSecret } from "../impl/inputs/secret-values.js";
import { UNKNOWN } from "../impl/inputs/unknowns.js";
import type { RecordedOutputs, VpsInputs } from "../impl/index.js";
import { recordedState, refreshableState } from "../impl/inputs/vps-values.js";

export type Bag = Record<string, unknown>;

/** The value with every secret envelope, at any depth, replaced by the value inside. */
export function plain(value: unknown): unknown {
  const inner = unwrapSecret(value);
  if (Array.isArray(inner)) return inner.map(plain);
  if (inner !== null && typeof inner === "object")
    return Object.fromEntries(Object.entries(inner).map(([key, item]) => [key, plain(item)]));
  return inner;
}

/** A property bag with its secret envelopes unwrapped. */
export const plainBag = (bag: Bag): Bag => plain(bag) as Bag;

/**
 * A Vps's new inputs from the wire, as the lifecycle takes them: every secret envelope unwrapped. They are the
 * program's, parsed by checkVps(), which reports what is wrong as failures.
 */
export function inputsFromWire(bag: Bag): VpsInputs {
  return plain(bag) as VpsInputs;
}

/** True if the value holds a secret envelope at any depth. */
function holdsSecret(value: unknown): boolean {
  if (isSecretValue(value)) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsSecret);
  return false;
}

/**
 * inputsFromWire(), but an input that held a secret anywhere (the program's `fn::secret`, `pulumi.secret`) comes
 * back as a secret as a whole: the lifecycle then knows to name it without its value (impl's vps-drift.ts).
 */
export function inputsFromWireMarkingSecrets(bag: Bag): VpsInputs {
  return Object.fromEntries(
    Object.entries(bag).map(([key, value]) => [
      key,
      holdsSecret(value) ? asSecret(plain(value)) : plain(value),
    ]),
  ) as VpsInputs;
}

/**
 * A Vps's recorded state from the wire (old inputs and outputs: what this provider, maybe an older version of it,
 * answered earlier), unwrapped and parsed (impl/inputs/recorded-state.ts): a value not of its kind is refused naming the
 * field (`what` names the resource), or, for a refresh (`refresh: true`), left out to be read again.
 */
export function stateFromWire(bag: Bag, what: string, opts: { refresh?: true } = {}): RecordedOutputs {
  const unwrapped = plain(bag) as Record<string, unknown>;
  return opts.refresh ? refreshableState(unwrapped) : recordedState(unwrapped, what);
}

/**
 * The other way, a Vps's outputs to the wire: the field table's secret inputs (password, cloudConfig, files)
 * marked secret.
 */
export function withSecretOutputs(outputs: Bag): Bag {
  const marked: Bag = { ...outputs };
  for (const name of SECRET_FIELDS) {
    const value = marked[name];
    if (value !== undefined && value !== null && value !== UNKNOWN) marked[name] = asSecret(plain(value));
  }
  return marked;
}

/**
 * `urn:pulumi:<stack>::<project>::<type>::<name>` (the type may carry parent types, `a$b`) to
 * `<project>/<stack>/<name>`: the creationScope the dynamic Vps class sends (provider/vps.ts).
 */
export function creationScopeOf(urn: string): string {
  const [head = "", project = "", , ...name] = urn.split("::");
  return `${project}/${head.slice("urn:pulumi:".length)}/${name.join("::")}`;
}

/** The type token of a URN, e.g. `rimuhosting:index:Vps` (without parent types). */
export function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? qualified;
}

/** The value without `undefined` anywhere (Struct cannot carry it). */
function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(defined);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => [key, defined(item)]),
    );
  return value;
}

export const toStruct = (bag: Bag): Struct =>
  Struct.fromJavaScript(defined(bag) as Record<string, JavaScriptValue>);
export const fromStruct = (struct: Struct | undefined): Bag => (struct ? struct.toJavaScript() : {});
