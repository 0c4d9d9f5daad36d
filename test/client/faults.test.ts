/**
 * Retries and create reconciliation under the emulator's injected faults: what is retried, what is
 * not, and that an ambiguous create never leaves two servers.
 */
import {
  CREATION_TOKEN_KEY,
  RimuError,
  RimuTimeoutError,
  RimuTransientError,
  isReconciled,
} from "../../provider/client/index.js";
import { expectNoSecret, visibleText } from "./support/secrets.js";
import {
  DEMO_API_KEY,
  FAST_RETRY,
  newVpsRequest,
  startClientFixture,
  type ClientFixture,
} from "./support/emulator.js";
import { rejectionOf } from "../helpers/promises.js";

let fx: ClientFixture;

beforeEach(async () => {
  fx = await startClientFixture();
});

afterEach(async () => {
  await fx.close();
  expectNoSecret(fx.logs, DEMO_API_KEY);
});

const requestsTo = (route: string) => fx.emulator.requestLog().filter((r) => r.route === route);

async function failure(promise: Promise<unknown>): Promise<RimuError> {
  const error = await rejectionOf(promise, RimuError);
  expectNoSecret(visibleText(error), DEMO_API_KEY);
  return error;
}

describe("retries", () => {
  it("GET: a 503 then a success is retried and succeeds", async () => {
    fx.emulator.injectFault({ route: "listOrders", kind: "status", status: 503 });
    const res = await fx.client.listOrders();
    expect(res.response_type).toBe("OK");
    expect(requestsTo("listOrders").map((r) => r.status)).toEqual([503, 200]);
    expect(fx.logs.some((l) => /^retry GET \/orders in \d+ms after 503 \(attempt 2\/4\)$/.test(l))).toBe(
      true,
    );
  });

  it("GET: honours Retry-After from a 429", async () => {
    const client = fx.clientWith({ retry: { limit: 1, baseDelayMs: 1, maxDelayMs: 5000 } });
    fx.emulator.injectFault({
      route: "listDistributions",
      kind: "status",
      status: 429,
      retryAfterSeconds: 1,
    });
    await client.listDistributions();
    expect(fx.logs).toContain(
      "retry GET /distributions in 1000ms after 429 (Retry-After 1000ms) (attempt 2/2)",
    );
    expect(fx.sleeps).toEqual([1000]);
  });

  it("GET: a dropped connection is retried", async () => {
    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    fx.emulator.injectFault({ route: "getOrder", kind: "drop" });
    const res = await fx.client.getOrder(oid);
    expect(res.about_order.order_oid).toBe(oid);
    expect(
      fx.logs.some((l) => l.startsWith("retry GET /orders/order-") && l.includes("after ECONNRESET")),
    ).toBe(true);
  });

  it("GET: a timeout is retried", async () => {
    const client = fx.clientWith({ timeouts: { readMs: 500 } });
    fx.emulator.injectFault({ route: "listDataCenters", kind: "delay", delayMs: 3000 });
    const res = await client.listDataCenters();
    expect(res.response_type).toBe("OK");
    expect(
      fx.logs.some((l) => l.startsWith("retry GET /data-centers") && l.includes("after ETIMEDOUT")),
    ).toBe(true);
  });

  it("idempotent PUT (running state RUNNING/NOTRUNNING) is retried after a drop", async () => {
    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    fx.emulator.injectFault({ route: "setRunningState", kind: "drop" });
    const res = await fx.client.setRunningState(oid, "NOTRUNNING");
    expect(res.running_vps_info.running_state).toBe("NOTRUNNING");
    expect(requestsTo("setRunningState")).toHaveLength(2);
  });

  it("action PUT (reinstall) is not retried after a 503: the error is reported", async () => {
    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    fx.emulator.injectFault({ route: "reinstallVps", kind: "status", status: 503 });
    const error = await failure(
      fx.client.reinstallVps(oid, { instantiation_options: { distro: "deb12.64" } }),
    );
    expect(error).toBeInstanceOf(RimuTransientError);
    expect(error.attempts).toBe(1);
    expect(requestsTo("reinstallVps")).toHaveLength(1);
  });

  it("action (reboot) is not retried after a dropped connection", async () => {
    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    fx.emulator.injectFault({ route: "setRunningState", kind: "drop" });
    const error = await failure(fx.client.setRunningState(oid, "RESTARTING"));
    expect(error).toBeInstanceOf(RimuTransientError);
    expect(error.networkCode).toBe("ECONNRESET");
    expect(requestsTo("setRunningState")).toHaveLength(1);
  });

  it("a definite 4xx is never retried", async () => {
    await failure(fx.client.getOrder(123456789));
    expect(requestsTo("getOrder")).toHaveLength(1);
  });
});

