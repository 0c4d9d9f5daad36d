/**
 * The host servers a fresh emulator starts with. Every host has its own /24 for VPS addresses: the
 * three documentation ranges (RFC 5737) for the first host in Dallas, London and Sydney, and the
 * RFC 2544 benchmarking range 198.18.0.0/15 for the rest (three /24s are too few for every host).
 * A VPS that moves to another host therefore gets a new IP from the new host's subnet.
 */
import type { DcLocation } from "../../contract/index.js";

export interface HostTemplate {
  oid: string;
  dc: DcLocation;
  memTotalMb: number;
  diskTotalGb: number;
  cores: number;
  /** First three octets of the host's /24. */
  subnet: string;
}

/** Memory the host keeps for itself; "free is not necessarily available" (docs/rimuhosting-api.md, 7.2 Limits). */
export const HOST_RESERVED_MEM_MB = 2048;

const BIG = { memTotalMb: 196608, diskTotalGb: 7680, cores: 32 };
const SMALL = { memTotalMb: 8192, diskTotalGb: 200, cores: 8 };

export const HOST_TEMPLATES: readonly HostTemplate[] = [
  { oid: "764", dc: "DCDALLAS", ...BIG, subnet: "192.0.2" },
  { oid: "835", dc: "DCDALLAS", ...BIG, subnet: "198.18.1" },
  { oid: "836", dc: "DCDALLAS", ...SMALL, subnet: "198.18.2" },
  { oid: "1201", dc: "DCLONDON", ...BIG, subnet: "198.51.100" },
  { oid: "1202", dc: "DCLONDON", ...BIG, subnet: "198.18.3" },
  { oid: "1317", dc: "DCSYDNEY", ...BIG, subnet: "203.0.113" },
  { oid: "1318", dc: "DCSYDNEY", ...BIG, subnet: "198.18.4" },
  { oid: "1401", dc: "DCBRISBANE", ...BIG, subnet: "198.18.5" },
  { oid: "1402", dc: "DCBRISBANE", ...BIG, subnet: "198.18.6" },
  { oid: "1501", dc: "DCAUCKLAND", ...BIG, subnet: "198.18.7" },
  { oid: "1502", dc: "DCAUCKLAND", ...BIG, subnet: "198.18.8" },
  { oid: "1601", dc: "DCFRANKFURT", ...BIG, subnet: "198.18.9" },
  { oid: "1602", dc: "DCFRANKFURT", ...BIG, subnet: "198.18.10" },
  { oid: "1701", dc: "DCNY", ...BIG, subnet: "198.18.11" },
  { oid: "1702", dc: "DCNY", ...BIG, subnet: "198.18.12" },
];

export function hostName(oid: string): string {
  return `host${oid}.rimuhosting.com`;
}
