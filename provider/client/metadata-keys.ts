/**
 * The order meta_data keys this package writes. Every one starts with PROVIDER_META_PREFIX, so none can
 * collide with a user's metadata: the Vps input refuses keys with the prefix (impl/inputs/vps-input-schema.ts), and an
 * order's user metadata leaves them out (wire-mapping/order-fields.ts). No imports: the field table, which
 * users' programs load, names the prefix in its docs too.
 */
export const PROVIDER_META_PREFIX = "pulumi-rimuhosting:";

/**
 * meta_data key holding the creation token of orders created by this client (create-vps.ts): the client's
 * idempotency key, on every order it places, a user's script's too. It says nothing of who manages the order.
 */
export const CREATION_TOKEN_KEY = `${PROVIDER_META_PREFIX}creation-token`;

/**
 * meta_data key of the creation nonce, which only the provider's create writes (impl/lifecycle/creation-token.ts):
 * the mark of an order a Pulumi stack created, as `import-file` reads it (adopt/import-document.ts).
 */
export const CREATION_NONCE_KEY = `${PROVIDER_META_PREFIX}creation-nonce`;

/**
 * meta_data key of the stack token, which only the provider's create writes (impl/lifecycle/stack-strays.ts): a hash
 * of the project and stack that ordered it, so that `pulumi destroy` finds the orders of its stack that a killed run
 * left in no state.
 */
export const STACK_TOKEN_KEY = `${PROVIDER_META_PREFIX}stack-token`;