describe("createVps reconciliation", () => {
  /** Short lookup window for ambiguous failures (FAST_RETRY backoff: 1–20 ms per lookup). */
  const GRACE = { lookupGraceMs: 100 };
  const createPosts = () => requestsTo("createVps");

  it("drop-after-commit: returns the one order that was created, marked reconciled", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "drop-after-commit" });
    const res = await fx.client.createVps(newVpsRequest(), { creationToken: "ambiguous-1", ...GRACE });

    const orders = fx.emulator.snapshot();
    expect(orders).toHaveLength(1);
    expect(res.about_order.order_oid).toBe(orders[0]!.orderOid);
    expect(isReconciled(res)).toBe(true);
    expect(res.creation_token).toBe("ambiguous-1");
    expect(res.new_order_request).toBeNull();
    expect(res.human_readable_message).toMatch(/Reconciled: .*password cannot be recovered/);
    expect(res.about_order.meta_data).toContainEqual({ key_name: CREATION_TOKEN_KEY, value: "ambiguous-1" });
    expect(res.running_vps_info?.running_state).toBe("RUNNING");
    expect(createPosts()).toHaveLength(1);
  });

  it("dropped connection before commit: never sent again; the error carries the token; a re-run with it creates exactly one", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "drop" });
    const error = await failure(
      fx.client.createVps(newVpsRequest(), { creationToken: "dropped-1", ...GRACE }),
    );
    expect(error).toBeInstanceOf(RimuTransientError);
    expect(error.networkCode).toBe("ECONNRESET");
    expect(error.creationToken).toBe("dropped-1");
    expect(error.orderMayExist).toBe(true);
    expect(error.message).toContain("no order carries creation token dropped-1 yet");
    expect(error.message).toContain("so it was not sent again: the order may still appear");
    expect(error.message).toContain('Calling createVps again with creationToken "dropped-1" picks it up');
    expect(createPosts()).toHaveLength(1);
    expect(fx.emulator.snapshot()).toHaveLength(0);
    // Polled a few times within the grace window (plus the pre-flight lookup), not once.
    expect(requestsTo("listOrders").length).toBeGreaterThan(2);

    const res = await fx.client.createVps(newVpsRequest(), { creationToken: "dropped-1", ...GRACE });
    expect(isReconciled(res)).toBe(false);
    expect(fx.emulator.snapshot()).toHaveLength(1);
    expect(res.about_order.order_oid).toBe(fx.emulator.snapshot()[0]!.orderOid);
    expect(createPosts()).toHaveLength(2);
  });

  it("dropped connection without a supplied token: the error carries the random token it used", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "drop" });
    const error = await failure(fx.client.createVps(newVpsRequest(), GRACE));
    expect(error.creationToken).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.orderMayExist).toBe(true);
    expect(createPosts()).toHaveLength(1);
    expect(fx.emulator.snapshot()).toHaveLength(0);
  });

  it("the same token twice: one order; the second call returns it (reconciled) without a POST", async () => {
    const first = await fx.client.createVps(newVpsRequest(), { creationToken: "idem-1" });
    const second = await fx.client.createVps(newVpsRequest(), { creationToken: "idem-1" });
    expect(isReconciled(first)).toBe(false);
    expect(isReconciled(second)).toBe(true);
    expect(second.about_order.order_oid).toBe(first.about_order.order_oid);
    expect(second.human_readable_message).toContain(
      "an order carrying creation token idem-1 already exists, so POST /orders/new-vps was not sent",
    );
    expect(fx.emulator.snapshot()).toHaveLength(1);
    expect(createPosts()).toHaveLength(1);
    // Another token is another order.
    await fx.client.createVps(newVpsRequest(), { creationToken: "idem-2" });
    expect(fx.emulator.snapshot()).toHaveLength(2);
  });

  it("a cancelled order does not satisfy the pre-flight lookup: its token orders a new VPS", async () => {
    const first = await fx.client.createVps(newVpsRequest(), { creationToken: "reused-1" });
    await fx.client.deleteVps(first.about_order.order_oid);
    const second = await fx.client.createVps(newVpsRequest(), { creationToken: "reused-1" });
    expect(isReconciled(second)).toBe(false);
    expect(second.about_order.order_oid).not.toBe(first.about_order.order_oid);
    expect(createPosts()).toHaveLength(2);
  });

  it("pre-flight lookup fails: nothing is sent, and the error says so", async () => {
    fx.emulator.injectFault({ route: "listOrders", kind: "status", status: 503, times: 4 });
    const error = await failure(fx.client.createVps(newVpsRequest(), { creationToken: "pre-fails" }));
    expect(error.creationToken).toBe("pre-fails");
    expect(error.orderMayExist).toBe(false);
    expect(error.message).toContain(
      "could not check whether an order with creation token pre-fails already exists, so POST /orders/new-vps was not sent",
    );
    expect(createPosts()).toHaveLength(0);
    expect(fx.emulator.snapshot()).toHaveLength(0);
  });

  it("503 with the service's JSON error envelope: the service refused, so it is sent again; one order", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "status", status: 503 });
    const res = await fx.client.createVps(newVpsRequest(), { creationToken: "svc-503" });
    expect(isReconciled(res)).toBe(false);
    expect(fx.emulator.snapshot()).toHaveLength(1);
    expect(createPosts().map((r) => r.status)).toEqual([503, 200]);
    expect(requestsTo("listOrders")).toHaveLength(1); // the pre-flight lookup only
    expect(
      fx.logs.some((l) => /^createVps: HTTP 503 means nothing was created; retry in \d+ms/.test(l)),
    ).toBe(true);
  });

  it("503 envelope every time: reports after the limit, with the token, and nothing was created", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "status", status: 503, times: 10 });
    const error = await failure(fx.client.createVps(newVpsRequest(), { creationToken: "never-made" }));
    expect(error).toBeInstanceOf(RimuTransientError);
    expect(error.creationToken).toBe("never-made");
    expect(error.orderMayExist).toBe(false);
    expect(error.message).toContain("gave up after 4 attempts, nothing was created");
    expect(fx.emulator.snapshot()).toHaveLength(0);
    expect(createPosts()).toHaveLength(4);
  });

  it("502 (even with a JSON envelope) is ambiguous: looked up, never sent again", async () => {
    fx.emulator.injectFault({ route: "createVps", kind: "status", status: 502 });
    const error = await failure(fx.client.createVps(newVpsRequest(), { creationToken: "gw-502", ...GRACE }));
    expect(error.status).toBe(502);
    expect(error.errorClass).toBe("ServiceUnavailable");
    expect(error.creationToken).toBe("gw-502");
    expect(error.orderMayExist).toBe(true);
    expect(error.message).toContain("so it was not sent again");
    expect(createPosts()).toHaveLength(1);
    expect(fx.emulator.snapshot()).toHaveLength(0);
  });

  it("429 on create: nothing was created, sent again after the Retry-After wait", async () => {
    const client = fx.clientWith({ retry: { limit: 1, baseDelayMs: 1, maxDelayMs: 5000 } });
    fx.emulator.injectFault({ route: "createVps", kind: "status", status: 429, retryAfterSeconds: 1 });
    const res = await client.createVps(newVpsRequest());
    expect(isReconciled(res)).toBe(false);
    expect(fx.emulator.snapshot()).toHaveLength(1);
    expect(requestsTo("listOrders")).toHaveLength(0);
    expect(fx.logs).toContain("createVps: HTTP 429 means nothing was created; retry in 1000ms (attempt 2/2)");
    expect(fx.sleeps).toEqual([1000]);
  });

  it("lookup keeps failing: a clear error with the creation token; the one order can be found with it", async () => {
    // No supplied token, so no pre-flight lookup; no retries and grace 0, so exactly one lookup, which fails.
    const client = fx.clientWith({ retry: { ...FAST_RETRY, limit: 0 } });
    fx.emulator.injectFault({ route: "createVps", kind: "drop-after-commit" });
    fx.emulator.injectFault({ route: "listOrders", kind: "status", status: 503 });
    const error = await failure(client.createVps(newVpsRequest(), { lookupGraceMs: 0 }));
    expect(error).toBeInstanceOf(RimuTransientError);
    const token = error.creationToken!;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.orderMayExist).toBe(true);
    expect(error.message).toContain("looking the order up by creation token also failed");
    expect(error.message).toContain(`"${CREATION_TOKEN_KEY}": "${token}"`);
    expect(requestsTo("listOrders").map((r) => r.status)).toEqual([503]);
    expect(fx.emulator.snapshot()).toHaveLength(1);
    expect(createPosts()).toHaveLength(1);
    const found = await fx.client.listOrders({
      includeInactive: true,
      metaSearch: { [CREATION_TOKEN_KEY]: token },
    });
    expect(found.about_orders).toHaveLength(1);
  });

  it("timeout with nothing found: reported with the token and never sent again", async () => {
    // The delay fault holds the request before anything is created. After the client's timeout the
    // lookups find nothing; since a real service may still be working on it, a second POST could
    // make two servers, so the client reports instead.
    const client = fx.clientWith({ timeouts: { mutationMs: 100 } });
    fx.emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 1000 });
    const error = await failure(
      client.createVps(newVpsRequest(), { creationToken: "slow-create", lookupGraceMs: 0 }),
    );
    expect(error).toBeInstanceOf(RimuTimeoutError);
    expect(error.creationToken).toBe("slow-create");
    expect(error.orderMayExist).toBe(true);
    expect(error.message).toContain("no response within 100 ms (timeouts.mutationMs)");
    expect(error.message).toContain("the service may still be creating it, so it was not sent again");
    expect(error.message).toContain(`"${CREATION_TOKEN_KEY}": "slow-create"`);
    expect(fx.logs.filter((l) => l.startsWith("POST /orders/new-vps "))).toEqual([
      expect.stringMatching(/^POST \/orders\/new-vps ETIMEDOUT attempt 1\/4 \d+ms$/),
    ]);
    // The pre-flight lookup, then exactly one lookup (grace 0).
    expect(requestsTo("listOrders")).toHaveLength(2);
    await fx.emulator.close();
    expect(fx.emulator.snapshot().length).toBeLessThanOrEqual(1);
  });

  it("timeout after the order was committed: found by its token and returned, reconciled", async () => {
    const client = fx.clientWith({ timeouts: { mutationMs: 100 } });
    fx.emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 2000 });
    const res = await client.createVps(newVpsRequest(), { creationToken: "slow-but-made", ...GRACE });
    expect(isReconciled(res)).toBe(true);
    expect(res.human_readable_message).toContain("(ETIMEDOUT)");
    const orders = fx.emulator.snapshot();
    expect(orders).toHaveLength(1);
    expect(res.about_order.order_oid).toBe(orders[0]!.orderOid);
    expect(fx.logs.filter((l) => l.startsWith("POST /orders/new-vps "))).toHaveLength(1);
  });

  it("a definite 4xx on create is thrown at once, without a lookup", async () => {
    const error = await failure(fx.client.createVps({ ...newVpsRequest(), pricing_plan_code: "NOPE" }));
    expect(error.status).toBe(400);
    expect(requestsTo("listOrders")).toHaveLength(0);
    expect(requestsTo("createVps")).toHaveLength(1);
  });
});
