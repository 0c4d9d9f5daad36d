/**
 * One run of the registration bench (bench/registration.ts), in a process of its own because the SDK's mocks are
 * global: registers `count` VPSs of the fleet example's shape under `pulumi.runtime.setMocks` (the SDK's whole
 * registration, its Outputs and promises, without an engine), waits until every URN and output is resolved, and
 * prints the CPU milliseconds that took as JSON.
 *
 * `variant`: "vps" registers the package's `Vps`, every output of the field table; "given" registers a plain
 * CustomResource of the same type with only the inputs the program gives and the outputs that are not inputs (what
 * the `Vps` would register if it read back only those), its stack traces trimmed the same way.
 *
 * Run: `node dist/bench/registration-program.js <vps|given> <count>`.
 */
import * as pulumi from "@pulumi/pulumi";
import { VPS_OUTPUT_ONLY } from "../provider/impl/fields/vps-fields.js";
import { DYNAMIC_VPS_TYPE } from "../provider/impl/fields/vps-type-tokens.js";
import { trimRegistrationStacks } from "../provider/vps-registration.js";
import { Vps } from "../provider/vps.js";

const [variant, countText] = process.argv.slice(2);
const count = Number(countText);

void pulumi.runtime.setMocks(
  {
    newResource: (args) => ({
      id: `${1000 + Number(args.name.slice(5))}`,
      state: { ...args.inputs, orderOid: 1000, primaryIp: "192.0.2.1", monthlyFeeUsd: 6 },
    }),
    call: () => ({}),
  },
  "fleet",
  "bench",
  false,
);

/** The fleet example's inputs for node i (examples/fleet/index.ts). */
const inputs = (i: number) => ({
  domainName: `node${i}.fleet.example.com`,
  dcLocation: "DCDALLAS" as const,
  pricingPlanCode: "MIRO1B",
  distro: "deb12.64",
  memoryMb: 1024,
  diskSpaceMb: 20480,
  runningState: "RUNNING" as const,
});

/** A resource of the Vps's type registering only what it is given, its stack traces trimmed as the Vps's are. */
class GivenOnly extends pulumi.CustomResource {
  constructor(name: string, props: pulumi.Inputs) {
    const restoreStacks = trimRegistrationStacks();
    try {
      super(DYNAMIC_VPS_TYPE, name, props);
    } finally {
      restoreStacks();
    }
  }
}

const outputOnly = Object.fromEntries(VPS_OUTPUT_ONLY.map((name) => [name, undefined]));
const register = (i: number): pulumi.CustomResource =>
  variant === "vps"
    ? new Vps(`node-${i}`, inputs(i))
    : new GivenOnly(`node-${i}`, { ...outputOnly, ...inputs(i) });

const started = process.cpuUsage();
const resources = Array.from({ length: count }, (_, i) => register(i));
const resolved = (output: pulumi.Output<unknown>) => new Promise((resolve) => output.apply(resolve));
void Promise.all(
  resources.map((r) => Promise.all([resolved(r.urn), resolved((r as unknown as Vps).primaryIp)])),
).then(() => {
  const used = process.cpuUsage(started);
  console.log(JSON.stringify({ variant, count, cpuMs: (used.user + used.system) / 1000 }));
});
