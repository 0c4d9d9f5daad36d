/**
 * GET /__emulator/hosts: each host server's room, from the same hostUsage() that decides whether a create, resize
 * or move fits (capacity.ts), so what the dashboard shows is what the next order is judged by.
 */
import { HOST_RESERVED_MEM_MB, hostName } from "../catalog/hosts.js";
import { hostUsage } from "./capacity.js";
import type { EmulatorContext } from "./context.js";

export interface HostRoom {
  oid: string;
  name: string;
  dc: string;
  /** Memory VPSs can have: the host's total less what it keeps for itself. */
  memUsableMb: number;
  memFreeMb: number;
  diskTotalGb: number;
  diskFreeGb: number;
  freeIps: number;
  /** VPSs on the host (not removed), and how many of them are not stopped. */
  vpss: number;
  runningVpss: number;
}

export function hostRoom(ctx: EmulatorContext): HostRoom[] {
  const { store } = ctx;
  return store.state.hosts.map((host) => {
    const usage = hostUsage(store, host);
    return {
      oid: host.oid,
      name: hostName(host.oid),
      dc: host.dc,
      memUsableMb: host.memTotalMb - HOST_RESERVED_MEM_MB,
      memFreeMb: usage.memFreeMb,
      diskTotalGb: host.diskTotalGb,
      diskFreeGb: usage.diskFreeGb,
      freeIps: usage.freeIps,
      vpss: usage.vpss,
      runningVpss: usage.runningVpss,
    };
  });
}
