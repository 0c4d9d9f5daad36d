/**
 * AboutOrder (wire, snake_case) to Vps outputs (camelCase), in one place.
 *
 * Outputs hold every input (so diff(), which receives the old outputs, can compare) with the values the
 * service reports taking precedence, plus what only the service knows (orderOid, IPs, fee...).
 */
import type { AboutOrder } from "../contract/index.js";
import { CREATION_TOKEN_KEY } from "../client/index.js";
import { VPS_INPUT_NAMES, SECRET_INPUTS, type VpsInputName } from "./vps-fields.js";

export interface VpsOutputs {
  orderOid: number;
  slug: string;
  domainName: string;
  distro?: string;
  dcLocation?: string;
  pricingPlanCode?: string;
  memoryMb?: number;
  diskSpaceMb?: number;
  diskSpace2Mb?: number;
  vpsType?: string;
  billingOid?: number;
  hostServerOid?: string;
  runningState?: string;
  password?: string;
  controlPanel?: string;
  cloudConfig?: string;
  files?: { path: string; content: string }[];
  ipCount?: number;
  metaData?: Record<string, string>;
  allowReinstall?: boolean;
  timeouts?: { createMinutes?: number; updateMinutes?: number; deleteMinutes?: number };
  adoptOrderOid?: number;
  primaryIp?: string;
  secondaryIps: string[];
  monthlyFeeUsd?: number;
  orderDescription?: string;
}

/** Removes undefined values: google.protobuf.Struct cannot carry them. */
export function compact<T extends object>(bag: T): T {
  return Object.fromEntries(Object.entries(bag).filter(([, value]) => value !== undefined)) as T;
}

/** The user's metadata on an order, without the provider's creation token. */
export function userMetaData(order: AboutOrder): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const entry of order.meta_data ?? []) {
    if (entry.key_name !== CREATION_TOKEN_KEY) meta[entry.key_name] = entry.value ?? "";
  }
  return meta;
}

/**
 * Outputs for an order. `recorded` supplies the inputs the service cannot report (pricing plan,
 * install-time options, settings) and the password, which the service only returns when it generates one.
 */
export function orderOutputs(order: AboutOrder, recorded: Record<string, unknown>): VpsOutputs {
  const echo = Object.fromEntries(
    VPS_INPUT_NAMES.filter((name) => recorded[name] !== undefined && recorded[name] !== null).map((name) => [
      name,
      recorded[name],
    ]),
  );
  const params = order.vps_parameters;
  const ips = order.allocated_ips;
  const secondaryIps = ips?.secondary_ips ?? [];
  const fee = order.billing_info?.monthly_recurring_fee ?? order.billing_info?.monthly_recurring_amt?.amt_usd;
  return compact({
    ...echo,
    orderOid: order.order_oid,
    slug: order.slug,
    domainName: order.domain_name,
    distro: order.distro ?? undefined,
    dcLocation: order.location?.data_center_location_code ?? undefined,
    memoryMb: params?.memory_mb ?? undefined,
    diskSpaceMb: params?.disk_space_mb ?? undefined,
    diskSpace2Mb: params?.disk_space_2_mb ?? 0,
    billingOid: order.billing_oid ?? undefined,
    hostServerOid: order.host_server_oid ?? undefined,
    runningState: order.running_state ?? undefined,
    ipCount: ips?.primary_ip ? 1 + secondaryIps.length : undefined,
    metaData: userMetaData(order),
    primaryIp: ips?.primary_ip ?? undefined,
    secondaryIps,
    monthlyFeeUsd: fee ?? undefined,
    orderDescription: order.order_description ?? undefined,
  } as VpsOutputs);
}

/**
 * The inputs a refresh hands back to the engine: the service's current values for what it reports
 * (SERVICE_REPORTED_INPUTS, so drift shows), the recorded values for the rest, never secrets (the engine would store them unmarked).
 */
export function refreshedInputs(outputs: VpsOutputs): Record<string, unknown> {
  const secret = new Set<string>(SECRET_INPUTS);
  const inputs: Record<string, unknown> = {};
  for (const name of VPS_INPUT_NAMES as VpsInputName[]) {
    const value = (outputs as unknown as Record<string, unknown>)[name];
    if (value === undefined || secret.has(name)) continue;
    if (name === "runningState" && value !== "RUNNING" && value !== "NOTRUNNING") continue;
    inputs[name] = value;
  }
  return inputs;
}

/** True when the order has been shut down and cancelled (DELETE …/vps), not merely scheduled to cancel. */
export function isOrderGone(order: AboutOrder, now: number): boolean {
  if (order.deployed_state === "REMOVED") return true;
  const cancellation = order.billing_info?.cancellation_date;
  if (!cancellation) return false;
  return cancellation.ms_since_epoch <= now || order.running_state === "NOTRUNNING";
}
