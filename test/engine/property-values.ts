// Secret values in stack outputs as the SDK marshals them (its own constants from runtime/rpc: specialSigKey,
// specialSecretSig): cli-stack.ts wraps the secret outputs it reads, the scenarios check them.
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";

export interface SecretEnvelope {
  [specialSigKey]: typeof specialSecretSig;
  value: unknown;
}

export function isSecret(v: unknown): v is SecretEnvelope {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    (v as Record<string, unknown>)[specialSigKey] === specialSecretSig
  );
}

export function wrapSecret(value: unknown): SecretEnvelope {
  return isSecret(value) ? value : { [specialSigKey]: specialSecretSig, value };
}
