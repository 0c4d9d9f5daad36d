/**
 * The five policies of RimuHostingGuard: what each judges and what it says (monthly-budget in monthly-budget.ts). Plain objects in the shape of
 * @pulumi/policy's ResourceValidationPolicy and StackValidationPolicy (./rimuhosting-guard.ts hands them over, and
 * the compiler checks they fit), written against the few members they use, so that the logic can be tested
 * without the policy framework's gRPC server.
 *
 * Every policy judges a VPS from values known during preview, or says plainly that it could not judge (at the
 * policy's own enforcement level: a mandatory policy that cannot judge fails the preview; it never passes in
 * silence).
 */
import { isRimuHostingVps, readProperty, type Reading } from "./readings";
import { monthlyBudgetPolicy } from "./monthly-budget";
import { DATA_CENTRES, VPS_INPUT } from "./vps-names";
import {
  couldNotJudge,
  notKnownInPreview,
  vpsLabel,
  type AllowedDataCentresConfig,
  type LimitConfig,
  type ResourceArgs,
  type ResourcePolicy,
} from "./policy-shapes";

export type {
  AllowedDataCentresConfig,
  EnforcementLevel,
  LimitConfig,
  MonthlyBudgetConfig,
  ResourceArgs,
  ResourcePolicy,
  StackArgs,
  StackPolicy,
  StackPolicyReadingResources,
} from "./policy-shapes";
export { budgetOfStack, monthlyBudgetPolicy, type MonthlyBudgetPolicy } from "./monthly-budget";

/** Only VPSs are judged; anything else is not applicable. */
function vpsOnly(args: ResourceArgs): void {
  if (!isRimuHostingVps(args.type, args.props)) args.notApplicable("not a RimuHosting VPS");
}

/** A whole number of MB from a reading, or the reason it cannot be judged. */
function megabytes(reading: Reading, input: string): number | { why: string } {
  if (reading.kind === "unknown") return { why: notKnownInPreview(input) };
  if (reading.kind === "absent") return { why: `${input} is not set, so the pricing plan's size applies` };
  if (typeof reading.value !== "number")
    return { why: `${input} is not a number (${JSON.stringify(reading.value)})` };
  return reading.value;
}

export const allowedDataCentres: ResourcePolicy = {
  name: "allowed-data-centres",
  description: "Each VPS is in one of the allowed data centres (dcLocation).",
  configSchema: {
    properties: {
      dataCentres: {
        type: "array",
        description: 'The data centres a VPS may be in, e.g. ["DCDALLAS", "DCLONDON"].',
        items: { type: "string", enum: [...DATA_CENTRES] },
        uniqueItems: true,
      },
    },
  },
  validateResource(args, reportViolation) {
    vpsOnly(args);
    const { dataCentres } = args.getConfig<AllowedDataCentresConfig>();
    if (!dataCentres)
      return args.notApplicable("no data centres configured (allowed-data-centres.dataCentres)");
    const allowed = dataCentres.join(", ");
    const reading = readProperty(args.props, VPS_INPUT.dcLocation);
    const fix = `Set dcLocation to one of: ${allowed}.`;
    const label = vpsLabel(args.name);
    if (reading.kind === "unknown")
      reportViolation(couldNotJudge("allowed-data-centres", label, notKnownInPreview("dcLocation"), fix));
    else if (reading.kind === "absent")
      reportViolation(
        couldNotJudge(
          "allowed-data-centres",
          label,
          "dcLocation is not set, so RimuHosting chooses the data centre",
          fix,
        ),
      );
    else if (typeof reading.value !== "string" || !dataCentres.includes(reading.value))
      reportViolation(
        `${label} is in ${String(reading.value)}, which is not an allowed data centre (allowed: ${allowed}). ` +
          `${fix} Or add it to allowed-data-centres.dataCentres in the policy pack's config.`,
      );
  },
};

/** max-memory-mb and max-disk-mb: one input (or the sum of several) against a configured limit. */
function limitPolicy(
  name: string,
  description: string,
  what: string,
  inputs: readonly { input: string; whenAbsent?: number }[],
): ResourcePolicy {
  const inputWords = inputs.map((i) => i.input).join(" + ");
  return {
    name,
    description,
    configSchema: {
      properties: {
        limit: { type: "integer", minimum: 1, description: `The largest ${what} a VPS may have, in MB.` },
      },
    },
    validateResource(args, reportViolation) {
      vpsOnly(args);
      const { limit } = args.getConfig<LimitConfig>();
      if (limit === undefined) return args.notApplicable(`no limit configured (${name}.limit)`);
      const label = vpsLabel(args.name);
      let total = 0;
      for (const { input, whenAbsent } of inputs) {
        const reading = readProperty(args.props, input);
        const mb =
          reading.kind === "absent" && whenAbsent !== undefined ? whenAbsent : megabytes(reading, input);
        if (typeof mb !== "number") {
          reportViolation(couldNotJudge(name, label, mb.why, `Set ${input} to at most ${limit} MB.`));
          return;
        }
        total += mb;
      }
      if (total > limit)
        reportViolation(
          `${label} has ${total} MB of ${what} (${inputWords}), over the limit of ${limit} MB (${name}.limit). ` +
            `Lower ${inputWords}, or raise ${name}.limit in the policy pack's config.`,
        );
    },
  };
}

export const maxMemoryMb = limitPolicy(
  "max-memory-mb",
  "Each VPS has at most the configured memory (memoryMb).",
  "memory",
  [{ input: VPS_INPUT.memoryMb }],
);

export const maxDiskMb = limitPolicy(
  "max-disk-mb",
  "Each VPS has at most the configured disk space (diskSpaceMb plus diskSpace2Mb).",
  "disk",
  [{ input: VPS_INPUT.diskSpaceMb }, { input: VPS_INPUT.diskSpace2Mb, whenAbsent: 0 }],
);

export const noReinstall: ResourcePolicy = {
  name: "no-reinstall",
  description:
    "No VPS allows reinstalls (allowReinstall is false or left out), so no change can erase a disk that holds data.",
  validateResource(args, reportViolation) {
    vpsOnly(args);
    const label = vpsLabel(args.name);
    const reading = readProperty(args.props, VPS_INPUT.allowReinstall);
    const fix = "Remove allowReinstall or set it to false.";
    if (reading.kind === "unknown")
      reportViolation(couldNotJudge("no-reinstall", label, notKnownInPreview("allowReinstall"), fix));
    else if (reading.kind === "known" && reading.value !== false)
      reportViolation(
        `${label} sets allowReinstall: ${JSON.stringify(reading.value)}, which lets a change reinstall it and erase ` +
          `its disk; this stack holds data (no-reinstall). ${fix}`,
      );
  },
};

/**
 * The policies of one pack, keyed by the RimuHostingGuard argument that configures each. Made per pack: its
 * monthly-budget keeps what the engine handed it (monthlyBudgetPolicy).
 */
export function packPolicies() {
  return {
    monthlyBudget: monthlyBudgetPolicy(),
    allowedDataCentres,
    maxMemoryMb,
    maxDiskMb,
    noReinstall,
  } as const;
}

/** Each policy's name, keyed by the RimuHostingGuard argument that configures it. */
export const POLICY_NAMES: Readonly<Record<keyof ReturnType<typeof packPolicies>, string>> = Object.freeze(
  Object.fromEntries(Object.entries(packPolicies()).map(([key, policy]) => [key, policy.name])) as Record<
    keyof ReturnType<typeof packPolicies>,
    string
  >,
);
