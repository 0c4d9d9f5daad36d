/**
 * Data centres: every code of the contract's DcLocation enum, with its name and country. Only the
 * `enabled` ones are listed by R17 and accept new VPSs; the rest exist for old orders (docs/rimuhosting-api.md 4.4, docs/rimuhosting-api.md 6 item 11).
 */
import type { DataLocationInfo, DcLocation } from "../../contract/index.js";

export interface DataCenter {
  code: DcLocation;
  name: string;
  country: string;
  enabled: boolean;
  /** Price multiplier against Dallas, the reference location. */
  priceFactor: number;
}

export const DATA_CENTERS: readonly DataCenter[] = [
  { code: "DCDALLAS", name: "Dallas", country: "US", enabled: true, priceFactor: 1 },
  { code: "DCDALLAS2", name: "Dallas 2", country: "US", enabled: false, priceFactor: 1 },
  { code: "DCHOUSTON", name: "Houston", country: "US", enabled: false, priceFactor: 1 },
  { code: "DCATLANTA", name: "Atlanta", country: "US", enabled: false, priceFactor: 1 },
  { code: "DCNY", name: "New York", country: "US", enabled: true, priceFactor: 1.05 },
  { code: "DCNY2", name: "New York 2", country: "US", enabled: false, priceFactor: 1.05 },
  { code: "DCLONDON", name: "London", country: "GB", enabled: true, priceFactor: 1.1 },
  { code: "DCLONDON2", name: "London 2", country: "GB", enabled: false, priceFactor: 1.1 },
  { code: "DCFRANKFURT", name: "Frankfurt", country: "DE", enabled: true, priceFactor: 1.1 },
  { code: "DCSYDNEY", name: "Sydney", country: "AU", enabled: true, priceFactor: 1.2 },
  { code: "DCBRISBANE", name: "Brisbane", country: "AU", enabled: true, priceFactor: 1.2 },
  { code: "DCNEWCASTLE", name: "Newcastle", country: "AU", enabled: false, priceFactor: 1.2 },
  { code: "DCAUCKLAND", name: "Auckland", country: "NZ", enabled: true, priceFactor: 1.25 },
];

/** Where a VPS goes when the request names no data centre. */
export const DEFAULT_DC: DcLocation = "DCDALLAS";

const BY_CODE = new Map(DATA_CENTERS.map((dc) => [dc.code as string, dc]));

/** Looks a code up case-insensitively (clients send `dclondon`, docs/rimuhosting-api.md R1). */
export function findDataCenter(code: string): DataCenter | undefined {
  return BY_CODE.get(code.toUpperCase());
}

export function toDataLocationInfo(dc: DataCenter): DataLocationInfo {
  return {
    data_center_location_code: dc.code,
    data_center_location_name: dc.name,
    data_center_location_country_2ltr: dc.country,
  };
}
