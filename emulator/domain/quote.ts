/**
 * R16 /r/pricing-plans/new-vm-pricing: the monthly price of a VPS from its memory, disk and data centre (the
 * same formula orders are billed with). PUT takes a NewVPSRequest; GET takes the same values as matrix
 * parameters (`memory_mb`, `disk_space_mb`, `dc_location`, `pricing_plan_code`; inferred, the real GET form
 * is undocumented).
 *
 * A dry run of the order (inferred, docs/rimuhosting-api.md §8.2): the request is judged the way R4 would
 * judge it, with nothing reserved or created: the plan in that data centre, the sizes, the IP request, the
 * distribution (when given), the host (it exists, is in the data centre, has room; without one, some host of the data centre must have room)
 * and, when the caller sends a key, the billing method. What the quote refuses, the order would refuse.
 */
import type { Currency, NewVpsRequest } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import { DEFAULT_PLAN } from "../catalog/pricing-plans.js";
import { formatUsd, planAmount, vpsMonthlyFeeUsd } from "../catalog/pricing.js";
import type { Outcome } from "./outcome.js";
import { type Matrix, matrixValue, parseNumber } from "./matrix-filters.js";
import { chooseBillingMethod } from "./billing.js";
import { chooseHost, requireHostFits } from "./capacity.js";
import type { EmulatorContext } from "./context.js";
import { requireIpRequest } from "./create.js";
import { resolveDataCenter } from "./create-source.js";
import {
  MIN_DISK_MB,
  MIN_MEMORY_MB,
  requireDistribution,
  requirePlanOfferedAt,
  requireSize,
  requireVpsPlan,
} from "./validate.js";

/** `currencies`: the plans priced in another currency only (the planCurrencies option). */
export function quoteNewVm(
  ctx: EmulatorContext,
  req: NewVpsRequest,
  account: DemoAccount | undefined,
  currencies: Readonly<Record<string, Currency>> = {},
): Outcome<"quoteNewVm"> {
  const plan = requireVpsPlan(req.pricing_plan_code ?? DEFAULT_PLAN, "pricing_plan_code");
  const { dc, host } = resolveDataCenter(ctx, req);
  requirePlanOfferedAt(plan, dc);
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
  const ips = requireIpRequest(req);
  const distro = req.instantiation_options?.distro;
  if (distro) requireDistribution(distro, "instantiation_options.distro");
  if (account && req.billing_oid) chooseBillingMethod(ctx.store, account.name, req.billing_oid);
  // Room, judged as the order would, reserving nothing.
  const need = { memoryMb: sizes.memoryMb, diskMb: sizes.diskMb + sizes.disk2Mb + sizes.disk3Mb, ips };
  if (host) requireHostFits(ctx.store, host, need);
  else chooseHost(ctx.store, dc.code, need);
  const fee = vpsMonthlyFeeUsd(sizes, dc);
  const currency = currencies[plan.code];
  const diskGb = Math.round((sizes.diskMb + sizes.disk2Mb + sizes.disk3Mb) / 1024);
  const billingNote = account ? "" : "  You need to enter billing information.";
  return {
    message: `The price for ${sizes.memoryMb}MB memory and ${diskGb}GB disk in ${dc.name} is ${formatUsd(fee)} ${currency?.slice(4) ?? "USD"}/month.${billingNote}`,
    monthly_recurring_amt: planAmount(fee, currency),
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
