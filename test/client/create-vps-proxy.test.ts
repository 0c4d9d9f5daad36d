/**
 * createVps behind a proxy, over real HTTP against a tiny 127.0.0.1 server: the emulator's "status"
 * fault always answers with the service's JSON error envelope, but a real proxy's 502/503 is an HTML
 * page. Only the service's own 503 proves nothing was created; a proxy's page does not, so it is never
 * re-sent. Also: the failure classification itself, and the pre-flight lookup's meta_data check.
 */
import {
  CREATION_TOKEN_KEY,
  RimuResponseShapeError,
  RimuTimeoutError,
  RimuTransientError,
  RimuValidationError,
  classifyCreateFailure,
  createClient,
  isReconciled,
  type RimuClient,
} from "../../provider/client/index.js";
import { expectNoSecret, visibleText } from "./support/secrets.js";
import {
  okBody,
  startTinyServer,
  type SeenRequest,
  type TinyReply,
  type TinyServer,
} from "./support/tiny-server.js";

const API_KEY = "tiny-proxy-key-0000-SECRET";
const TOKEN = "proxy-token-1";

let server: TinyServer | undefined;
let client: RimuClient | undefined;
const logs: string[] = [];

afterEach(async () => {
  client?.close();
  await server?.close();
  expectNoSecret(logs, API_KEY);
  logs.length = 0;
  server = undefined;
  client = undefined;
});

async function setup(reply: (req: SeenRequest) => TinyReply) {
  server = await startTinyServer(reply);
  client = createClient({
    apiKey: API_KEY,
    baseUrl: server.baseUrl,
    retry: { limit: 3, baseDelayMs: 1, maxDelayMs: 5 },
    log: (line) => logs.push(line),
  });
  return { server, client };
}

const request = {
  instantiation_options: { domain_name: "web1.example.com", distro: "deb12.64" },
  dc_location: "DCDALLAS" as const,
};
const posts = () => server!.requests.filter((r) => r.method === "POST");
const lookups = () => server!.requests.filter((r) => r.method === "GET" && r.url.startsWith("/r/orders"));
const emptyList = (): TinyReply => ({ body: okBody("get_orders_response", { about_orders: [] }) });
const htmlPage = (status: number, title: string): TinyReply => ({
  status,
  headers: { "content-type": "text/html" },
  body: `<html><head><title>${status} ${title}</title></head><body><h1>${title}</h1>nginx</body></html>`,
});

describe("createVps behind a proxy (HTML error pages)", () => {
  it.each([
    [502, "Bad Gateway"],
    [503, "Service Unavailable"],
    [504, "Gateway Timeout"],
  ])(
    "an HTML %i is ambiguous: looked up, never sent again, error carries the token",
    async (status, title) => {
      await setup((req) => (req.method === "POST" ? htmlPage(status, title) : emptyList()));
      const error = await client!.createVps(request, { creationToken: TOKEN, lookupGraceMs: 50 }).then(
        () => undefined,
        (e: unknown) => e as RimuTransientError,
      );
      expect(error).toBeInstanceOf(RimuTransientError);
      expect(error?.status).toBe(status);
      expect(error?.errorClass).toBeUndefined();
      expect(error?.creationToken).toBe(TOKEN);
      expect(error?.orderMayExist).toBe(true);
      expect(error?.message).toContain(`HTTP ${status} with a non-JSON body`);
      expect(error?.message).toContain("so it was not sent again: the order may still appear");
      expectNoSecret(visibleText(error), API_KEY);
      expect(posts()).toHaveLength(1);
      expect(lookups().length).toBeGreaterThanOrEqual(2); // pre-flight + at least one lookup after
    },
  );

  it("an HTML 503, then the order shows up: returned (reconciled), still one POST", async () => {
    let posted = false;
    const made = {
      order_oid: 77,
      domain_name: "web1.example.com",
      slug: "order-77-web1-example-com",
      meta_data: [{ key_name: CREATION_TOKEN_KEY, value: TOKEN }],
    };
    await setup((req) => {
      if (req.method === "POST") {
        posted = true;
        return htmlPage(503, "Service Unavailable");
      }
      if (req.url.startsWith("/r/orders/order-77"))
        return req.url.endsWith("/vps")
          ? { status: 404, body: "" }
          : { body: okBody("get_order_response", { about_order: made }) };
      // The backend commits while the proxy reports failure: visible on the lookups after the POST.
      return posted ? { body: okBody("get_orders_response", { about_orders: [made] }) } : emptyList();
    });
    const res = await client!.createVps(request, { creationToken: TOKEN, lookupGraceMs: 50 });
    expect(isReconciled(res)).toBe(true);
    expect(res.about_order.order_oid).toBe(77);
    expect(posts()).toHaveLength(1);
  });

  it("pre-flight: an order whose meta_data lacks the token is not taken, even if the server lists it", async () => {
    const other = { order_oid: 5, domain_name: "other.example.com", slug: "order-5-other-example-com" };
    const made = { order_oid: 6, domain_name: "web1.example.com", slug: "order-6-web1-example-com" };
    await setup((req) =>
      req.method === "POST"
        ? { body: okBody("post_new_vps_response", { about_order: made }) }
        : { body: okBody("get_orders_response", { about_orders: [other] }) },
    );
    const res = await client!.createVps(request, { creationToken: TOKEN });
    expect(isReconciled(res)).toBe(false);
    expect(res.about_order.order_oid).toBe(6);
    expect(lookups()[0]!.url).toContain(";include_inactive=N;");
    expect(posts()).toHaveLength(1);
  });
});

describe("classifyCreateFailure", () => {
  const transient = (details: ConstructorParameters<typeof RimuTransientError>[1]) =>
    new RimuTransientError("x", details);

  it("re-sends only when the service certainly did nothing", () => {
    expect(classifyCreateFailure(transient({ networkCode: "ECONNREFUSED" }))).toBe("not-created");
    expect(classifyCreateFailure(transient({ status: 429 }))).toBe("not-created");
    expect(classifyCreateFailure(transient({ status: 503, errorClass: "ServiceUnavailable" }))).toBe(
      "not-created",
    );
  });

  it("treats everything else that is transient as ambiguous (look up, never re-send)", () => {
    expect(classifyCreateFailure(transient({ networkCode: "ECONNRESET" }))).toBe("ambiguous");
    expect(classifyCreateFailure(transient({ networkCode: "EPIPE" }))).toBe("ambiguous");
    expect(classifyCreateFailure(transient({ status: 503 }))).toBe("ambiguous"); // proxy page, no envelope
    expect(classifyCreateFailure(transient({ status: 502, errorClass: "ServiceUnavailable" }))).toBe(
      "ambiguous",
    );
    expect(classifyCreateFailure(transient({ status: 500, errorClass: "InternalError" }))).toBe("ambiguous");
    expect(classifyCreateFailure(transient({ status: 504 }))).toBe("ambiguous");
    expect(classifyCreateFailure(new RimuTimeoutError("x", { networkCode: "ETIMEDOUT" }))).toBe("ambiguous");
    expect(classifyCreateFailure(new RimuResponseShapeError("x", { status: 200 }))).toBe("ambiguous");
  });

  it("throws definite answers as they are", () => {
    expect(classifyCreateFailure(new RimuValidationError("x", { status: 400 }))).toBe("definite");
  });
});
