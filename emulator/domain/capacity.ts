/**
 * Host capacity and address allocation. Free memory, disk and IPs are computed from the orders on
 * file, so they can never disagree with the orders. Callers check and reserve in one synchronous
 * step (no await in between), which keeps concurrent creates consistent.
 */
import { emuError } from "../errors.js";
import { HOST_RESERVED_MEM_MB, hostName } from "../catalog/hosts.js";
import type { StateStore } from "../state/store.js";
import type { HostState, OrderState } from "../state/schema.js";
import { findDataCenter } from "../catalog/data-centers.js";

/** Host octets handed out to VPSs: .10 to .250 of the host's /24. */
const FIRST_HOST_OCTET = 10;
const LAST_HOST_OCTET = 250;

export interface HostUsage {
  memFreeMb: number;
  diskFreeGb: number;
  freeIps: number;
  /** VPSs on the host (not removed), and how many of them are not stopped. */
  vpss: number;
  runningVpss: number;
}

export interface ResourceNeed {
  memoryMb: number;
  diskMb: number;
  ips: number;
  /** host_server_selector.min_vm_disk_free_gb: the host must have this much disk free. */
  minDiskFreeGb?: number;
}

function holdsResources(order: OrderState, host: HostState): boolean {
  return order.hostOid === host.oid && order.removedAtMs === null && order.serverType === "VPS";
}

export function totalDiskMb(order: Pick<OrderState, "diskMb" | "disk2Mb" | "disk3Mb">): number {
  return order.diskMb + order.disk2Mb + order.disk3Mb;
}

export function hostUsage(store: StateStore, host: HostState, exclude?: OrderState): HostUsage {
  let memUsed = 0;
  let diskUsedMb = 0;
  let ips = 0;
  let vpss = 0;
  let running = 0;
  for (const order of store.state.orders) {
    if (order === exclude || !holdsResources(order, host)) continue;
    memUsed += order.memoryMb;
    diskUsedMb += totalDiskMb(order);
    ips += (order.primaryIp ? 1 : 0) + order.secondaryIps.length;
    vpss++;
    if (order.runningState !== "NOTRUNNING") running++;
  }
  return {
    memFreeMb: host.memTotalMb - HOST_RESERVED_MEM_MB - memUsed,
    diskFreeGb: host.diskTotalGb - Math.ceil(diskUsedMb / 1024),
    freeIps: LAST_HOST_OCTET - FIRST_HOST_OCTET + 1 - ips,
    vpss,
    runningVpss: running,
  };
}

function fits(usage: HostUsage, need: ResourceNeed): boolean {
  return (
    usage.memFreeMb >= need.memoryMb &&
    usage.diskFreeGb >= Math.ceil(need.diskMb / 1024) &&
    usage.diskFreeGb >= (need.minDiskFreeGb ?? 0) &&
    usage.freeIps >= need.ips
  );
}

export function findHost(store: StateStore, oid: string): HostState | undefined {
  return store.state.hosts.find((h) => h.oid === oid);
}

function describeNeed(need: ResourceNeed): string {
  return `${need.memoryMb}MB memory, ${Math.ceil(need.diskMb / 1024)}GB disk and ${need.ips} IP address(es)`;
}

/**
 * The host in the data centre with the most free memory that fits the need, or a 409 naming what was
 * asked for. `exclude` leaves one order's own resources out (it is moving or resizing).
 */
export function chooseHost(
  store: StateStore,
  dcCode: string,
  need: ResourceNeed,
  options: { exclude?: OrderState; avoidHostOid?: string } = {},
): HostState {
  let best: { host: HostState; free: number } | undefined;
  for (const host of store.state.hosts) {
    if (host.dc !== dcCode || host.oid === options.avoidHostOid) continue;
    const usage = hostUsage(store, host, options.exclude);
    if (!fits(usage, need)) continue;
    if (!best || usage.memFreeMb > best.free) best = { host, free: usage.memFreeMb };
  }
  if (!best) {
    const dcName = findDataCenter(dcCode)?.name ?? dcCode;
    throw emuError("EMU_ERR_HOST_CAPACITY", {
      message: `No host server in ${dcName} has ${describeNeed(need)} free. Ask for less, or try another data centre.`,
    });
  }
  return best.host;
}

/** A 409 unless this particular host fits the need. */
export function requireHostFits(
  store: StateStore,
  host: HostState,
  need: ResourceNeed,
  exclude?: OrderState,
): void {
  const usage = hostUsage(store, host, exclude);
  if (!fits(usage, need)) {
    throw emuError("EMU_ERR_HOST_CAPACITY", {
      message: `Host ${hostName(host.oid)} has ${usage.memFreeMb}MB memory, ${usage.diskFreeGb}GB disk and ${usage.freeIps} IP address(es) free; this needs ${describeNeed(need)}.`,
    });
  }
}

/**
 * The lowest free addresses of the host's /24 that no order on it has held, then, once those run out, the lowest
 * freed ones: a VPS ordered again after its cancellation gets a new address, as the provider's preview warns it will
 * (handing the cancelled order's address straight to the next order made that warning look false).
 */
export function allocateIps(store: StateStore, host: HostState, count: number): string[] {
  const taken = new Set<string>();
  const heldBefore = new Set<string>();
  for (const order of store.state.orders) {
    if (order.hostOid !== host.oid) continue;
    const held = holdsResources(order, host) ? taken : heldBefore;
    if (order.primaryIp) held.add(order.primaryIp);
    for (const ip of order.secondaryIps) held.add(ip);
  }
  const free: string[] = [];
  for (let octet = FIRST_HOST_OCTET; octet <= LAST_HOST_OCTET; octet++) {
    const ip = `${host.subnet}.${octet}`;
    if (!taken.has(ip)) free.push(ip);
  }
  const out = [...free.filter((ip) => !heldBefore.has(ip)), ...free.filter((ip) => heldBefore.has(ip))].slice(
    0,
    count,
  );
  if (out.length < count) {
    throw emuError("EMU_ERR_HOST_CAPACITY", {
      message: `Host ${hostName(host.oid)} has no free IP addresses left.`,
    });
  }
  return out;
}
