/**
 * Pricing plans: VPS sizes offered in every enabled data centre, and dedicated (PHYSICAL) servers in
 * a few. R15 lists one PricingPlanInfo per plan and data centre.
 */
import type { Currency, PricingPlanInfo, ServerType } from "../../contract/index.js";
import { DATA_CENTERS, type DataCenter, toDataLocationInfo } from "./data-centers.js";
import { planAmount, roundMoney, vpsMonthlyFeeUsd } from "./pricing.js";

export interface PricingPlan {
  code: string;
  description: string;
  serverType: ServerType;
  minimumMemoryMb: number;
  minimumDiskGb: number;
  dataTransferGb: number;
  /** Data centres offering it; all enabled ones when undefined. */
  dcCodes?: readonly string[];
  /** Fixed Dallas price for dedicated servers; VPS plans use the size formula. */
  dedicatedFeeUsd?: number;
}

const vps = (code: string, description: string, memoryGb: number, diskGb: number, transferGb: number) =>
  ({
    code,
    description,
    serverType: "VPS",
    minimumMemoryMb: memoryGb * 1024,
    minimumDiskGb: diskGb,
    dataTransferGb: transferGb,
  }) satisfies PricingPlan;

export const PRICING_PLANS: readonly PricingPlan[] = [
  vps("MIRO1B", "MiroVPS 1 (1GB memory, 20GB SSD)", 1, 20, 500),
  vps("MIRO2B", "MiroVPS 2 (2GB memory, 40GB SSD)", 2, 40, 1000),
  vps("MIRO4B", "MiroVPS 4 (4GB memory, 80GB SSD)", 4, 80, 2000),
  vps("MIRO8B", "MiroVPS 8 (8GB memory, 160GB SSD)", 8, 160, 3000),
  vps("MIRO16B", "MiroVPS 16 (16GB memory, 320GB SSD)", 16, 320, 4000),
  {
    code: "MiroVPSLowContention",
    description: "MiroVPS Semi-Dedicated Server (Dallas)",
    serverType: "VPS",
    minimumMemoryMb: 950,
    minimumDiskGb: 20,
    dataTransferGb: 75,
    dcCodes: ["DCDALLAS"],
  },
  {
    code: "DEDI-E2136",
    description: "Dedicated server: Xeon E-2136, 32GB memory, 2x960GB SSD",
    serverType: "PHYSICAL",
    minimumMemoryMb: 32768,
    minimumDiskGb: 960,
    dataTransferGb: 5000,
    dcCodes: ["DCDALLAS", "DCLONDON", "DCAUCKLAND"],
    dedicatedFeeUsd: 249,
  },
  {
    code: "DEDI-EPYC64",
    description: "Dedicated server: AMD EPYC 64 cores, 256GB memory, 4x3.84TB NVMe",
    serverType: "PHYSICAL",
    minimumMemoryMb: 262144,
    minimumDiskGb: 15360,
    dataTransferGb: 20000,
    dcCodes: ["DCDALLAS", "DCFRANKFURT"],
    dedicatedFeeUsd: 899,
  },
];

/** The plan a create gets when it names none. */
export const DEFAULT_PLAN = "MIRO1B";

export function findPlan(code: string): PricingPlan | undefined {
  return PRICING_PLANS.find((p) => p.code.toLowerCase() === code.toLowerCase());
}

export function planDataCenters(plan: PricingPlan): DataCenter[] {
  return DATA_CENTERS.filter((dc) => dc.enabled && (plan.dcCodes?.includes(dc.code) ?? true));
}

export function isPlanOfferedAt(plan: PricingPlan, dc: DataCenter): boolean {
  return planDataCenters(plan).some((d) => d.code === dc.code);
}

/** The plan's monthly price at its minimum sizes in one data centre. */
export function planMonthlyFeeUsd(plan: PricingPlan, dc: DataCenter): number {
  if (plan.dedicatedFeeUsd !== undefined) return roundMoney(plan.dedicatedFeeUsd * dc.priceFactor);
  return vpsMonthlyFeeUsd({ memoryMb: plan.minimumMemoryMb, diskMb: plan.minimumDiskGb * 1024 }, dc);
}

/** `currency`: the one currency the plan is priced in, when not USD (the planCurrencies option). */
export function toPricingPlanInfo(plan: PricingPlan, dc: DataCenter, currency?: Currency): PricingPlanInfo {
  const fee = planMonthlyFeeUsd(plan, dc);
  return {
    pricing_plan_code: plan.code,
    pricing_plan_description: plan.description,
    server_type: plan.serverType,
    minimum_memory_mb: plan.minimumMemoryMb,
    minimum_disk_gb: plan.minimumDiskGb,
    minimum_data_transfer_allowance_gb: plan.dataTransferGb,
    ...(currency ? {} : { monthly_recurring_fee: fee }),
    monthly_recurring_amt: planAmount(fee, currency),
    offered_at_data_center: toDataLocationInfo(dc),
    see_also_url: `https://rimuhosting.com/order/serverdetails.jsp?plan=${encodeURIComponent(plan.code)}`,
  };
}
