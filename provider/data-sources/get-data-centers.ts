/** getDataCenters / getDataCentersOutput: data centres enabled for new VPSs. */
import type * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import { outputForm, type DataSourceOutputOptions } from "./output-form.js";
import { callDataSource } from "./program-client.js";
import { compact } from "../wire-mapping/values.js";

/** A data centre enabled for new VPSs. */
export interface DataCenter {
  /**
   * The code, for Vps `dcLocation`, e.g. `DCDALLAS`.
   * @default always set
   */
  code: string;
  /**
   * Display name, e.g. `Dallas`.
   * @default the code when the service gives no name
   */
  name: string;
  /**
   * ISO country code, e.g. `US`.
   * @default undefined when the service does not say
   */
  countryCode?: string;
}

/** getDataCenters's result. */
export interface GetDataCentersResult {
  /**
   * Where new VPSs can be set up (not a capacity guarantee).
   * @default [] when none are enabled
   */
  dataCenters: DataCenter[];
}

/**
 * Lists the data centres where new VPSs can be set up. Needs no API key.
 * Mock token: `rimuhosting:index:getDataCenters` (inputs `{}`).
 */
export async function getDataCenters(): Promise<GetDataCentersResult> {
  return callDataSource("getDataCenters", {}, false, fetchDataCenters);
}

/** getDataCenters as an Output. */
export function getDataCentersOutput(opts?: DataSourceOutputOptions): pulumi.Output<GetDataCentersResult> {
  return outputForm<Record<string, never>, GetDataCentersResult>(undefined, opts, () => getDataCenters());
}

async function fetchDataCenters(client: RimuClient): Promise<GetDataCentersResult> {
  const response = await client.listDataCenters();
  return {
    dataCenters: (response.data_center_infos ?? []).map((dc) =>
      compact({
        code: dc.data_center_location_code,
        name: dc.data_center_location_name ?? dc.data_center_location_code,
        countryCode: dc.data_center_location_country_2ltr ?? undefined,
      }),
    ),
  };
}
