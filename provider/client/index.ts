/** The typed RimuHosting API client: createClient, its configuration, errors and retry policy. */
export { createClient } from "./create-client.js";
export type { RimuClient, ListOrdersFilter, ListPricingPlansFilter, CreateVpsOpts } from "./create-client.js";
export {
  ClientConfig,
  DEFAULT_BASE_URL,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUTS,
  MAX_REQUESTS_PER_SECOND,
  normalizeBaseUrl,
  resolveClientConfig,
} from "./config.js";
export type { ResolvedClientConfig } from "./config.js";
export { createPacer } from "./pacer.js";
export type { Pacer } from "./pacer.js";
export { CREATION_NONCE_KEY, CREATION_TOKEN_KEY, PROVIDER_META_PREFIX } from "./metadata-keys.js";
export {
  DEFAULT_CREATE_LOOKUP_GRACE_MS,
  carriesCreationToken,
  creationTokensOf,
  classifyCreateFailure,
  isReconciled,
} from "./create-vps.js";
export type { CreateFailureKind } from "./create-vps.js";
export * from "./errors.js";
export { calculateDelay, parseRetryAfter } from "./calculate-delay.js";
export type { DelayInput } from "./calculate-delay.js";
export {
  CONNECTION_ERROR_CODES,
  RETRYABLE_STATUSES,
  RETRY_POLICY,
  RETRY_RULES,
  RUNNING_STATE_RETRY,
  TIMEOUT_OPTIONS,
  isRetryable,
  timeoutMs,
} from "./retry-policy.js";
export type { RetryRule, RetryRuleName, TimeoutKind } from "./retry-policy.js";
export { buildPath, endpointLabel, orderSegment } from "./request-path.js";
export type { OrderRef } from "./request-path.js";
