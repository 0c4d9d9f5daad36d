/**
 * The emulator's persisted state, versioned. A state file is validated with this schema on load, so a
 * hand-edited or foreign file fails clearly instead of corrupting the emulator. Bump STATE_VERSION and
 * add a migration in migrations.ts when the shape changes.
 */
import * as z from "zod";
import { BillingMethodType, DcLocation, RunningState, ServerType } from "../../contract/index.js";

export const STATE_VERSION = 1;

export const HostState = z.object({
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

export const BillingMethodState = z.object({
  billingOid: z.number().int(),
  account: z.string(),
  type: BillingMethodType,
  description: z.string(),
});
export type BillingMethodState = z.infer<typeof BillingMethodState>;

export const MetaDataState = z.object({ key_name: z.string(), value: z.string().nullable() });
export type MetaDataState = z.infer<typeof MetaDataState>;

/** "DEPLOYING" while a create is in progress, "DEPLOYED" after, "REMOVED" once deleted (R6). */
export const DeployedState = z.enum(["DEPLOYING", "DEPLOYED", "REMOVED"]);
export type DeployedState = z.infer<typeof DeployedState>;

export const OrderState = z.object({
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

export const EmulatorState = z.object({
  version: z.literal(STATE_VERSION),
  randomState: z.number().int().nonnegative(),
  nextOrderOid: z.number().int().positive(),
  hosts: z.array(HostState),
  billingMethods: z.array(BillingMethodState),
  orders: z.array(OrderState),
});
export type EmulatorState = z.infer<typeof EmulatorState>;
