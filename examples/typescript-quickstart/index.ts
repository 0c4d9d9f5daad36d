// Quickstart in TypeScript on the Node.js SDK: one VPS on the first VPS plan of a data centre, running Debian 12.
//
//   pulumi config set --secret rimuhosting:apiKey <key>
//   pulumi config set memoryMb 2048    # optional: resizes the VPS in place
//   pulumi up
import * as pulumi from "@pulumi/pulumi";
import * as rimuhosting from "@pulumi-rimuhosting/rimuhosting";

const memoryMb = new pulumi.Config().getNumber("memoryMb") ?? 1024;
const plans = rimuhosting.getPricingPlansOutput({ dcLocation: "DCDALLAS" });

const web = new rimuhosting.Vps("web", {
  domainName: "web1.example.com",
  dcLocation: "DCDALLAS",
  pricingPlanCode: plans.plans[0].code,
  distro: "deb12.64",
  memoryMb,
});

export const ip = web.primaryIp;
export const orderOid = web.orderOid;
export const monthlyPriceUsd = web.monthlyFeeUsd;
export const rootPassword = web.password; // a secret
