/**
 * L1: exactly-once creation that never adopts another state's VPS, against the real emulator.
 *
 * The creation token (project/stack/name + replace-forcing inputs) finds the orders this resource could
 * have placed; the creation nonce (made by check(), kept in this state) says which state placed one.
 * A lost create is recorded as a pending resource that the next `up`, `refresh` and `destroy` resolve;
 * an order carrying the token but another nonce is never adopted: the create stops and names it.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { setCreateLookupGrace } from "../../../provider/impl/testing";
import { newVpsRequest } from "../../../provider/impl/inputs/vps-requests";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import { setValues } from "../../../provider/impl/inputs/vps-values";
import { CREATION_TOKEN_KEY } from "../../../provider/client/index";
import { authorizationHeader } from "../../../contract/index";
import { CREATION_NONCE_KEY, creationTokenFor } from "../../../provider/impl/lifecycle/creation-token";
import {
  APP_INPUTS,
  DEMO_API_KEY,
  checkCore,
  rejectionOf,
  useImplFixture,
  type ImplFixture,
} from "../support/impl-fixture";

const PROGRAM = APP_INPUTS;
let fx: ImplFixture;
const fixture = useImplFixture();
beforeEach(() => {
  fx = fixture();
  setCreateLookupGrace(0); // one lookup after the lost response, then report
});
afterEach(() => setCreateLookupGrace(undefined));

const active = () => fx.emulator.snapshot().filter((o) => !o.cancelled);
const posts = () => fx.emulator.requestLog().filter((r) => r.route === "createVps");

/** check() as the engine runs it: the checked inputs are what create/update receive. */
async function checked(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const result = await impl.check(olds, news);
  expect(result.failures).toBeUndefined();
  return result.inputs;
}

const failure = rejectionOf;

/** The order a backend finishes late, carrying the token and nonce of a lost request. */
async function lateOrder(inputs: Record<string, unknown>, token: string, nonce: string) {
  const request = newVpsRequest(setValues(inputs) as VpsInputs);
  request.meta_data = [{ key_name: CREATION_NONCE_KEY, value: nonce }];
  return (await fx.byHand.createVps(request, { creationToken: token })).about_order.order_oid;
}

describe("a create whose response is lost is recorded as pending and resolved by the next run", () => {
  it("up again: update() finds this state's late order (same token and nonce), orders nothing; refresh records its id", async () => {
    const inputs = await checked({}, PROGRAM);
    fx.emulator.injectFault({ route: "createVps", kind: "drop" });
    const error = await failure(impl.create(inputs));
    expect(error.code).toBe("RIMU_ERR_CREATE_OUTCOME_UNKNOWN");
    const token = creationTokenFor(setValues(inputs));
    expect(error.id).toBe(`pending-${token}`);
    expect(error.properties).toMatchObject({
      __creationNonce: inputs.__creationNonce,
      __creationToken: token,
      __provider: "text",
      domainName: "app1.example.com",
    });
    expect(error.message).not.toContain(DEMO_API_KEY);
    expect(active()).toHaveLength(0);

    const lateOid = await lateOrder(inputs, token, inputs.__creationNonce as string);
    const again = await checked(error.properties, PROGRAM);
    expect(again.__creationNonce).toBe(inputs.__creationNonce);
    expect(await impl.diff(error.id, error.properties, again)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const { outs } = await impl.update(error.id, error.properties, again);
    expect(outs).toMatchObject({ orderOid: lateOid, domainName: "app1.example.com" });
    expect(posts()).toHaveLength(2); // the lost one and the late one by hand: none by the retry
    expect(active()).toHaveLength(1);

    const refreshed = await impl.read(error.id, outs as never);
    expect(refreshed.id).toBe(String(lateOid));
    expect(await impl.diff(error.id, outs as never, again)).toMatchObject({ changes: false });
  });

  it("up again when the order never appeared: it is ordered now, once", async () => {
    const inputs = await checked({}, PROGRAM);
    fx.emulator.injectFault({ route: "createVps", kind: "drop" });
    const error = await failure(impl.create(inputs));
    const again = await checked(error.properties, PROGRAM);
    const { outs } = await impl.update(error.id, error.properties, again);
    expect(active()).toHaveLength(1);
    expect(active()[0]!.orderOid).toBe(outs.orderOid);
    // A second `up` with the recorded outputs changes nothing.
    expect(await impl.diff(error.id, outs as never, again)).toMatchObject({ changes: false });
  });

  it("destroy of a pending resource cancels the late order it recognises; refresh keeps a pending one that has not appeared", async () => {
    const inputs = await checked({}, PROGRAM);
    fx.emulator.injectFault({ route: "createVps", kind: "drop" });
    const error = await failure(impl.create(inputs));
    const kept = await impl.read(error.id, error.properties);
    expect(kept.id).toBe(error.id);
    await impl.delete(error.id, error.properties); // nothing there yet: nothing to cancel
    const token = error.properties.__creationToken as string;
    await lateOrder(inputs, token, inputs.__creationNonce as string);
    expect(active()).toHaveLength(1);
    await impl.delete(error.id, error.properties);
    expect(active()).toHaveLength(0);
  });

  it("drop after commit: the one order is found at once by token and nonce", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "drop-after-commit" });
    const { id, outs } = await impl.create(await checked({}, PROGRAM));
    expect(active()).toHaveLength(1);
    expect(id).toBe(String(outs.orderOid));
    expect(posts()).toHaveLength(1);
  });
});

