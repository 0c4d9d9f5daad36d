/** Checks on request values the contract's schemas cannot make alone (catalog lookups, minimum sizes). */
import { Fqdn } from "../../contract/index.js";
import { type DataCenter, findDataCenter } from "../catalog/data-centers.js";
import { type Distribution, findDistribution } from "../catalog/distributions.js";
import { type PricingPlan, findPlan, isPlanOfferedAt } from "../catalog/pricing-plans.js";
import { emuError } from "../errors.js";

/** The service's size limits live in the contract (the provider checks the same ones in preview). */
export { MIN_DISK_MB, MIN_MEMORY_MB } from "../../contract/index.js";

export function requireFqdn(value: string, fieldName: string): string {
  const parsed = Fqdn.safeParse(value);
  if (!parsed.success) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName,
      message: `${fieldName} '${value}' must be a fully qualified domain name such as web1.example.com.`,
    });
  }
  return parsed.data;
}

export function requireDistribution(code: string, fieldName: string): Distribution {
  const distro = findDistribution(code);
  if (!distro) {
    throw emuError("EMU_ERR_UNKNOWN_DISTRO", {
      fieldName,
      message: `${fieldName} '${code}' is not a distribution we install. List the offered ones with GET /r/distributions (e.g. deb12.64).`,
    });
  }
  return distro;
}

export function requireVpsPlan(code: string, fieldName: string): PricingPlan {
  const plan = findPlan(code);
  if (!plan) {
    throw emuError("EMU_ERR_UNKNOWN_PLAN", {
      fieldName,
      message: `${fieldName} '${code}' is not a pricing plan. List them with GET /r/pricing-plans;server-type=VPS (e.g. MIRO1B).`,
    });
  }
  if (plan.serverType !== "VPS") {
    throw emuError("EMU_ERR_UNKNOWN_PLAN", {
      fieldName,
      message: `${fieldName} '${code}' is a dedicated-server plan; a VPS needs a VPS plan (GET /r/pricing-plans;server-type=VPS).`,
    });
  }
  return plan;
}

export function requireEnabledDataCenter(code: string, fieldName: string): DataCenter {
  const dc = findDataCenter(code);
  if (!dc || !dc.enabled) {
    throw emuError("EMU_ERR_UNKNOWN_DC", {
      fieldName,
      message: `${fieldName} '${code}' is not a data centre that takes new servers. List them with GET /r/data-centers (e.g. DCDALLAS).`,
    });
  }
  return dc;
}

export function requireSize(value: number, minimum: number, fieldName: string): number {
  if (value < minimum) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName,
      message: `${fieldName} is ${value} but must be at least ${minimum} (sizes are totals in MB).`,
    });
  }
  return value;
}

/** The plan must be sold in the data centre (an order and a quote's dry run refuse it the same way). */
export function requirePlanOfferedAt(plan: PricingPlan, dc: DataCenter): void {
  if (!isPlanOfferedAt(plan, dc)) {
    throw emuError("EMU_ERR_UNKNOWN_PLAN", {
      fieldName: "pricing_plan_code",
      message: `pricing_plan_code '${plan.code}' is not offered in ${dc.name}; see GET /r/pricing-plans;dc-location=${dc.code}.`,
    });
  }
}
