// Quickstart: one VPS on the cheapest VPS plan of a data centre, running the newest Debian on offer.
//
//   pulumi config set rimuhosting:apiKey <key> --secret
//   pulumi config set memoryMb 2048        # optional: more memory than the plan's minimum (resizes in place)
//   pulumi up
import * as pulumi from "@pulumi/pulumi";
import {
  getDistributions,
  getPricingPlans,
  Vps,
  type Distribution,
  type PricingPlan,
  type VpsArgs,
} from "pulumi-rimuhosting";

type DcLocation = pulumi.Unwrap<NonNullable<VpsArgs["dcLocation"]>>;

const config = new pulumi.Config();
/** Data centre code from getDataCenters(); default Dallas. */
const dcLocation = (config.get("dcLocation") ?? "DCDALLAS") as DcLocation;
const domainName = config.get("domainName") ?? "quickstart.example.com";
/** Memory in MB; default the cheapest plan's minimum. */
const memoryMb = config.getNumber("memoryMb");

function cheapest(plans: PricingPlan[]): PricingPlan {
  const vpsPlans = plans.filter((p) => p.serverType === "VPS");
  if (vpsPlans.length === 0)
    throw new Error(`no VPS plan is offered in ${dcLocation}; pick another dcLocation`);
  // A plan priced in another currency only has no USD fee: it never counts as the cheapest.
  const usd = (p: PricingPlan) => p.monthlyFeeUsd ?? Infinity;
  return vpsPlans.reduce((best, p) => (usd(p) < usd(best) ? p : best));
}

/** The newest Debian on offer: the highest N among the `debN.64` codes. */
function currentDebian(distributions: Distribution[]): string {
  const debians = distributions
    .map((d) => ({ code: d.code, version: Number(/^deb(\d+)\.64$/.exec(d.code)?.[1] ?? NaN) }))
    .filter((d) => Number.isFinite(d.version));
  if (debians.length === 0) throw new Error("no 64-bit Debian is on offer");
  return debians.reduce((best, d) => (d.version > best.version ? d : best)).code;
}

const plan = pulumi
  .output(getPricingPlans({ serverType: "VPS", dcLocation }))
  .apply((r) => cheapest(r.plans));
const distro = pulumi.output(getDistributions()).apply((r) => currentDebian(r.distributions));

const web = new Vps("web", {
  domainName,
  dcLocation,
  pricingPlanCode: plan.code,
  distro,
  memoryMb: memoryMb ?? plan.minimumMemoryMb,
  diskSpaceMb: plan.minimumDiskGb.apply((gb) => gb * 1024),
});

export const planCode = plan.code;
export const debian = distro;
export const ip = web.primaryIp;
export const monthlyPriceUsd = web.monthlyFeeUsd;
export const memory = web.memoryMb;
export const rootPassword = web.password;
