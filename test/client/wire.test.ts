/**
 * What the client puts on the wire, and how it reads bodies the emulator never sends (bad shapes,
 * HTML), checked over real HTTP against a tiny 127.0.0.1 server.
 */
import { ENDPOINTS } from "../../contract/index.js";
import {
  CREATION_TOKEN_KEY,
  RimuConfigError,
  RimuResponseShapeError,
  RimuTimeoutError,
  RimuTransientError,
  createClient,
  type RimuClient,
} from "../../provider/client/index.js";
import { expectNoSecret, visibleText } from "./support/secrets.js";
import { okBody, startTinyServer, type TinyReply, type TinyServer } from "./support/tiny-server.js";
import { rejectionOf } from "../helpers/promises.js";
import { neverAcceptingListener, type NeverAcceptingListener } from "../helpers/never-accepting.js";

const API_KEY = "tiny-server-key-0000-SECRET";
const order = { order_oid: 42, domain_name: "web1.example.com", slug: "order-42-web1-example-com" };

let server: TinyServer | undefined;
let client: RimuClient | undefined;
const logs: string[] = [];

async function setup(reply: (url: string, index: number) => TinyReply, retryLimit = 0) {
  server = await startTinyServer((req, i) => reply(req.url, i));
  client = createClient({
    apiKey: API_KEY,
    baseUrl: server.baseUrl,
    retry: { limit: retryLimit, baseDelayMs: 1, maxDelayMs: 5 },
    timeouts: { readMs: 2000 },
    log: (line) => logs.push(line),
  });
  return { server, client };
}

afterEach(async () => {
  client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
  expectNoSecret(logs, API_KEY);
  logs.length = 0;
});

/** A reply per route: the right root key with whatever fields the test needs. */
function replyFor(url: string): TinyReply {
  if (url.startsWith("/r/orders/new-vps"))
    return { body: okBody("post_new_vps_response", { about_order: order }) };
  if (url.includes("/ptr")) return { body: okBody("jaxrs_response") };
  if (url.startsWith("/r/orders/order-"))
    return { body: okBody("get_order_response", { about_order: order }) };
  if (url.startsWith("/r/orders")) return { body: okBody("get_orders_response", { about_orders: [order] }) };
  if (url.startsWith("/r/distributions"))
    return { body: okBody("get_distros_response", { distro_infos: [] }) };
  if (url.startsWith("/r/pricing-plans/new-vm-pricing"))
    return { body: okBody("get_new_vm_pricing_response", { monthly_recurring_amt: { amt: 1 } }) };
  if (url.startsWith("/r/pricing-plans")) return { body: okBody("get_pricing_plans_response") };
  if (url.startsWith("/r/data-centers")) return { body: okBody("get_data_centers_response") };
  return { status: 404, body: { jaxrs_response: { status_code: 404, response_type: "ERROR" } } };
}

