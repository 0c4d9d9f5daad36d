/**
 * What an order's meta_data says of the state that placed it: the creation nonce (creation-token.ts makes it; a state
 * carrying it placed the order) and the stack identity (stack-identity.ts). The one reader of both marks, for the
 * rules of ownership and for create's own look-up alike.
 */
import type { AboutOrder } from "../../../contract/index.js";
import { CREATION_NONCE_KEY, STACK_IDENTITY_KEY } from "../../client/metadata-keys.js";

const markOf = (order: AboutOrder, key: string): string | undefined =>
  order.meta_data?.find((m) => m.key_name === key)?.value ?? undefined;

/** The creation nonce an order carries in its meta_data, if any. */
export const creationNonceOf = (order: AboutOrder): string | undefined => markOf(order, CREATION_NONCE_KEY);

/**
 * The form of the identity marks this release places (stack-identity.ts): `id3-` hashes the project, the stack and its
 * own tag, nothing of the working directory or the URL's spelling. A mark of an older form (`id1-`, `id2-`: with the
 * backend's URL and the settings file's key material) is not this release's proof of anything, so it counts as no
 * mark.
 */
export const IDENTITY_FORM = "id3-";

/** The stack identity mark an order carries, if any (of this release's form). */
export const identityOf = (order: AboutOrder): string | undefined => {
  const mark = markOf(order, STACK_IDENTITY_KEY);
  return mark?.startsWith(IDENTITY_FORM) ? mark : undefined;
};
