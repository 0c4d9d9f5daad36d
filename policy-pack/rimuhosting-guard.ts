/**
 * RimuHostingGuard: a policy pack of the RimuHosting policies, in the pattern of Pulumi's AWSGuard. A pack's
 * index.ts instantiates it; each policy's enforcement level and config come from the arguments, and
 * `--policy-pack-config` overrides them.
 *
 * ```ts
 * new RimuHostingGuard({ all: "mandatory", maxMemoryMb: { enforcementLevel: "advisory", limit: 4096 } });
 * ```
 */
import { PolicyPack, type Policies } from "@pulumi/policy";
import { initialConfig, type RimuHostingGuardArgs } from "./guard-config";
import { packPolicies } from "./policies";

export type { RimuHostingGuardArgs };

export class RimuHostingGuard extends PolicyPack {
  constructor(args?: RimuHostingGuardArgs);
  constructor(name: string, args?: RimuHostingGuardArgs);
  constructor(nameOrArgs?: string | RimuHostingGuardArgs, maybeArgs?: RimuHostingGuardArgs) {
    const name = typeof nameOrArgs === "string" ? nameOrArgs : "rimuhosting-guard";
    const args = typeof nameOrArgs === "string" ? maybeArgs : nameOrArgs;
    // Its own policies: what the engine hands this pack is no other's (monthly-budget.ts).
    const policies: Policies = Object.values(packPolicies());
    super(name, { policies, enforcementLevel: "mandatory" }, initialConfig(args));
  }
}
