// A unit test of the quickstart with Pulumi's mocks: nothing is ordered and nothing reaches the network.
// The data sources are answered by `call()` (tokens `rimuhosting:index:<name>`), the Vps by `newResource()`.
//
//   npm install --save-dev jest @types/jest ts-jest && npx jest
import * as pulumi from "@pulumi/pulumi";

const calls: pulumi.runtime.MockCallArgs[] = [];
const created: pulumi.runtime.MockResourceArgs[] = [];

pulumi.runtime.setMocks(
  {
    call(args) {
      calls.push(args);
      switch (args.token) {
        case "rimuhosting:index:getPricingPlans":
          return {
            plans: [
              plan("MIRO2B", 2048, 40, 24.95),
              plan("MIRO1B", 1024, 20, 14.95),
              { ...plan("DEDI1", 16384, 500, 199), serverType: "PHYSICAL" },
            ],
          };
        case "rimuhosting:index:getDistributions":
          return {
            distributions: [distro("deb11.64"), distro("deb12.64"), distro("ubu2404.64")],
          };
        default:
          throw new Error(`unexpected data source ${args.token}`);
      }
    },
    newResource(args) {
      created.push(args);
      // What the service would report: the inputs back, plus what only it knows.
      return {
        id: "1234",
        state: { ...args.inputs, orderOid: 1234, primaryIp: "192.0.2.10", monthlyFeeUsd: 14.95 },
      };
    },
  },
  "quickstart",
  "test",
  false, // not a preview: outputs are known
);

function plan(code: string, minimumMemoryMb: number, minimumDiskGb: number, monthlyFeeUsd: number) {
  return { code, description: code, serverType: "VPS", minimumMemoryMb, minimumDiskGb, monthlyFeeUsd };
}

function distro(code: string) {
  return { code, description: code, isPromoted: false, isRecommended: false };
}

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

// The program runs when it is loaded, so load it only now that the mocks are in place.
const program = require("./index") as typeof import("./index");

describe("quickstart", () => {
  it("orders the cheapest VPS plan of the data centre, sized to the plan's minimums", async () => {
    expect(await valueOf(program.planCode)).toBe("MIRO1B");
    expect(await valueOf(program.memory)).toBe(1024);
    const vps = created.find((r) => r.type === "pulumi-nodejs:dynamic/rimuhosting:Vps");
    expect(vps?.inputs).toMatchObject({
      domainName: "quickstart.example.com",
      dcLocation: "DCDALLAS",
      pricingPlanCode: "MIRO1B",
      memoryMb: 1024,
      diskSpaceMb: 20 * 1024,
    });
  });

  it("runs the newest Debian on offer", async () => {
    expect(await valueOf(program.debian)).toBe("deb12.64");
  });

  it("asks for VPS plans in its data centre", async () => {
    await valueOf(program.planCode);
    const pricing = calls.find((c) => c.token === "rimuhosting:index:getPricingPlans");
    expect(pricing?.inputs).toEqual({ serverType: "VPS", dcLocation: "DCDALLAS" });
  });

  it("exports the VPS's address and price", async () => {
    expect(await valueOf(program.ip)).toBe("192.0.2.10");
    expect(await valueOf(program.monthlyPriceUsd)).toBe(14.95);
  });
});
