/**
 * L1: adoption of an existing order (adoptOrderOid), partial failures that must leave the order
 * recorded (error with the order id), resumption through update(), and configuration errors.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { clientFor } from "../../../provider/impl/lifecycle/runtime-config";
import { createClient } from "../../../provider/client/index";
import {
  startImplFixture,
  stackConfig,
  OTHER_ACCOUNT_KEY,
  DEMO_API_KEY,
  type ImplFixture,
} from "../support/impl-fixture";
import { rejectionOf } from "../../helpers/promises";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";

const BASE = {
  domainName: "app1.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  memoryMb: 1024,
  diskSpaceMb: 20480,
  __provider: "text",
} satisfies VpsInputs;

let fx: ImplFixture;
beforeEach(async () => {
  fx = await startImplFixture();
});
afterEach(async () => {
  await fx.close();
});

async function orderByHand(domainName: string, apiKey = DEMO_API_KEY): Promise<number> {
  const client = apiKey === DEMO_API_KEY ? fx.byHand : createClient({ apiKey, baseUrl: fx.emulator.baseUrl });
  const created = await client.createVps({
    instantiation_options: { domain_name: domainName, distro: "deb12.64" },
    dc_location: "DCDALLAS",
    vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
  });
  if (client !== fx.byHand) client.close();
  return created.about_order.order_oid;
}

describe("adoption (adoptOrderOid)", () => {
  it("create: adopts an existing order without ordering a new one, and applies the differences", async () => {
    const oid = await orderByHand("legacy.example.com");
    const ordersBefore = fx.emulator.snapshot().length;
    const { id, outs } = await impl.create({
      ...BASE,
      domainName: "legacy.example.com",
      adoptOrderOid: oid,
      memoryMb: 2048,
      runningState: "NOTRUNNING",
    });
    expect(id).toBe(String(oid));
    expect(fx.emulator.snapshot().length).toBe(ordersBefore);
    expect(fx.emulator.requestLog().filter((r) => r.route === "createVps")).toHaveLength(1); // only the one by hand
    expect(outs).toMatchObject({
      orderOid: oid,
      memoryMb: 2048,
      runningState: "NOTRUNNING",
      adoptOrderOid: oid,
    });
    // Afterwards it is an ordinary resource: no diff, and removing adoptOrderOid is no change either.
    expect(
      await impl.diff(id, outs as never, {
        ...BASE,
        domainName: "legacy.example.com",
        memoryMb: 2048,
        adoptOrderOid: oid,
      }),
    ).toMatchObject({ changes: false });
    expect(
      await impl.diff(id, outs as never, { ...BASE, domainName: "legacy.example.com", memoryMb: 2048 }),
    ).toMatchObject({ changes: false });
  });

  it("create: refuses to adopt a missing order, another account's order, a cancelled order or a mismatched one", async () => {
    const foreign = await orderByHand("theirs.example.com", OTHER_ACCOUNT_KEY);
    const cancelled = await orderByHand("old.example.com");
    await fx.byHand.deleteVps(cancelled);
    const mine = await orderByHand("mine.example.com");

    await expect(impl.create({ ...BASE, adoptOrderOid: 987654321 })).rejects.toThrow(
      /order 987654321 does not exist on this account.*getOrders/,
    );
    await expect(
      impl.create({ ...BASE, domainName: "theirs.example.com", adoptOrderOid: foreign }),
    ).rejects.toThrow(new RegExp(`order ${foreign} does not exist on this account`));
    await expect(
      impl.create({ ...BASE, domainName: "old.example.com", adoptOrderOid: cancelled }),
    ).rejects.toThrow(/is cancelled and cannot be adopted/);
    await expect(
      impl.create({ ...BASE, domainName: "other.example.com", adoptOrderOid: mine }),
    ).rejects.toThrow(
      /is mine\.example\.com, but domainName is other\.example\.com\. Set domainName: "mine\.example\.com"/,
    );
    await expect(
      impl.create({ ...BASE, domainName: "mine.example.com", dcLocation: "DCLONDON", adoptOrderOid: mine }),
    ).rejects.toThrow(/is in DCDALLAS, but dcLocation is DCLONDON/);
    // A distro different from the live one would reinstall: refused without allowReinstall, before any change.
    const before = fx.emulator.requestLog().filter((r) => r.method !== "GET").length;
    await expect(
      impl.create({ ...BASE, domainName: "mine.example.com", distro: "deb13.64", adoptOrderOid: mine }),
    ).rejects.toThrow(/allowReinstall/);
    expect(fx.emulator.requestLog().filter((r) => r.method !== "GET").length).toBe(before);
  });
});

describe("partial failure and resumption", () => {
  it("create: a failing step after the order exists throws an error carrying the order id; update() resumes", async () => {
    fx.emulator.injectFault({ route: "setRunningState", kind: "status", status: 400 });
    const inputs = { ...BASE, runningState: "NOTRUNNING" as const };
    const error = await impl.create(inputs).then(
      () => undefined,
      (e: unknown) => e as impl.VpsIncompleteError,
    );
    expect(error).toBeInstanceOf(impl.VpsIncompleteError);
    const oid = Number(error?.id);
    expect(Number.isSafeInteger(oid)).toBe(true);
    expect(error?.message).toMatch(
      new RegExp(
        `^\\[RIMU_ERR_VPS_INCOMPLETE\\] VPS order ${oid} \\(app1\\.example\\.com\\) was created, but a step failed: .*Pulumi recorded the order as it stands; \`pulumi up\` finishes the change`,
      ),
    );
    expect(error?.reasons).toEqual([error?.message]);
    expect(error?.properties).toMatchObject({
      orderOid: oid,
      domainName: "app1.example.com",
      runningState: "RUNNING",
    });
    // Secrets are recorded as secrets, and __provider is there so refresh and destroy can load the provider.
    expect(error?.properties.password).toMatchObject({ value: expect.any(String) });
    expect(error?.properties.__provider).toBe("text");
    // The order exists (and is billed): it must not be lost.
    expect(fx.emulator.snapshot().find((o) => o.orderOid === oid)).toMatchObject({
      cancelled: false,
      runningState: "RUNNING",
    });

    // The engine records the order with these properties and runs update() next time, with the same inputs.
    const { outs } = await impl.update(String(oid), error!.properties, inputs);
    expect(outs).toMatchObject({
      orderOid: oid,
      runningState: "NOTRUNNING",
      password: (error?.properties.password as { value: string }).value,
    });
    expect(fx.emulator.snapshot().filter((o) => o.domainName === "app1.example.com")).toHaveLength(1);
  });

  it("update: a failure after the resize records the new state with the order id", async () => {
    const created = await impl.create(BASE);
    fx.emulator.injectFault({ route: "moveVps", kind: "status", status: 400 });
    const news = {
      ...BASE,
      memoryMb: 2048,
      hostServerOid: created.outs.hostServerOid === "835" ? "764" : "835",
    };
    const error = await impl.update(created.id, created.outs as never, news).then(
      () => undefined,
      (e: unknown) => e as impl.VpsIncompleteError,
    );
    expect(error).toBeInstanceOf(impl.VpsIncompleteError);
    expect(error?.id).toBe(created.id);
    expect(error?.properties).toMatchObject({ memoryMb: 2048, hostServerOid: created.outs.hostServerOid });
    const resumed = await impl.update(created.id, error!.properties, news);
    expect(resumed.outs).toMatchObject({ memoryMb: 2048, hostServerOid: news.hostServerOid });
  });

  it("update: a failure before any change is a plain error (no id): the old state stands", async () => {
    const created = await impl.create(BASE);
    fx.emulator.injectFault({ route: "changeParameters", kind: "status", status: 400 });
    const error = await impl.update(created.id, created.outs as never, { ...BASE, memoryMb: 2048 }).then(
      () => undefined,
      (e: unknown) => e as Error & { id?: string },
    );
    expect(error).toBeInstanceOf(Error);
    expect(error?.id).toBeUndefined();
  });
});

describe("configuration", () => {
  it("a missing API key is a clear config error naming rimuhosting:apiKey, the env var and both emulator routes", async () => {
    testing.resetConfiguration();
    await expect(impl.create(BASE)).rejects.toMatchObject({
      code: "RIMU_ERR_CONFIG",
      message: expect.stringMatching(
        /pulumi config set rimuhosting:apiKey <key> --secret.*RIMUHOSTING_APIKEY.*npx rimuhosting-emulator.*without Node\.js: `pulumi plugin run --kind resource rimuhosting -- emulator`.*rimuhosting:baseUrl/,
      ),
    });
  });

  it("a bad baseUrl or apiKey in the stack config is a config error naming the setting to fix, never the key", async () => {
    testing.resetConfiguration();
    await impl.configure({ config: stackConfig("127.0.0.1:8080/r") });
    await expect(impl.create(BASE)).rejects.toMatchObject({
      code: "RIMU_ERR_CONFIG",
      fieldName: "baseUrl",
      message: expect.stringMatching(
        /rimuhosting:baseUrl must be an http\(s\) URL.*`pulumi config set rimuhosting:baseUrl <url>` \(or RIMUHOSTING_BASEURL\)/,
      ),
    });
    testing.resetConfiguration();
    await impl.configure({ config: stackConfig(fx.emulator.baseUrl, "key with-secret-part") });
    const error = await rejectionOf<Error>(impl.create(BASE));
    expect(error).toMatchObject({ code: "RIMU_ERR_CONFIG", fieldName: "apiKey" });
    expect(error.message).toMatch(/apiKey must be printable ASCII.*rimuhosting:apiKey.*RIMUHOSTING_APIKEY/);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain("with-secret-part");
  });

  it("the environment is the fallback, read at call time", async () => {
    testing.resetConfiguration();
    process.env.RIMUHOSTING_APIKEY = DEMO_API_KEY;
    process.env.RIMUHOSTING_BASEURL = fx.emulator.baseUrl;
    try {
      const { id } = await impl.create(BASE);
      expect(fx.emulator.snapshot().some((o) => String(o.orderOid) === id)).toBe(true);
    } finally {
      delete process.env.RIMUHOSTING_APIKEY;
      delete process.env.RIMUHOSTING_BASEURL;
    }
  });

  it("stack config wins over the environment", async () => {
    process.env.RIMUHOSTING_APIKEY = OTHER_ACCOUNT_KEY;
    try {
      const { id } = await impl.create(BASE);
      const snap = fx.emulator.snapshot().find((o) => String(o.orderOid) === id);
      expect(snap?.account).toBe("demo");
    } finally {
      delete process.env.RIMUHOSTING_APIKEY;
    }
  });

  it("one client per configuration, reused across calls", () => {
    const a = clientFor(testing.currentRun(), "test");
    const b = clientFor(testing.currentRun(), "test");
    expect(a).toBe(b);
    expect(
      clientFor(testing.currentRun(), "test", { operation: "create", ms: 60_000, source: "input" }),
    ).not.toBe(a);
  });
});
