// Fleet: `count` identical VPSs declared in a loop; the one at index `stopped` is kept powered off
// (runningState NOTRUNNING: it stays ordered and billed, but not running).
//
//   pulumi config set count 3
//   pulumi config set stopped 2     # -1 = none
//   pulumi config set dcLocations DCDALLAS,DCLONDON   # optional: spread over data centres, in turn
//   pulumi up
import * as pulumi from "@pulumi/pulumi";
import { Vps, type DcLocation } from "pulumi-rimuhosting";

const config = new pulumi.Config();
const count = config.getNumber("count") ?? 3;
const stopped = config.getNumber("stopped") ?? count - 1;
const memoryMb = config.getNumber("memoryMb") ?? 1024;
/** Data centres the VPSs are spread over, in turn (a data centre's hosts have room for a few hundred). */
const dcLocations = (config.get("dcLocations") ?? "DCDALLAS").split(",") as DcLocation[];

const nodes: Vps[] = [];
for (let i = 0; i < count; i++) {
  nodes.push(
    new Vps(`node-${i}`, {
      domainName: `node${i}.fleet.example.com`,
      dcLocation: dcLocations[i % dcLocations.length],
      pricingPlanCode: "MIRO1B",
      distro: "deb12.64",
      memoryMb,
      diskSpaceMb: 20480,
      runningState: i === stopped ? "NOTRUNNING" : "RUNNING",
    }),
  );
}

// Each export is built from one array per output, not a pair per VPS: an Output costs the program CPU, and a
// pair per VPS made two per VPS for each map (docs/benchmarks.md, the fleet of 500).
const domainNames = pulumi.all(nodes.map((n) => n.domainName));
/** Each VPS's value of one output, by domain name. */
const byName = <T>(values: pulumi.Output<T>[]) =>
  pulumi
    .all([domainNames, pulumi.all(values)])
    .apply(([names, all]) => Object.fromEntries(names.map((name, i) => [name, all[i]])));

/** name -> IP address */
export const ips = byName(nodes.map((n) => n.primaryIp));
/** name -> RUNNING / NOTRUNNING */
export const states = byName(nodes.map((n) => n.runningState));
export const monthlyTotalUsd = pulumi
  .all(nodes.map((n) => n.monthlyFeeUsd))
  .apply((fees) => Math.round(fees.reduce((a, b) => a + b, 0) * 100) / 100);
