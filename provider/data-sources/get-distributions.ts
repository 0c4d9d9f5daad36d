/** getDistributions / getDistributionsOutput: the distributions offered for new VPSs. */
import type * as pulumi from "@pulumi/pulumi";
import type { RimuClient } from "../client/index.js";
import { outputForm, type DataSourceOutputOptions } from "./output-form.js";
import { callDataSource } from "./program-client.js";

/** A distribution offered for new VPSs. */
export interface Distribution {
  /**
   * The code, for Vps `distro`, e.g. `deb12.64`.
   * @default always set
   */
  code: string;
  /**
   * Display name, e.g. `Debian 12 (Bookworm) 64-bit`.
   * @default "" when the service gives none
   */
  description: string;
  /**
   * Shown prominently on RimuHosting's order form.
   * @default false when the service does not say
   */
  isPromoted: boolean;
  /**
   * RimuHosting's recommended choice.
   * @default false when the service does not say
   */
  isRecommended: boolean;
}

/** getDistributions's result. */
export interface GetDistributionsResult {
  /**
   * The distributions offered on new orders (older ones still work but are not listed).
   * @default [] when none are
   */
  distributions: Distribution[];
}

/**
 * Lists the distributions offered on new orders. Needs no API key.
 * Mock token: `rimuhosting:index:getDistributions` (inputs `{}`).
 */
export async function getDistributions(): Promise<GetDistributionsResult> {
  return callDataSource("getDistributions", {}, false, fetchDistributions);
}

/** getDistributions as an Output (e.g. to wait for other resources with dependsOn). */
export function getDistributionsOutput(
  opts?: DataSourceOutputOptions,
): pulumi.Output<GetDistributionsResult> {
  return outputForm<Record<string, never>, GetDistributionsResult>(undefined, opts, () => getDistributions());
}

async function fetchDistributions(client: RimuClient): Promise<GetDistributionsResult> {
  const response = await client.listDistributions();
  return {
    distributions: (response.distro_infos ?? []).map((distro) => ({
      code: distro.distro_code,
      description: distro.distro_description ?? "",
      isPromoted: distro.is_promoted ?? false,
      isRecommended: distro.is_recommended ?? false,
    })),
  };
}
