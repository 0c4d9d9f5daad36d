/**
 * L1: create() under a lost order response, against the real emulator. A create whose outcome is
 * unknown is reported without an id and with its creation token; when the order appears late, the
 * next create() with the same inputs adopts it instead of ordering a second VPS. A replacement (same
 * resource, a replace-forcing input changed) orders a new VPS even while the old one is active.
 */
import * as impl from "../../../provider/impl/index";
import { setCreateLookupGrace } from "../../../provider/impl/vps-provider";
import { newVpsRequest } from "../../../provider/impl/vps-requests";
import { setValues, type VpsInputs } from "../../../provider/impl/vps-inputs";
import { CREATION_TOKEN_KEY } from "../../../provider/client/index";
import { creationTokenFor } from "../../../provider/impl/creation-token";
import { startImplFixture, DEMO_API_KEY, type ImplFixture } from "../support/impl-fixture";

const INPUTS = {
  domainName: "app1.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  memoryMb: 1024,
  diskSpaceMb: 20480,
  creationScope: "shop/prod/app",
  __provider: "text",
};

let fx: ImplFixture;
beforeEach(async () => {
  fx = await startImplFixture();
  setCreateLookupGrace(0); // one lookup after the lost response, then report
});
afterEach(async () => {
  setCreateLookupGrace(undefined);
  await fx.close();
});

const active = () => fx.emulator.snapshot().filter((o) => !o.cancelled);
const posts = () => fx.emulator.requestLog().filter((r) => r.route === "createVps");

async function createError(inputs: Record<string, unknown>) {
  return impl.create(inputs).then(
    () => {
      throw new Error("create() should have failed");
    },
    (e: unknown) => e as Error & { id?: string; creationToken?: string; code?: string },
  );
}

describe("create(): lost response, late order, next run adopts it", () => {
  it("drop before commit: an error without an id, with the token; the order appears late; the next create adopts it", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "drop" });
    const error = await createError(INPUTS);
    expect(error.id).toBeUndefined(); // nothing recorded in the state
    expect(error.code).toBe("RIMU_ERR_CREATE_OUTCOME_UNKNOWN");
    const token = error.creationToken!;
    expect(token).toMatch(/^vps-[0-9a-f]{32}$/);
    expect(error.message).toContain(
      `the order may still be created by RimuHosting (creation token ${token})`,
    );
    expect(error.message).toContain(
      `The next \`pulumi up\` looks for an active order carrying creation token ${token} and adopts it instead of ordering a second VPS`,
    );
    expect(error.message).toContain(
      "Keep domainName, dcLocation, pricingPlanCode, vpsType, ipCount unchanged",
    );
    expect(error.message).not.toContain(DEMO_API_KEY);
    expect(active()).toHaveLength(0);
    expect(posts()).toHaveLength(1);

    // The backend finishes late: the order it creates carries the token of the lost request.
    const late = await fx.byHand.createVps(newVpsRequest(setValues(INPUTS) as VpsInputs), {
      creationToken: token,
    });
    const lateOid = late.about_order.order_oid;
    expect(posts()).toHaveLength(2);

    // `pulumi up` again: same inputs, same token; the order is found and adopted, nothing is ordered.
    const { id, outs } = await impl.create(INPUTS);
    expect(id).toBe(String(lateOid));
    expect(outs).toMatchObject({ orderOid: lateOid, domainName: "app1.example.com", memoryMb: 1024 });
    expect(posts()).toHaveLength(2);
    expect(active()).toHaveLength(1);
    expect(active()[0]!.orderOid).toBe(lateOid);
    expect(fx.logs.some((l) => l.includes("root password RimuHosting generated is unknown"))).toBe(true);
  });

  it("drop after commit: the one order is found at once and returned", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "drop-after-commit" });
    const { id, outs } = await impl.create(INPUTS);
    expect(active()).toHaveLength(1);
    expect(outs.orderOid).toBe(active()[0]!.orderOid);
    expect(id).toBe(String(outs.orderOid));
    expect(posts()).toHaveLength(1);
  });

  it("a retry with inputs changed only in place (memoryMb) still adopts the late order, then resizes it", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "drop" });
    const error = await createError(INPUTS);
    await fx.byHand.createVps(newVpsRequest(setValues(INPUTS) as VpsInputs), {
      creationToken: error.creationToken!,
    });
    const { outs } = await impl.create({ ...INPUTS, memoryMb: 2048 });
    expect(active()).toHaveLength(1);
    expect(outs).toMatchObject({ orderOid: active()[0]!.orderOid, memoryMb: 2048 });
  });

  it("without creationScope (older state): a random token, and the message says the order cannot be found automatically", async () => {
    const { creationScope: _omitted, ...unscoped } = INPUTS;
    fx.emulator.injectFault({ route: "createVps", kind: "drop" });
    const error = await createError(unscoped);
    expect(error.id).toBeUndefined();
    expect(error.creationToken).toMatch(/^[0-9a-f]{8}-[0-9a-f-]{27}$/);
    expect(error.message).toContain("has no creationScope");
    expect(error.message).toContain("adopt it with adoptOrderOid, or cancel it");
  });
});