describe("a new VPS costs one token lookup", () => {
  const lookups = () => fx.emulator.requestLog().filter((r) => r.route === "listOrders");

  it("check() looks the token up and finds nothing; create() right after it does not look again", async () => {
    const inputs = await checked({}, PROGRAM);
    expect(lookups()).toHaveLength(1);
    await impl.create(inputs);
    expect(lookups()).toHaveLength(1);
    expect(posts()).toHaveLength(1);
  });

  it("without that check (or a second create with the same inputs) create() looks the token up first", async () => {
    const inputs = await checked({}, PROGRAM);
    const first = await impl.create(inputs);
    // The same checked inputs again, as a retried create would send them: the lookup finds the order.
    const again = await impl.create(inputs);
    expect(again.id).toBe(first.id);
    expect(lookups()).toHaveLength(2);
    expect(posts()).toHaveLength(1);
  });
});

describe("an order of another state is never adopted", () => {
  it("same project/stack/name, another state: create stops naming the order and adoptOrderOid; preview says so first", async () => {
    // The first state's VPS (another backend, a re-created stack, a colleague's `dev`).
    const first = await impl.create(await checked({}, PROGRAM));
    const other = (await impl.check({}, PROGRAM)).inputs; // a new state: a new nonce
    expect(other.__creationNonce).not.toBe(first.outs.__creationNonce);

    const error = await failure(impl.create(other));
    expect(error.code).toBe("RIMU_ERR_FOREIGN_ORDER");
    expect(error.orderOid).toBe(first.outs.orderOid);
    expect(error.message).toContain(
      `order ${first.id} (app1.example.com) already carries the creation token`,
    );
    expect(error.message).toContain(`set adoptOrderOid: ${first.id}`);
    expect(error.message).not.toMatch(/\n\s+at /);
    expect(posts()).toHaveLength(1);
    expect(active()).toHaveLength(1);

    // Preview (check of a new resource) already knows.
    const preview = await impl.check({}, PROGRAM);
    expect(preview.failures).toEqual([
      {
        property: "",
        reason: expect.stringContaining(`order ${first.id} (app1.example.com) already carries`),
      },
    ]);
  });

  it("engine killed mid-create (nothing recorded, the next check makes a new nonce): stops and names the order; adopting it on purpose works", async () => {
    const lost = await checked({}, PROGRAM);
    const token = creationTokenFor(setValues(lost));
    const oid = await lateOrder(lost, token, lost.__creationNonce as string); // placed, never recorded
    testing.forgetRun(); // the next run: a new provider host
    const next = (await impl.check({}, PROGRAM)).inputs;
    const error = await failure(impl.create(next));
    expect(error.code).toBe("RIMU_ERR_FOREIGN_ORDER");
    expect(error.message).toContain(`adoptOrderOid: ${oid}`);
    const adopted = await impl.create(await checked({}, { ...PROGRAM, adoptOrderOid: oid }));
    expect(adopted.id).toBe(String(oid));
    expect(active()).toHaveLength(1);
  });

  it("adoptOrderOid of an order another stack created: refused by preview and create, naming the way out; a script's order is adopted", async () => {
    // Another stack's VPS (another project/stack/name: its creation token is not this resource's).
    const theirs = await impl.create(await checked({}, { ...PROGRAM, creationScope: "shop/staging/app" }));
    const adopting = { ...PROGRAM, adoptOrderOid: Number(theirs.id) };
    testing.forgetRun();
    const preview = await impl.check({}, adopting);
    const refusal =
      `order ${theirs.id} (app1.example.com) was created by another Pulumi stack (it carries that stack's creation ` +
      "nonce and not this resource's creation token)";
    expect(preview.failures).toEqual([expect.objectContaining({ reason: expect.stringContaining(refusal) })]);
    expect(preview.failures?.[0]?.reason).toContain(
      `\`pulumi import rimuhosting:index:Vps <name> ${theirs.id}\``,
    );
    const error = await failure(impl.create(preview.inputs));
    expect(error.code).toBe("RIMU_ERR_ADOPTION");
    expect(error.message).toContain(refusal);

    // An order a script placed with the package's client carries the client's creation token, and no nonce.
    const scripted = (
      await fx.byHand.createVps({
        instantiation_options: { domain_name: "app1.example.com", distro: "deb12.64" },
        dc_location: "DCDALLAS",
      })
    ).about_order;
    expect(scripted.meta_data?.map((m) => m.key_name)).toEqual([CREATION_TOKEN_KEY]);
    testing.forgetRun();
    const adopted = await impl.create(await checked({}, { ...PROGRAM, adoptOrderOid: scripted.order_oid }));
    expect(adopted.id).toBe(String(scripted.order_oid));
  });

  it("a stray order appearing later (a killed run's create committed late) is named by the next preview of the existing resource", async () => {
    const inputs = await checked({}, PROGRAM);
    await impl.create(inputs);
    // Posted as is (the client would find this resource's order by the token and not post at all).
    const request = newVpsRequest(setValues(inputs) as VpsInputs);
    request.meta_data = [
      { key_name: CREATION_TOKEN_KEY, value: creationTokenFor(setValues(inputs)) },
      { key_name: CREATION_NONCE_KEY, value: "0".repeat(32) },
    ];
    const response = await fetch(`${fx.emulator.baseUrl}/orders/new-vps`, {
      method: "POST",
      headers: { authorization: authorizationHeader(DEMO_API_KEY), "content-type": "application/json" },
      body: JSON.stringify({ new_order_request: request }),
    });
    const stray = (
      (await response.json()) as { post_new_vps_response: { about_order: { order_oid: number } } }
    ).post_new_vps_response.about_order.order_oid;
    fx.logs.length = 0;
    testing.forgetRun(); // the next run: a new provider host
    const again = await impl.check(inputs, PROGRAM);
    expect(again.failures).toBeUndefined(); // the resource itself is fine
    expect(fx.logs.join("\n")).toContain(
      `warning: [RIMU_ERR_FOREIGN_ORDER] app: Ordering VPS app1.example.com: order ${stray}`,
    );
  });

  it("an order without a nonce (placed by an older version) is not adopted either", async () => {
    const probe = await checked({}, PROGRAM);
    const old = await fx.byHand.createVps(newVpsRequest(setValues(probe) as VpsInputs), {
      creationToken: creationTokenFor(setValues(probe)),
    });
    // The next run's check sees the old order (preview fails); create() stops too.
    testing.forgetRun();
    const { inputs, failures } = await impl.check({}, PROGRAM);
    expect(failures?.[0]?.reason).toContain(`order ${old.about_order.order_oid}`);
    const error = await failure(impl.create(inputs));
    expect(error.orderOid).toBe(old.about_order.order_oid);
  });
});

