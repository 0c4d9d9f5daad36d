/**
 * R16 /r/pricing-plans/new-vm-pricing: the monthly price of a VPS from its memory, disk and data
 * centre (the same formula orders are billed with). PUT takes a NewVPSRequest; GET takes the same
 * values as matrix parameters (`memory_mb`, `disk_space_mb`, `dc_location`, `pricing_plan_code`;
 * inferred, the real GET form is undocumented).
 */
import type { NewVpsRequest } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import { DEFAULT_DC } from "../catalog/data-centers.js";
import { DEFAULT_PLAN } from "../catalog/pricing-plans.js";
import { formatUsd, usdAmount, vpsMonthlyFeeUsd } from "../catalog/pricing.js";
import type { Outcome } from "./outcome.js";
import { type Matrix, matrixValue, parseNumber } from "./matrix-filters.js";
import {
  MIN_DISK_MB,
  MIN_MEMORY_MB,
  requireEnabledDataCenter,
  requireSize,
  requireVpsPlan,
} from "./validate.js";

export function quoteNewVm(req: NewVpsRequest, account: DemoAccount | undefined): Outcome<"quoteNewVm"> {
  const plan = requireVpsPlan(req.pricing_plan_code ?? DEFAULT_PLAN, "pricing_plan_code");
  const dc = requireEnabledDataCenter(req.dc_location ?? DEFAULT_DC, "dc_location");
  const vp = req.vps_parameters;
  const sizes = {
    memoryMb: requireSize(vp?.memory_mb ?? plan.minimumMemoryMb, MIN_MEMORY_MB, "vps_parameters.memory_mb"),
    diskMb: requireSize(
      vp?.disk_space_mb ?? plan.minimumDiskGb * 1024,
      MIN_DISK_MB,
      "vps_parameters.disk_space_mb",
    ),
    disk2Mb: requireSize(vp?.disk_space_2_mb ?? 0, 0, "vps_parameters.disk_space_2_mb"),
    disk3Mb: requireSize(vp?.disk_space_3_mb ?? 0, 0, "vps_parameters.disk_space_3_mb"),
  };
  const fee = vpsMonthlyFeeUsd(sizes, dc);
  const diskGb = Math.round((sizes.diskMb + sizes.disk2Mb + sizes.disk3Mb) / 1024);
  const billingNote = account ? "" : "  You need to enter billing information.";
  return {
    message: `The price for ${sizes.memoryMb}MB memory and ${diskGb}GB disk in ${dc.name} is ${formatUsd(fee)} USD/month.${billingNote}`,
    monthly_recurring_amt: usdAmount(fee),
  };
}

/** The GET form's matrix parameters as a NewVPSRequest. */
export function quoteRequestFromMatrix(matrix: Matrix): NewVpsRequest {
  const dc = matrixValue(matrix, "dc_location", "dc-location")?.value;
  const plan = matrixValue(matrix, "pricing_plan_code")?.value;
  return {
    pricing_plan_code: plan || undefined,
    // Unchecked here: quoteNewVm refuses an unknown or disabled code (400 naming dc_location).
    dc_location: dc ? (dc as NewVpsRequest["dc_location"]) : undefined,
    vps_parameters: {
      memory_mb: parseNumber(matrix, "memory_mb"),
      disk_space_mb: parseNumber(matrix, "disk_space_mb"),
    },
  };
}
