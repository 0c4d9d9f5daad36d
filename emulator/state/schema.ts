/**
 * The emulator's persisted state, versioned. A state file is validated with this schema on load, so a
 * hand-edited or foreign file fails clearly instead of corrupting the emulator: every object is strict, so a key
 * this version does not know (a typo, a field of a newer emulator) is refused by name rather than dropped. Bump
 * STATE_VERSION and add a migration in migrations.ts when the shape changes.
 */
import * as z from "zod";
import { BillingMethodType, Currency, DcLocation, RunningState, ServerType } from "../../contract/index.js";

/** 2 added the named snapshots and the clock's offset to the state file. */
export const STATE_VERSION = 2;

export const HostState = z.strictObject({
  oid: z.string(),
  dc: DcLocation,
  memTotalMb: z.number().int().positive(),
  diskTotalGb: z.number().int().positive(),
  cores: z.number().int().positive(),
  /** First three octets of the host's /24. */
  subnet: z.string().regex(/^\d{1,3}\.\d{1,3}\.\d{1,3}$/),
  bootedAtMs: z.number(),
});
export type HostState = z.infer<typeof HostState>;

export const BillingMethodState = z.strictObject({
  billingOid: z.number().int(),
  account: z.string(),
  type: BillingMethodType,
  description: z.string(),
});
export type BillingMethodState = z.infer<typeof BillingMethodState>;

export const MetaDataState = z.strictObject({ key_name: z.string(), value: z.string().nullable() });
export type MetaDataState = z.infer<typeof MetaDataState>;

/** "DEPLOYING" while a create is in progress, "DEPLOYED" after, "REMOVED" once deleted (R6). */
export const DeployedState = z.enum(["DEPLOYING", "DEPLOYED", "REMOVED"]);
export type DeployedState = z.infer<typeof DeployedState>;

export const OrderState = z.strictObject({
  orderOid: z.number().int().positive(),
  account: z.string(),
  domainName: z.string(),
  serverType: ServerType,
  planCode: z.string(),
  dc: DcLocation,
  /** Null for dedicated servers. */
  hostOid: z.string().nullable(),
  distro: z.string().nullable(),
  memoryMb: z.number().int().nonnegative(),
  diskMb: z.number().int().nonnegative(),
  disk2Mb: z.number().int().nonnegative(),
  disk3Mb: z.number().int().nonnegative(),
  /** Disk actually used by the filesystem; drives host-move durations; reset by reinstall. */
  usedDiskMb: z.number().int().nonnegative(),
  primaryIp: z.string().nullable(),
  secondaryIps: z.array(z.string()),
  runningState: RunningState,
  deployedState: DeployedState,
  billingOid: z.number().int(),
  monthlyFeeUsd: z.number().nonnegative(),
  /**
   * The one currency the order is billed in when it is not USD: its plan's, when the plan is priced in another
   * currency only (the planCurrencies option), so it is billed as it was quoted. `monthlyFeeUsd` is then that
   * currency's figure. Older state files have none (USD).
   */
  feeCurrency: Currency.exclude(["CUR_USD"]).optional(),
  dataTransferGb: z.number().int().nonnegative(),
  controlPanel: z.string().nullable(),
  metaData: z.array(MetaDataState),
  /** Reverse DNS names by IP. */
  ptr: z.record(z.string(), z.string()),
  /**
   * Root's /root/.ssh/authorized_keys as written by file_injection_data at the last install (create or
   * reinstall); null when none was injected. Older state files have none.
   */
  rootAuthorizedKeys: z.string().nullable().default(null),
  orderDateMs: z.number(),
  /** When the VPS last started; null while stopped. */
  startedAtMs: z.number().nullable(),
  /** Set by R6 (now) or R3 (end of the billing period). */
  cancellationDateMs: z.number().nullable(),
  /** Set by R6: the VPS was shut down and removed. */
  removedAtMs: z.number().nullable(),
});
export type OrderState = z.infer<typeof OrderState>;

/** The accounts: what the API serves, and what a named snapshot holds. */
const ACCOUNTS = {
  version: z.literal(STATE_VERSION),
  randomState: z.number().int().nonnegative(),
  nextOrderOid: z.number().int().positive(),
  hosts: z.array(HostState),
  billingMethods: z.array(BillingMethodState),
  orders: z.array(OrderState),
};

/** A named snapshot kept in the state file (POST /__emulator/snapshots/{name}). */
export const SavedSnapshot = z.strictObject({
  name: z.string(),
  savedAtMs: z.number(),
  state: z.strictObject(ACCOUNTS),
});
export type SavedSnapshot = z.infer<typeof SavedSnapshot>;

/**
 * The state file's JSON, and a snapshot's: the accounts, and in a state file also the emulator's own things that
 * outlive a restart but are no part of an account (a snapshot loaded at runtime leaves them as they are).
 */
export const EmulatorState = z.strictObject({
  ...ACCOUNTS,
  /** The named snapshots, by name (a state file's; a snapshot holds none). */
  snapshots: z.array(SavedSnapshot).optional(),
  /** How far the emulator's date was ahead of the machine's (calendar.ts), so a restart keeps the date moved. */
  clockOffsetMs: z.number().optional(),
});
export type EmulatorState = z.infer<typeof EmulatorState>;

/** The accounts of a state: without what only a state file holds (its snapshots, its clock). */
export function accountsOf(state: EmulatorState): EmulatorState {
  const { snapshots: _shelf, clockOffsetMs: _clock, ...accounts } = state;
  return accounts;
}
