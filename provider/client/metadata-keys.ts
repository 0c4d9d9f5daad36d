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
 * meta_data key of the stack token, which only the provider's create writes (impl/ownership/new-order-marks.ts): a hash
 * of the project and stack names that ordered it. Many stacks share it (a `dev` in every backend), so it only finds
 * the orders a stack must judge; the stack identity proves which are its own.
 */
export const STACK_TOKEN_KEY = `${PROVIDER_META_PREFIX}stack-token`;

/**
 * meta_data key of the stack identity, which only the provider's create writes (impl/ownership/stack-identity.ts): a
 * hash of the backend, project, stack and the stack instance's key material, which no other stack can carry. Only an
 * order carrying this stack's identity is ever cancelled or taken back as a killed run's.
 */
export const STACK_IDENTITY_KEY = `${PROVIDER_META_PREFIX}stack-identity`;

/**
 * meta_data key of the run record, which only the provider's create writes (impl/ownership/run-records.ts): the id
 * of the provider's run that placed the order, written into the stack's backend as a stack tag before the run's
 * first order. The backend's own record that a run of this stack placed it.
 */
export const RUN_RECORD_KEY = `${PROVIDER_META_PREFIX}run`;
