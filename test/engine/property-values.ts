// The two sentinels the SDK puts into property values (the SDK's own constants from runtime/rpc: unknownValue,
// specialSigKey, specialSecretSig), and the helpers the engine needs around them.
import { specialSecretSig, specialSigKey, unknownValue } from "@pulumi/pulumi/runtime/rpc";
import type { PropertyMap } from "../helpers/provider-host";

export const UNKNOWN = unknownValue;
export const SIG_KEY = specialSigKey;
export const SECRET_SIG = specialSecretSig;

export interface SecretEnvelope {
  [SIG_KEY]: typeof SECRET_SIG;
  value: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function isSecret(v: unknown): v is SecretEnvelope {
  return isObject(v) && v[SIG_KEY] === SECRET_SIG;
}

export function wrapSecret(value: unknown): SecretEnvelope {
  return isSecret(value) ? value : { [SIG_KEY]: SECRET_SIG, value };
}

/** Removes every secret envelope; returns the plain value and the top-level keys that held (or contained) a secret. */
export function unwrapSecrets(props: PropertyMap): { plain: PropertyMap; secretKeys: string[] } {
  const secretKeys = new Set<string>();
  const strip = (v: unknown, key: string): unknown => {
    if (isSecret(v)) {
      secretKeys.add(key);
      return strip(v.value, key);
    }
    if (Array.isArray(v)) return v.map((x) => strip(x, key));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x, key)]));
    return v;
  };
  const plain = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, strip(v, k)]));
  return { plain, secretKeys: [...secretKeys] };
}

/** Marks the given top-level keys secret (the engine's annotation of outputs after a provider call). */
export function markSecret(props: PropertyMap, keys: Iterable<string>): PropertyMap {
  const out = { ...props };
  for (const k of keys) if (k in out && out[k] !== undefined) out[k] = wrapSecret(out[k]);
  return out;
}

/** The top-level keys that hold a secret envelope. */
export const secretKeysOf = (props: PropertyMap): string[] =>
  Object.keys(props).filter((k) => isSecret(props[k]));

/** Walks a value, replacing every secret envelope by what `f` returns for it (used by the state store). */
export function mapSecrets(
  v: unknown,
  f: (secret: unknown) => unknown,
  isEnvelope: (v: unknown) => boolean = isSecret,
): unknown {
  if (isEnvelope(v)) return f(v);
  if (Array.isArray(v)) return v.map((x) => mapSecrets(x, f, isEnvelope));
  if (isObject(v))
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapSecrets(x, f, isEnvelope)]));
  return v;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  return v;
}

/** Structural equality of two property maps, ignoring key order and secretness. */
export function samePlainProperties(a: PropertyMap, b: PropertyMap): boolean {
  return (
    JSON.stringify(sortKeys(unwrapSecrets(a).plain)) === JSON.stringify(sortKeys(unwrapSecrets(b).plain))
  );
}

/** Top-level keys whose values differ (ignoring secretness), for "~ update" detail lines. */
export function changedKeys(olds: PropertyMap, news: PropertyMap): string[] {
  const a = unwrapSecrets(olds).plain;
  const b = unwrapSecrets(news).plain;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete("__provider");
  return [...keys].filter((k) => JSON.stringify(sortKeys(a[k])) !== JSON.stringify(sortKeys(b[k]))).sort();
}
