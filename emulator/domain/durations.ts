/**
 * How long the real API takes, in milliseconds at timeScale 1. Mutations are synchronous on the real
 * API (clients use one-hour read timeouts, docs/rimuhosting-api.md, 1 Service basics), so the emulator blocks for these
 * durations times timeScale before it answers.
 */
export const DURATIONS_MS = {
  create: 45_000,
  cloneBase: 60_000,
  clonePerGb: 30_000,
  start: 15_000,
  stop: 10_000,
  restart: 25_000,
  powercycle: 20_000,
  resize: 40_000,
  reinstall: 50_000,
  delete: 8_000,
  cancel: 500,
  ptr: 1_000,
  vpsStatus: 800,
  /** "Takes a few seconds longer than the regular VPS status request" (docs/rimuhosting-api.md, 7.2 Limits). */
  dataTransferExtra: 4_000,
  /** A host move takes 5 to 10 minutes per GB of used disk (docs/rimuhosting-api.md, 7.2 Limits). */
  movePerGbMin: 5 * 60_000,
  movePerGbMax: 10 * 60_000,
} as const;

export const DAY_MS = 86_400_000;
/** Billing periods are modelled as 30-day months from the order date. */
export const BILLING_PERIOD_MS = 30 * DAY_MS;
