/**
 * RimuHostingGuard's arguments and how they become the policy pack's initial config (what
 * `--policy-pack-config` then overrides, key by key): each camelCase argument names one policy.
 */
import {
  POLICY_NAMES,
  type AllowedDataCentresConfig,
  type EnforcementLevel,
  type LimitConfig,
  type MonthlyBudgetConfig,
} from "./policies";

/** A policy's enforcement level, alone or with its config. */
type PolicyArgs<Config> = EnforcementLevel | (Config & { enforcementLevel?: EnforcementLevel });

export interface RimuHostingGuardArgs {
  /** The enforcement level of every policy not given one below (default: mandatory). */
  all?: EnforcementLevel;
  /** `monthly-budget`: the stack's monthly fee after the change, at most `maxMonthlyUsd`. */
  monthlyBudget?: PolicyArgs<MonthlyBudgetConfig>;
  /** `allowed-data-centres`: each VPS's dcLocation is one of `dataCentres`. */
  allowedDataCentres?: PolicyArgs<AllowedDataCentresConfig>;
  /** `max-memory-mb`: each VPS's memoryMb is at most `limit`. */
  maxMemoryMb?: PolicyArgs<LimitConfig>;
  /** `max-disk-mb`: each VPS's diskSpaceMb plus diskSpace2Mb is at most `limit`. */
  maxDiskMb?: PolicyArgs<LimitConfig>;
  /** `no-reinstall`: no VPS sets allowReinstall. */
  noReinstall?: EnforcementLevel;
}

export type PolicyPackConfig = Record<string, EnforcementLevel | Record<string, unknown>>;

/** The pack's initial config: each argument under its policy's name, `all` as it is. */
export function initialConfig(args: RimuHostingGuardArgs = {}): PolicyPackConfig {
  const config: PolicyPackConfig = {};
  for (const [key, value] of Object.entries(args) as [
    keyof RimuHostingGuardArgs,
    PolicyPackConfig[string],
  ][]) {
    if (value === undefined) continue;
    if (key === "all") {
      config.all = value;
      continue;
    }
    const name = POLICY_NAMES[key];
    if (!name) {
      const known = ["all", ...Object.keys(POLICY_NAMES)].join(", ");
      throw new Error(`RimuHostingGuard has no argument "${String(key)}"; the arguments are: ${known}.`);
    }
    config[name] = value;
  }
  return config;
}
