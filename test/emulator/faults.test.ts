import type { GetOrdersResponse } from "../../contract/index.js";
import { DEMO_API_KEY } from "../../emulator/index.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { createVps, errorOf, orderPath, record } from "./fixtures.js";
import { GateClock } from "../helpers/gate-clock.js";
import { until } from "../helpers/promises.js";

const newVps = (domain: string, token = domain) => ({
  new_order_request: {
    instantiation_options: { domain_name: domain },
    meta_data: [{ key_name: "pulumi-rimuhosting:creation-token", value: token }],
  },
});

async function findByToken(emu: TestEmulator, token: string): Promise<number> {
  const res = await emu.api(
    "GET",
    `/orders;include_inactive=Y;meta_search=${encodeURIComponent(`pulumi-rimuhosting:creation-token:${token}`)}`,
  );
  return record<GetOrdersResponse>(res.body).about_orders!.length;
}

describe("faults", () => {
  let emu: TestEmulator;
  afterEach(async () => {
    await emu?.close();
  });

  test("status fault: armed at start-up, answers 503 once in the error envelope, then recovers", async () => {
    emu = await startTestEmulator({ faults: [{ route: "createVps", kind: "status", status: 503 }] });
    const first = await emu.api("POST", "/orders/new-vps", newVps("f1.example.com"));
    expect(errorOf(first)).toMatchObject({ status: 503, code: "EMU_ERR_FAULT_INJECTED" });
    expect(emu.snapshot()).toHaveLength(0);
    expect((await emu.api("POST", "/orders/new-vps", newVps("f1.example.com"))).status).toBe(200);
    expect(emu.requestLog().map((r) => [r.route, r.status])).toEqual([
      ["createVps", 503],
      ["createVps", 200],
    ]);
  });

  test("a fault's answer, sent or dropped, is logged with the key's account (chaos rules fail in the same hook)", async () => {
    emu = await startTestEmulator();
    emu.injectFault({ route: "listOrders", kind: "status", status: 503 });
    expect((await emu.api("GET", "/orders")).status).toBe(503);
    emu.injectFault({ route: "listOrders", kind: "drop" });
    await emu.api("GET", "/orders").catch(() => undefined);
    expect((await emu.api("GET", "/orders")).status).toBe(200);
    await until("the dropped request in the log", () => emu.requestLog().length === 3);
    expect(emu.requestLog().map((r) => [r.status, r.outcome, r.account])).toEqual([
      [503, "answered", "demo"],
      [0, "dropped", "demo"],
      [200, "answered", "demo"],
    ]);
  });

  test("status fault: 429 carries Retry-After", async () => {
    emu = await startTestEmulator();
    emu.injectFault({ route: "listOrders", kind: "status", status: 429, retryAfterSeconds: 7 });
    const res = await emu.api("GET", "/orders");
    expect(errorOf(res)).toMatchObject({ status: 429, errorClass: "TooManyRequests" });
    expect(res.headers.get("retry-after")).toBe("7");
    expect((await emu.api("GET", "/orders")).status).toBe(200);
  });

  test("status fault: other routes are untouched, `times` counts hits, '*' matches any route", async () => {
    emu = await startTestEmulator();
    emu.injectFault({ route: "getOrder", kind: "status", times: 2 });
    expect((await emu.api("GET", "/orders")).status).toBe(200);
    expect((await emu.api("GET", "/orders/order-1-x")).status).toBe(503);
    expect((await emu.api("GET", "/orders/order-1-x")).status).toBe(503);
    expect((await emu.api("GET", "/orders/order-1-x")).status).toBe(404);
    emu.injectFault({ route: "*", kind: "status", status: 502 });
    expect((await emu.api("GET", "/data-centers", undefined, { apiKey: null })).status).toBe(502);
  });

  test("`matrix` matches only requests carrying those parameters, `skip` lets matching requests through first", async () => {
    emu = await startTestEmulator();
    // The second listing of the active orders: a search by token (include_inactive=Y) is not one of them.
    emu.injectFault({ route: "listOrders", kind: "status", matrix: { include_inactive: "N" }, skip: 1 });
    expect((await emu.api("GET", "/orders;include_inactive=N")).status).toBe(200);
    expect(await findByToken(emu, "none.example.com")).toBe(0);
    expect((await emu.api("GET", "/orders")).status).toBe(200);
    expect(emu.app.emulator.faults.pending()).toMatchObject([{ skip: 0, times: 1 }]);
    expect((await emu.api("GET", "/orders;include_inactive=N")).status).toBe(503);
    expect((await emu.api("GET", "/orders;include_inactive=N")).status).toBe(200);
    // A request an earlier armed fault hits is not counted as one let through by a later one.
    emu.injectFault({ route: "getOrder", kind: "status", status: 502 });
    emu.injectFault({ route: "getOrder", kind: "status", status: 504, skip: 1 });
    expect((await emu.api("GET", "/orders/order-1-x")).status).toBe(502);
    expect((await emu.api("GET", "/orders/order-1-x")).status).toBe(404);
    expect((await emu.api("GET", "/orders/order-1-x")).status).toBe(504);
  });

  test("drop: the socket is destroyed without an answer and nothing is created", async () => {
    emu = await startTestEmulator();
    emu.injectFault({ route: "createVps", kind: "drop" });
    await expect(emu.api("POST", "/orders/new-vps", newVps("drop.example.com"))).rejects.toThrow();
    expect(emu.snapshot()).toHaveLength(0);
    expect(await findByToken(emu, "drop.example.com")).toBe(0);
    expect(emu.requestLog()[0]).toMatchObject({
      method: "POST",
      route: "createVps",
      status: 0,
      outcome: "dropped",
    });
  });

  test("drop-after-commit: the order is created, then the socket is destroyed", async () => {
    emu = await startTestEmulator();
    emu.injectFault({ route: "createVps", kind: "drop-after-commit" });
    await expect(emu.api("POST", "/orders/new-vps", newVps("dac.example.com"))).rejects.toThrow();
    expect(emu.snapshot()).toEqual([
      expect.objectContaining({ domainName: "dac.example.com", runningState: "RUNNING" }),
    ]);
    expect(await findByToken(emu, "dac.example.com")).toBe(1);
  });

  /** Sends a request that the test can abandon (abort) while the emulator holds it. */
  function abandonable(
    method: string,
    path: string,
    body?: unknown,
  ): { pending: Promise<Response>; abort: () => void } {
    const controller = new AbortController();
    const pending = fetch(`${emu.baseUrl}${path}`, {
      method,
      signal: controller.signal,
      headers: {
        authorization: `rimuhosting apikey=${DEMO_API_KEY}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // Rejects once aborted; each test awaits it where it expects that.
    pending.catch(() => undefined);
    return { pending, abort: () => controller.abort() };
  }
  const sendCreate = (domain: string) => abandonable("POST", "/orders/new-vps", newVps(domain));

  test("delay and delay-after-commit: the request waits on the clock; after-commit work happens before the wait", async () => {
    const clock = new GateClock({ gated: ["sleep"] });
    emu = await startTestEmulator({ clock });
    emu.injectFault({ route: "listDataCenters", kind: "delay", delayMs: 20 });
    const delayed = emu.api("GET", "/data-centers", undefined, { apiKey: null });
    const delay = await clock.nextWait(delayed);
    expect(delay).toMatchObject({ kind: "sleep", ms: 20 });
    delay.open();
    expect((await delayed).status).toBe(200);

    emu.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 60_000 });
    const create = sendCreate("dlc.example.com");
    const hold = await clock.nextWait(create.pending);
    expect(hold).toMatchObject({ kind: "sleep", ms: 60_000 });
    // The order exists while the answer is still held back.
    expect(emu.snapshot()).toEqual([expect.objectContaining({ domainName: "dlc.example.com" })]);
    hold.open();
    expect((await create.pending).status).toBe(200);
  });

  test("request log: a client gone during delay-after-commit is logged as client-gone, and the work is done", async () => {
    const clock = new GateClock({ gated: ["sleep"] });
    emu = await startTestEmulator({ clock });
    emu.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 300 });
    const create = sendCreate("gone-after.example.com");
    const hold = await clock.nextWait(create.pending);
    create.abort();
    await expect(create.pending).rejects.toThrow();
    await until("the request in the log", () => emu.requestLog().length > 0);
    expect(emu.requestLog()).toEqual([
      {
        method: "POST",
        route: "createVps",
        status: 0,
        outcome: "client-gone",
        account: "demo",
        time: expect.any(String),
        userAgent: "node",
      },
    ]);
    expect(emu.snapshot()).toEqual([expect.objectContaining({ domainName: "gone-after.example.com" })]);
    // The held answer goes on once the wait ends, and is not sent to nobody: a request sent after that
    // is the log's only other entry.
    hold.open();
    expect((await emu.api("GET", "/orders")).status).toBe(200);
    expect(emu.requestLog().map((r) => r.outcome)).toEqual(["client-gone", "answered"]);
  });

  test("request log: a client gone during a plain delay is logged as client-gone and nothing is done", async () => {
    const clock = new GateClock({ gated: ["sleep"] });
    emu = await startTestEmulator({ clock });
    const order = (await createVps(emu, {}, { domain: "gone-before.example.com" })).about_order;
    // A request without a body: its handler would run (a create's body could no longer be read).
    emu.injectFault({ route: "deleteVps", kind: "delay", delayMs: 300 });
    const remove = abandonable("DELETE", orderPath(order, "/vps"));
    const delay = await clock.nextWait(remove.pending);
    remove.abort();
    await expect(remove.pending).rejects.toThrow();
    await until("the request in the log", () => emu.requestLog().length > 1);
    expect(emu.requestLog().map((r) => [r.route, r.status, r.outcome])).toEqual([
      ["createVps", 200, "answered"],
      ["deleteVps", 0, "client-gone"],
    ]);
    // The delay ends with the client gone: the delete is not performed. A request sent after that sees it.
    delay.open();
    expect((await emu.api("GET", "/orders")).status).toBe(200);
    expect(emu.snapshot()).toEqual([
      expect.objectContaining({ domainName: "gone-before.example.com", cancelled: false }),
    ]);
    expect(emu.requestLog().map((r) => r.outcome)).toEqual(["answered", "client-gone", "answered"]);
    expect(clock.pending()).toBe(0);
  });

  test("errorRate: 1 fails every request of the named route only", async () => {
    emu = await startTestEmulator({ errorRate: { listOrders: 1 } });
    expect(errorOf(await emu.api("GET", "/orders"))).toMatchObject({ status: 503 });
    expect((await emu.api("GET", "/billing-methods")).status).toBe(200);
  });

  test("errorRate: a global rate of 1 fails every route; 0 fails none", async () => {
    emu = await startTestEmulator({ errorRate: 1 });
    expect((await emu.api("GET", "/distributions", undefined, { apiKey: null })).status).toBe(503);
    await emu.close();
    emu = await startTestEmulator({ errorRate: 0, latencyMs: 5 });
    expect((await emu.api("GET", "/distributions", undefined, { apiKey: null })).status).toBe(200);
  });

  test("injectFault: rejects a malformed spec", async () => {
    emu = await startTestEmulator();
    expect(() => emu.injectFault({ route: "noSuchRoute" as "createVps", kind: "drop" })).toThrow();
  });
});

describe("control endpoints", () => {
  let emu: TestEmulator;
  afterEach(async () => {
    await emu?.close();
  });

  const control = async (method: string, path: string, body?: unknown) => {
    const url = emu.baseUrl.replace(/\/r$/, `/__emulator${path}`);
    const res = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test("control: off by default (404)", async () => {
    emu = await startTestEmulator();
    expect((await control("GET", "/requests")).status).toBe(404);
    expect((await control("POST", "/faults", { route: "*", kind: "drop" })).status).toBe(404);
  });

  test("control: arm a fault, read requests and snapshot, reset", async () => {
    emu = await startTestEmulator({ control: true });
    expect(
      (await control("POST", "/faults", { route: "listOrders", kind: "status", status: 503 })).status,
    ).toBe(200);
    expect((await emu.api("GET", "/orders")).status).toBe(503);
    await createVps(emu, {}, { domain: "ctl.example.com" });
    const requests = (await control("GET", "/requests")).body.requests as { route: string; status: number }[];
    expect(requests.map((r) => [r.route, r.status])).toEqual([
      ["listOrders", 503],
      ["createVps", 200],
    ]);
    const snapshot = (await control("GET", "/snapshot")).body.orders as { domainName: string }[];
    expect(snapshot.map((o) => o.domainName)).toEqual(["ctl.example.com"]);
    await control("POST", "/faults", { route: "createVps", kind: "drop" });
    expect((await control("GET", "/faults")).body.armed).toEqual([
      { route: "createVps", kind: "drop", times: 1 },
    ]);
    expect((await control("POST", "/reset")).status).toBe(200);
    expect(emu.snapshot()).toEqual([]);
    expect(emu.requestLog()).toEqual([]);
    expect((await control("GET", "/faults")).body.armed).toEqual([]);
  });

  test("control: a bad fault spec is a 400 naming the field", async () => {
    emu = await startTestEmulator({ control: true });
    const res = await control("POST", "/faults", { route: "createVps", kind: "explode" });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('"field_name":"kind"');
  });
});
