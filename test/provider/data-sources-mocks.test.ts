/**
 * The data sources under pulumi.runtime.setMocks: every one, direct and Output form, is answered by the
 * mocks' call() with its documented token and the args as given, and no request reaches the service
 * (the configured base URL is a live emulator whose request log must stay empty).
 */
import * as pulumi from "@pulumi/pulumi";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";

const calls: pulumi.runtime.MockCallArgs[] = [];

// setMocks returns a promise: the tests start once the mocks are in place.
beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      call(args) {
        calls.push(args);
        if (args.token === "rimuhosting:index:getOrder" && args.inputs.orderOid === 404) {
          // Pulumi's invoke rethrows only an error's `details` (the engine's user-facing text).
          throw Object.assign(new Error("mocked: no such order"), { details: "mocked: no such order" });
        }
        return { answeredBy: "mocks", token: args.token };
      },
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    },
    "data-source-mocks",
    "test",
    false,
  );
});

// Imported after setMocks, as Pulumi's docs prescribe.
import * as rimu from "../../provider/index";

let emulator: TestEmulator;

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

beforeAll(async () => {
  emulator = await startTestEmulator();
  pulumi.runtime.setConfig("rimuhosting:baseUrl", emulator.baseUrl);
  // No API key: under mocks even the keyed data sources need none.
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  calls.length = 0;
});

/** Each data source called once, with the args a program would pass. */
const direct: Record<rimu.DataSourceName, () => Promise<unknown>> = {
  getPricingPlans: () => rimu.getPricingPlans({ serverType: "VPS", dcLocation: "DCDALLAS" }),
  getDistributions: () => rimu.getDistributions(),
  getBillingMethods: () => rimu.getBillingMethods(),
  getOrders: () => rimu.getOrders({ includeInactive: true }),
  getOrder: () => rimu.getOrder({ orderOid: 42 }),
  getVpsStatus: () => rimu.getVpsStatus({ orderOid: 42 }),
  getDataTransferUsage: () => rimu.getDataTransferUsage({ orderOid: 42 }),
  getDataCenters: () => rimu.getDataCenters(),
  getPriceQuote: () => rimu.getPriceQuote({ memoryMb: 2048, dcLocation: "DCLONDON" }),
};
const expectedInputs: Record<rimu.DataSourceName, Record<string, unknown>> = {
  getPricingPlans: { serverType: "VPS", dcLocation: "DCDALLAS" },
  getDistributions: {},
  getBillingMethods: {},
  getOrders: { includeInactive: true },
  getOrder: { orderOid: 42 },
  getVpsStatus: { orderOid: 42 },
  getDataTransferUsage: { orderOid: 42 },
  getDataCenters: {},
  getPriceQuote: { memoryMb: 2048, dcLocation: "DCLONDON" },
};

describe("data sources under setMocks", () => {
  it("DATA_SOURCE_TOKENS names every exported data source, as rimuhosting:index:<name>", () => {
    const exported = Object.keys(rimu)
      .filter((name) => /^get[A-Z]/.test(name) && !name.endsWith("Output"))
      .sort();
    expect(Object.keys(rimu.DATA_SOURCE_TOKENS).sort()).toEqual(exported);
    for (const [name, token] of Object.entries(rimu.DATA_SOURCE_TOKENS)) {
      expect(token).toBe(`rimuhosting:index:${name}`);
      expect(typeof (rimu as Record<string, unknown>)[`${name}Output`]).toBe("function");
    }
  });

  it.each(Object.keys(direct) as rimu.DataSourceName[])(
    "%s is answered by call() with its token and args, and sends no request",
    async (name) => {
      const result = await direct[name]();
      expect(result).toEqual({ answeredBy: "mocks", token: rimu.DATA_SOURCE_TOKENS[name] });
      expect(calls.map((c) => [c.token, c.inputs])).toEqual([
        [rimu.DATA_SOURCE_TOKENS[name], expectedInputs[name]],
      ]);
      expect(emulator.requestLog()).toEqual([]);
    },
  );

  it("the Output forms resolve their Input args and use the same tokens", async () => {
    const plans = await valueOf(rimu.getPricingPlansOutput({ dcLocation: pulumi.output("DCDALLAS") }));
    const order = await valueOf(rimu.getOrderOutput({ orderOid: pulumi.output(7) }));
    const distributions = await valueOf(rimu.getDistributionsOutput());
    expect([plans, order, distributions].map((r) => (r as unknown as { token: string }).token)).toEqual([
      "rimuhosting:index:getPricingPlans",
      "rimuhosting:index:getOrder",
      "rimuhosting:index:getDistributions",
    ]);
    expect(calls.map((c) => c.inputs)).toEqual([{ dcLocation: "DCDALLAS" }, { orderOid: 7 }, {}]);
    expect(emulator.requestLog()).toEqual([]);
  });

  it("an error thrown by call() rejects the data source; bad args fail before the mocks", async () => {
    await expect(rimu.getOrder({ orderOid: 404 })).rejects.toThrow(/mocked: no such order/);
    await expect(rimu.getVpsStatus({ orderOid: -1 })).rejects.toThrow(/getVpsStatus: orderOid must .*not -1/);
    expect(calls.map((c) => c.token)).toEqual(["rimuhosting:index:getOrder"]);
    expect(emulator.requestLog()).toEqual([]);
  });
});
