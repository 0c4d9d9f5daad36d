/**
 * The creation token of a Vps create: the client's idempotency key for POST new-vps.
 *
 * It must be the same for every retry of the same resource (so a create whose outcome was unknown is
 * found and adopted by the next `pulumi up` instead of ordering a second VPS), and different for a
 * replacement (the new VPS is created while the old one still exists, so the old order must never be
 * found as "the new one"). Dynamic providers get no URN, so the program passes `creationScope`
 * (project/stack/resource name, see ../vps.ts); the token hashes it with the values of every input
 * whose change forces a replacement. A replacement differs in at least one of them; a retry has the
 * same inputs. Without a scope (state or calls from before creationScope existed) the token is random,
 * as it used to be: still safe for one create, just not findable by a later run.
 */
import { createHash, randomUUID } from "node:crypto";
import { CREATION_NONCE_KEY } from "../../client/metadata-keys.js";
import { canonicalJson } from "../inputs/canonical-json.js";
import { runState, type RunContext } from "../engine/run-context.js";
import { REPLACE_FORCING_INPUTS } from "../inputs/vps-changes.js";

export { canonicalJson };

/**
 * meta_data key of the creation nonce: a random value check() gives each resource once (kept from the
 * old inputs afterwards, so it lives in this state only). The token finds the orders of a
 * project/stack/name; the nonce says which state placed one. See docs/vps.md#exactly-once-creation.
 */
export { CREATION_NONCE_KEY };

/** A fresh nonce: 32 hex characters (fits the meta_search syntax: no spaces, no colons). */
export function newCreationNonce(): string {
  return randomUUID().replaceAll("-", "");
}

/** The creation nonce an order carries in its meta_data, if any (the rules of ownership read it too). */
export { creationNonceOf } from "../ownership/order-marks.js";

/** Prefix of derived tokens, so an order's meta_data shows where its token came from. */
const CREATION_TOKEN_PREFIX = "vps-";

/** Hex characters of the sha256 kept in a derived token (128 bits). */
const HASH_CHARS = 32;

/**
 * `vps-<32 hex>` from creationScope and the replace-forcing inputs, or a random UUID when the
 * inputs carry no creationScope. `inputs` are the checked inputs (null means unset, like absent).
 * `supersededOids`: orders that carry the plain token but are not what these inputs order (an old VPS
 * of the resource whose order drifted outside Pulumi); naming them gives a token of its own, still
 * the same on every retry.
 */
export function creationTokenFor(
  inputs: Record<string, unknown>,
  supersededOids: readonly number[] = [],
): string {
  const scope = inputs.creationScope;
  if (typeof scope !== "string" || scope === "") return randomUUID();
  const replaceForcing = REPLACE_FORCING_INPUTS.map((name) => [name, inputs[name] ?? null]);
  const seed: Record<string, unknown> = { creationScope: scope, replaceForcing };
  if (supersededOids.length > 0) seed.supersededOids = supersededOids;
  const digest = createHash("sha256").update(canonicalJson(seed)).digest("hex");
  return CREATION_TOKEN_PREFIX + digest.slice(0, HASH_CHARS);
}

/**
 * Tokens check() just looked up and found on no order, with the nonce it made for a resource that has
 * no state yet, so create() does not look the same token up again a moment later (one listing per new
 * VPS, not two). Kept in the run's memory only (run-context.ts): check and create of one deployment run in
 * the same host. check() notes only nonces it made itself (vps-provider.ts, previewForeignOrder).
 *
 * Skipping the second lookup is safe because that nonce is new: no earlier create can carry it, so
 * the only order the lookup could still find is another state's placed in between, which is not ours
 * to adopt either way (each state then knows its own order; none is lost or shared). The age limit
 * only bounds the memory's growth and how stale "found on no order" may be.
 */
const UNUSED = runState("creation tokens check() found on no order", () => new Map<string, number>());
const UNUSED_TOKEN_MAX_AGE_MS = 10 * 60_000;

/** What check() found when it looked `token` up for the resource with `nonce`; the latest lookup counts. */
export function noteTokenLookup(run: RunContext, token: string, nonce: string, unused: boolean): void {
  const UNUSED_TOKENS = run.get(UNUSED);
  const now = Date.now();
  for (const [key, seen] of UNUSED_TOKENS) {
    if (now - seen > UNUSED_TOKEN_MAX_AGE_MS) UNUSED_TOKENS.delete(key);
  }
  if (unused) UNUSED_TOKENS.set(`${token} ${nonce}`, now);
  else UNUSED_TOKENS.delete(`${token} ${nonce}`);
}

/** True once after check() found no order carrying `token` for the resource with `nonce` (recently). */
export function takeTokenUnused(run: RunContext, token: string, nonce: string): boolean {
  const UNUSED_TOKENS = run.get(UNUSED);
  const now = Date.now();
  const key = `${token} ${nonce}`;
  const seen = UNUSED_TOKENS.get(key);
  UNUSED_TOKENS.delete(key);
  return seen !== undefined && now - seen <= UNUSED_TOKEN_MAX_AGE_MS;
}