describe("client: request wire format", () => {
  it("sends the Authorization header to keyed endpoints and Accept: application/json everywhere", async () => {
    const { server, client } = await setup(replyFor);
    await client.listOrders();
    await client.getOrder(42);
    const [list, get] = server.requests;
    expect(list!.headers.authorization).toBe(`rimuhosting apikey=${API_KEY}`);
    expect(get!.headers.authorization).toBe(`rimuhosting apikey=${API_KEY}`);
    expect(list!.headers.accept).toBe("application/json");
    expect(get!.url).toBe("/r/orders/order-42-x");
  });

  it("leaves the Authorization header off the public endpoints R14–R17", async () => {
    const { server, client } = await setup(replyFor);
    await client.listDistributions();
    await client.listPricingPlans();
    await client.quoteNewVm({ pricing_plan_code: "MIRO1B" });
    await client.listDataCenters();
    expect(server.requests.map((r) => r.url)).toEqual([
      "/r/distributions",
      "/r/pricing-plans",
      "/r/pricing-plans/new-vm-pricing",
      "/r/data-centers",
    ]);
    for (const req of server.requests) {
      expect(req.headers.authorization).toBeUndefined();
      expect(req.headers.accept).toBe("application/json");
    }
    expect(server.requests[2]!.method).toBe(ENDPOINTS.quoteNewVm.method);
    expect(JSON.parse(server.requests[2]!.body)).toEqual({
      new_order_request: { pricing_plan_code: "MIRO1B" },
    });
  });

  it("does not need an API key for public endpoints, and names apiKey when a keyed one is called without", async () => {
    server = await startTinyServer((req) => replyFor(req.url));
    client = createClient({ baseUrl: server.baseUrl });
    await expect(client.listDistributions()).resolves.toMatchObject({ response_type: "OK" });
    await expect(client.listOrders()).rejects.toThrow(RimuConfigError);
    await expect(client.listOrders()).rejects.toMatchObject({
      fieldName: "apiKey",
      code: "RIMU_ERR_CONFIG",
      message: expect.stringMatching(/GET \/orders needs an API key: pass apiKey to createClient\(\)/),
    });
    expect(server.requests).toHaveLength(1);
  });

  it("encodes filters as matrix parameters", async () => {
    const { server, client } = await setup(replyFor);
    await client.listOrders({
      includeInactive: true,
      serverType: "VPS",
      orderOids: [1, 2],
      search: "a;b=c/d",
      metaSearch: { [CREATION_TOKEN_KEY]: "tok-1", env: "prod" },
    });
    await client.listPricingPlans({ serverType: "VPS", dcLocation: "DCDALLAS", priceUnder: 40 });
    expect(server.requests[0]!.url).toBe(
      "/r/orders;include_inactive=Y;server_type=VPS;order_oids=1%2C2;search=a%3Bb%3Dc%2Fd" +
        ";meta_search=pulumi-rimuhosting%3Acreation-token%3Atok-1%20env%3Aprod",
    );
    expect(server.requests[1]!.url).toBe(
      "/r/pricing-plans;server-type=VPS;dc-location=DCDALLAS;price_under=40",
    );
  });

  it("sends JSON bodies in the contract's wrapper, with the creation token in meta_data", async () => {
    const { server, client } = await setup(replyFor);
    await client.createVps(
      {
        instantiation_options: { domain_name: "web1.example.com" },
        meta_data: [{ key_name: "env", value: "x" }],
      },
      { creationToken: "token-123" },
    );
    // A supplied token is looked up first (the listed order lacks it in meta_data, so it is not taken).
    expect(server.requests.map((r) => r.method)).toEqual(["GET", "POST"]);
    const req = server.requests[1]!;
    expect(req.method).toBe("POST");
    expect(req.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(req.body)).toEqual({
      new_order_request: {
        instantiation_options: { domain_name: "web1.example.com" },
        meta_data: [
          { key_name: "env", value: "x" },
          { key_name: CREATION_TOKEN_KEY, value: "token-123" },
        ],
      },
    });
  });

  it("sends R12 form-encoded with the ip as a matrix parameter", async () => {
    const { server, client } = await setup(replyFor);
    await client.setReverseDns(
      { orderOid: 42, domainName: "web1.example.com" },
      "10.1.2.3",
      "web1.example.com",
    );
    await client.setReverseDns(42, undefined, "");
    const [withIp, withoutIp] = server.requests;
    expect(withIp!.method).toBe("PUT");
    expect(withIp!.url).toBe("/r/orders/order-42-web1-example-com/ptr;ip=10.1.2.3");
    expect(withIp!.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(withIp!.body).toBe("domain_name=web1.example.com");
    expect(withoutIp!.url).toBe("/r/orders/order-42-x/ptr");
    expect(withoutIp!.body).toBe("domain_name=");
  });

  it("logs one line per attempt and per retry: method, path, status, attempt, ms", async () => {
    const { client } = await setup((url, i) => (i === 0 ? { status: 503, body: "" } : replyFor(url)), 1);
    await client.getOrder({ orderOid: 42, domainName: "web1.example.com" });
    expect(logs).toEqual([
      expect.stringMatching(/^GET \/orders\/order-42-web1-example-com 503 attempt 1\/2 \d+ms$/),
      expect.stringMatching(
        /^retry GET \/orders\/order-42-web1-example-com in \d+ms after 503 \(attempt 2\/2\)$/,
      ),
      expect.stringMatching(/^GET \/orders\/order-42-web1-example-com 200 attempt 2\/2 \d+ms$/),
    ]);
  });

  it("awaits beforeChange before each change (never before a read or the quote); its rejection sends nothing", async () => {
    server = await startTinyServer((req) => replyFor(req.url));
    let asked = 0;
    let stop = false;
    client = createClient({
      apiKey: API_KEY,
      baseUrl: server.baseUrl,
      beforeChange: async () => {
        asked++;
        if (stop) throw new RimuConfigError("the engine is gone");
      },
    });
    await client.listOrders();
    await client.quoteNewVm({
      instantiation_options: { domain_name: "web1.example.com", distro: "deb12.64" },
    });
    expect(asked).toBe(0);
    await client.setReverseDns(42, undefined, "web1.example.com");
    expect(asked).toBe(1);
    stop = true;
    await expect(client.setRunningState(42, "NOTRUNNING")).rejects.toThrow("the engine is gone");
    expect(server.requests.map((r) => `${r.method} ${r.url.split(";")[0]}`)).toEqual([
      "GET /r/orders",
      "PUT /r/pricing-plans/new-vm-pricing",
      "PUT /r/orders/order-42-x/ptr",
    ]);
  });

  it("the contract says which calls change something: none of the reads, not the quote (a PUT), all the others", () => {
    const changing = Object.entries(ENDPOINTS)
      .filter(([, endpoint]) => endpoint.mutates)
      .map(([name]) => name);
    expect(changing).toEqual([
      "cancelOrder",
      "createVps",
      "deleteVps",
      "moveVps",
      "changeParameters",
      "reinstallVps",
      "setRunningState",
      "setReverseDns",
    ]);
    for (const endpoint of Object.values(ENDPOINTS))
      if (endpoint.method === "GET") expect(endpoint.mutates).toBe(false);
  });

  it("reuses one keep-alive connection, and close() ends it", async () => {
    const { server, client } = await setup(replyFor);
    await client.listOrders();
    await client.getOrder(42);
    await client.listDistributions();
    expect(server.connections()).toBe(1);
    client.close();
    await expect(client.listOrders()).rejects.toThrow(/client is closed/);
  });
});

describe("client: unreadable responses", () => {
  it("names endpoint and field path for a 2xx with a bad shape, and does not retry it", async () => {
    const { server, client } = await setup(
      () => ({ body: okBody("get_order_response", { about_order: { ...order, order_oid: "42" } }) }),
      3,
    );
    const error = await rejectionOf(client.getOrder(42));
    expect(error).toBeInstanceOf(RimuResponseShapeError);
    expect(error).toMatchObject({
      code: "RIMU_ERR_RESPONSE_SHAPE",
      endpoint: "GET /orders/{order}",
      status: 200,
    });
    expect((error as Error).message).toContain("GET /orders/{order}");
    expect((error as Error).message).toContain("about_order.order_oid: expected number");
    expect(server.requests).toHaveLength(1);
    expectNoSecret(visibleText(error), API_KEY);
  });

  it("reports a body without the expected root key", async () => {
    const { client } = await setup(() => ({ body: { unexpected_root: {} } }));
    await expect(client.listOrders()).rejects.toThrow(
      /GET \/orders 200: the body lacks the root key "get_orders_response"/,
    );
  });

  it("turns an HTML 200 page into a response-shape error", async () => {
    const { client } = await setup(() => ({
      headers: { "content-type": "text/html" },
      body: "<html><head><title>Login</title></head></html>",
    }));
    await expect(client.listOrders()).rejects.toThrow(RimuResponseShapeError);
    await expect(client.listOrders()).rejects.toThrow(/non-JSON body \(text\/html: "Login"\)/);
  });

  it("turns a proxy's HTML 502 into a transient error, retrying it first", async () => {
    const html =
      "<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>";
    const { server, client } = await setup(
      () => ({ status: 502, headers: { "content-type": "text/html" }, body: html }),
      2,
    );
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(RimuTransientError);
    expect(error).toMatchObject({ status: 502, attempts: 3 });
    expect((error as Error).message).toBe(
      '[RIMU_ERR_TRANSIENT] GET /orders 502: HTTP 502 with a non-JSON body (text/html: "502 Bad Gateway")',
    );
    expect(server.requests).toHaveLength(3);
  });

  it("sizes a host-server move's timeout by the used disk", async () => {
    server = await startTinyServer(() => ({ hang: true }));
    client = createClient({
      apiKey: API_KEY,
      baseUrl: server.baseUrl,
      timeouts: { mutationMs: 50, movePerGbMs: 100 },
      retry: { limit: 0 },
    });
    const error = await rejectionOf(client.moveVps(42, {}, { usedDiskMb: 2048 }));
    expect(error).toBeInstanceOf(RimuTimeoutError);
    expect((error as Error).message).toBe(
      "[RIMU_ERR_TIMEOUT] PUT /orders/{order}/vps/host-server: no response within 250 ms " +
        "(timeouts.mutationMs + timeouts.movePerGbMs per GB of used disk); RimuHosting may still be making the change",
    );
  });

  it("times out a read that never answers, per timeouts.readMs", async () => {
    server = await startTinyServer(() => ({ hang: true }));
    client = createClient({
      apiKey: API_KEY,
      baseUrl: server.baseUrl,
      timeouts: { readMs: 100 },
      retry: { limit: 0 },
    });
    const error = await rejectionOf(client.listOrders());
    expect(error).toBeInstanceOf(RimuTimeoutError);
    expect((error as Error).message).toBe(
      "[RIMU_ERR_TIMEOUT] GET /orders: no response within 100 ms (timeouts.readMs)",
    );
    expect(error).toMatchObject({ noAnswer: true, waitedFor: "answer", timeoutKind: "read", timeoutMs: 100 });
    expectNoSecret(visibleText(error), API_KEY);
  });

  describe("an address whose listener never accepts (its accept queue is full)", () => {
    let listener: NeverAcceptingListener | undefined;
    afterEach(async () => listener?.close());

    it("a read times out waiting for the connection, and says nothing was sent", async () => {
      listener = await neverAcceptingListener();
      client = createClient({
        apiKey: API_KEY,
        baseUrl: listener.url,
        timeouts: { readMs: 300 },
        retry: { limit: 0 },
      });
      const error = await rejectionOf(client.listOrders(), RimuTimeoutError);
      expect(error.message).toBe(
        "[RIMU_ERR_TIMEOUT] GET /orders: no connection within 300 ms (timeouts.readMs); nothing was sent",
      );
      expect(error).toMatchObject({ noAnswer: true, waitedFor: "connection", timeoutKind: "read" });
    });

    it("a change that never connected does not say RimuHosting may still be making it", async () => {
      listener = await neverAcceptingListener();
      client = createClient({
        apiKey: API_KEY,
        baseUrl: listener.url,
        timeouts: { mutationMs: 300 },
        retry: { limit: 0 },
      });
      const error = await rejectionOf(client.setRunningState(42, "NOTRUNNING"), RimuTimeoutError);
      expect(error.message).toBe(
        "[RIMU_ERR_TIMEOUT] PUT /orders/{order}/vps/running-state: no connection within 300 ms " +
          "(timeouts.mutationMs); nothing was sent",
      );
    });
  });

  it("sends a read that got no answer at all again, unless retry.silentReads is false", async () => {
    server = await startTinyServer(() => ({ hang: true }));
    const retry = { limit: 2, baseDelayMs: 1, maxDelayMs: 1 };
    client = createClient({ apiKey: API_KEY, baseUrl: server.baseUrl, timeouts: { readMs: 100 }, retry });
    await rejectionOf(client.listOrders(), RimuTimeoutError);
    expect(server.requests).toHaveLength(3);
    client.close();
    client = createClient({
      apiKey: API_KEY,
      baseUrl: server.baseUrl,
      timeouts: { readMs: 100 },
      retry: { ...retry, silentReads: false },
    });
    expect(await rejectionOf(client.listOrders(), RimuTimeoutError)).toMatchObject({
      noAnswer: true,
      attempts: 1,
    });
    expect(server.requests).toHaveLength(4);
  });

  it("a timeout after the answer started is not a silent one", async () => {
    server = await startTinyServer(() => ({ headersOnly: true }));
    client = createClient({
      apiKey: API_KEY,
      baseUrl: server.baseUrl,
      timeouts: { readMs: 100 },
      retry: { limit: 0 },
    });
    expect(await rejectionOf(client.listOrders(), RimuTimeoutError)).toMatchObject({
      noAnswer: false,
      waitedFor: "rest of the answer",
    });
  });
});