describe("create(): replacement while the old order is active", () => {
  it.each([
    ["dcLocation", { dcLocation: "DCLONDON" }],
    ["domainName", { domainName: "app2.example.com" }],
  ])("same creationScope, different %s: a new order, never the old one", async (_field, change) => {
    const first = await impl.create(INPUTS);
    const second = await impl.create({ ...INPUTS, ...change });
    expect(second.id).not.toBe(first.id);
    expect(active()).toHaveLength(2);
    expect(posts()).toHaveLength(2);
    const tokens = await Promise.all(
      [first.id, second.id].map(async (id) => {
        const order = (await fx.byHand.getOrder(Number(id))).about_order;
        return order.meta_data?.find((m) => m.key_name === CREATION_TOKEN_KEY)?.value;
      }),
    );
    expect(tokens[0]).toMatch(/^vps-/);
    expect(tokens[1]).toMatch(/^vps-/);
    expect(tokens[1]).not.toBe(tokens[0]);
  });

  it("an order with this resource's token that these inputs cannot have placed (drifted outside Pulumi) is stepped over", async () => {
    // The old VPS of this resource, renamed outside Pulumi: its token matches the inputs, its domain does not.
    const token = creationTokenFor(setValues(INPUTS));
    const drifted = await fx.byHand.createVps(
      newVpsRequest({ ...(setValues(INPUTS) as VpsInputs), domainName: "renamed.example.com" }),
      { creationToken: token },
    );
    const { id, outs } = await impl.create(INPUTS);
    expect(id).not.toBe(String(drifted.about_order.order_oid));
    expect(outs.domainName).toBe("app1.example.com");
    expect(active()).toHaveLength(2);
    expect(
      fx.logs.some((l) =>
        l.includes(
          `order ${drifted.about_order.order_oid} carries this resource's creation token but is renamed.example.com`,
        ),
      ),
    ).toBe(true);
    // A retry of the same create finds the new order (its token is stable), not a third one.
    const again = await impl.create(INPUTS);
    expect(again.id).toBe(id);
    expect(active()).toHaveLength(2);
    expect(posts()).toHaveLength(2);
  });

  it("another resource (another creationScope) with identical inputs is another order", async () => {
    const first = await impl.create(INPUTS);
    const second = await impl.create({ ...INPUTS, creationScope: "shop/prod/app-copy" });
    expect(second.id).not.toBe(first.id);
    expect(active()).toHaveLength(2);
  });
});

describe("creationScope is never a change", () => {
  it("check() accepts it and rejects a non-string; diff() ignores it entirely", async () => {
    expect(await impl.check({}, INPUTS)).toEqual({ inputs: INPUTS });
    const bad = await impl.check({}, { ...INPUTS, creationScope: 5 });
    expect(bad.failures).toEqual([
      { property: "creationScope", reason: expect.stringContaining("set by the Vps class") },
    ]);
    const { id, outs } = await impl.create(INPUTS);
    expect(outs).not.toHaveProperty("creationScope");
    for (const news of [
      INPUTS,
      { ...INPUTS, creationScope: "renamed/stack/app" },
      { ...INPUTS, creationScope: undefined },
    ]) {
      expect(await impl.diff(id, outs as never, news)).toEqual({
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      });
    }
    const { outs: updated } = await impl.update(id, outs as never, { ...INPUTS, memoryMb: 2048 });
    expect(updated).not.toHaveProperty("creationScope");
  });
});