describe("replacement and other resources", () => {
  it.each([
    ["dcLocation", { dcLocation: "DCLONDON" }],
    ["domainName", { domainName: "app2.example.com" }],
  ])("same creationScope, different %s: a new order, never the old one", async (_field, change) => {
    const firstInputs = await checked({}, PROGRAM);
    const first = await impl.create(firstInputs);
    const second = await impl.create(await checked(firstInputs, { ...PROGRAM, ...change }));
    expect(second.id).not.toBe(first.id);
    expect(active()).toHaveLength(2);
    const tokens = await Promise.all(
      [first.id, second.id].map(async (id) => {
        const order = (await fx.byHand.getOrder(Number(id))).about_order;
        return order.meta_data?.find((m) => m.key_name === CREATION_TOKEN_KEY)?.value;
      }),
    );
    expect(tokens[1]).not.toBe(tokens[0]);
  });

  it("this state's order renamed outside Pulumi (token and nonce match, domain not) is stepped over", async () => {
    const inputs = await checked({}, PROGRAM);
    const token = creationTokenFor(setValues(inputs));
    const drifted = await lateOrder(
      { ...inputs, domainName: "renamed.example.com" },
      token,
      inputs.__creationNonce as string,
    );
    // The next run's check (this state's nonce kept from the old inputs) sees the renamed order.
    const { id, outs } = await impl.create(await checked(inputs, PROGRAM));
    expect(id).not.toBe(String(drifted));
    expect(outs.domainName).toBe("app1.example.com");
    expect(fx.logs.some((l) => l.includes(`order ${drifted} carries this resource's creation token`))).toBe(
      true,
    );
    const again = await impl.create(inputs); // a retry of the same create finds the new order
    expect(again.id).toBe(id);
    expect(active()).toHaveLength(2);
  });

  it("another resource (another creationScope) with identical inputs is another order", async () => {
    const first = await impl.create(await checked({}, PROGRAM));
    const second = await impl.create(await checked({}, { ...PROGRAM, creationScope: "shop/prod/app-copy" }));
    expect(second.id).not.toBe(first.id);
    expect(active()).toHaveLength(2);
  });
});

describe("creationScope is never a change", () => {
  it("check() rejects a non-string; diff() ignores it; a refresh hands it back so the next diff lists nothing", async () => {
    const bad = await checkCore({}, { ...PROGRAM, creationScope: 5 });
    expect(bad.failures).toEqual([
      { property: "creationScope", reason: expect.stringContaining("set by the Vps class") },
    ]);
    const inputs = await checked({}, PROGRAM);
    const { id, outs } = await impl.create(inputs);
    for (const news of [
      inputs,
      { ...inputs, creationScope: "renamed/stack/app" },
      { ...inputs, creationScope: undefined },
    ]) {
      expect(await impl.diff(id, outs as never, news)).toEqual({
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      });
    }
    const refreshed = await impl.read(id, outs as never);
    expect(refreshed.inputs).toMatchObject({
      creationScope: "shop/prod/app",
      __creationNonce: inputs.__creationNonce,
    });
    expect(refreshed.inputs).not.toHaveProperty("billingOid");
    expect(refreshed.inputs).not.toHaveProperty("hostServerOid");
  });
});
