/**
 * L1: the parts a preview is built from. Diagnostics reach the engine's Log RPC with the resource's URN (a real
 * gRPC server stands for the engine); a check failure is one coded line naming the input; money is written in
 * its own currency; a failed read fails the preview or skips a check by the rule of read-failures.ts; the URN
 * the Vps class computes is the one the SDK registers (under Pulumi's mocks); the run's shared reads are made
 * once and kept (the emulator's request log).
 */
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as pulumi from "@pulumi/pulumi";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import {
  RimuAuthError,
  RimuConflictError,
  RimuTimeoutError,
  RimuTransientError,
} from "../../../provider/client/index";
import { AccountView, LISTING_MAX_AGE_MS } from "../../../provider/impl/account/account-view";
import { connectEngineLog } from "../../../provider/impl/engine/engine-log";
import { formatMoney, amountMoney } from "../../../provider/impl/budget/money";
import { readFailure } from "../../../provider/impl/account/read-failures";
import { presentFailure } from "../../../provider/impl/vps-provider";
import { expectedUrn } from "../../../provider/resource-urn";
import { useImplFixture } from "../support/impl-fixture";
import { GateClock } from "../../helpers/gate-clock";
import { until } from "../../helpers/promises";

describe("engine log", () => {
  it("sends each diagnostic to the engine's Log RPC with the resource's URN and its severity", async () => {
    const received: { severity: number; message: string; urn: string }[] = [];
    const server = new grpc.Server();
    server.addService(engrpc.EngineService, {
      log(call: grpc.ServerUnaryCall<never, never>, cb: grpc.sendUnaryData<Empty>) {
        const r = call.request as unknown as {
          getSeverity(): number;
          getMessage(): string;
          getUrn(): string;
        };
        received.push({ severity: r.getSeverity(), message: r.getMessage(), urn: r.getUrn() });
        cb(null, new Empty());
      },
    } as unknown as engrpc.IEngineServer);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    try {
      const log = connectEngineLog(`127.0.0.1:${port}`, `${__dirname}/`)!;
      const urn = "urn:pulumi:dev::shop::pulumi-nodejs:dynamic/rimuhosting:Vps::web";
      expect(await log(urn, "warning", "web: resizing memoryMb restarts the VPS.")).toBe(true);
      expect(await log(urn, "info", "web: new VPS: $10.00 a month (quoted by RimuHosting).")).toBe(true);
      expect(received).toEqual([
        { severity: 2, message: "web: resizing memoryMb restarts the VPS.", urn },
        { severity: 1, message: "web: new VPS: $10.00 a month (quoted by RimuHosting).", urn },
      ]);
    } finally {
      server.forceShutdown();
    }
    // No engine there any more: not delivered (the caller then prints the line at the stack level).
    const gone = connectEngineLog(`127.0.0.1:${port}`, `${__dirname}/`)!;
    expect(await gone("urn:pulumi:dev::shop::x::y", "warning", "lost")).toBe(false);
  });
});

describe("a check failure as the user sees it", () => {
  it("is one line: the code, the input, the reason, and no property (the engine then prints no value)", () => {
    expect(presentFailure({ property: "memoryMb", reason: "must be at least 128 MB (given: 100)" })).toEqual({
      property: "",
      reason: "[RIMU_ERR_VALIDATION] memoryMb: must be at least 128 MB (given: 100).",
    });
    expect(
      presentFailure({ property: "memorymb", reason: "is not an input of Vps; did you mean memoryMb?" })
        .reason,
    ).toBe("[RIMU_ERR_VALIDATION] memorymb: is not an input of Vps; did you mean memoryMb?");
    // Codes other than validation carry their advice.
    expect(
      presentFailure({
        property: "rimuhosting:apiKey",
        reason: "RimuHosting refused the API key",
        code: "RIMU_ERR_AUTH",
      }).reason,
    ).toMatch(
      /^\[RIMU_ERR_AUTH\] rimuhosting:apiKey: RimuHosting refused the API key\. The API key is missing, wrong/,
    );
  });
});

describe("money", () => {
  it("is written in its own currency, never every currency as $", () => {
    expect(formatMoney({ amount: 9.5, currency: "USD" })).toBe("$9.50");
    expect(formatMoney({ amount: 9.5, currency: "NZD" })).toBe("NZ$9.50");
    expect(formatMoney({ amount: 9.5, currency: "EUR" })).toBe("€9.50");
    expect(formatMoney({ amount: -1.2, currency: "USD" })).toBe("-$1.20");
    expect(amountMoney({ amt: 15, currency: "CUR_NZD" })).toEqual({ amount: 15, currency: "NZD" });
    expect(amountMoney({ amt: 15, amt_usd: 9.1, currency: "CUR_NZD" })).toEqual({
      amount: 9.1,
      currency: "USD",
    });
  });
});

describe("a failed read in a preview", () => {
  const baseUrl = "http://127.0.0.1:1";
  it("a wrong key fails it, naming rimuhosting:apiKey and the URL tried", () => {
    const failure = readFailure(
      new RimuAuthError("denied", { status: 403, endpoint: "GET /orders" }),
      baseUrl,
    );
    expect(failure).toMatchObject({ kind: "settings" });
    expect(failure.kind === "settings" && failure.error.message).toMatch(
      /^\[RIMU_ERR_AUTH\] rimuhosting:apiKey: RimuHosting refused the API key \(403 from GET http:\/\/127\.0\.0\.1:1\/r\/orders\)/,
    );
  });

  it("an address where nothing answers fails it, naming rimuhosting:baseUrl (not 'temporary')", () => {
    const refused = new RimuTransientError("refused", {
      networkCode: "ECONNREFUSED",
      endpoint: "GET /orders",
    });
    const failure = readFailure(refused, baseUrl);
    expect(failure.kind === "settings" && failure.error.message).toMatch(
      /^\[RIMU_ERR_CONFIG\] rimuhosting:baseUrl: nothing answers at http:\/\/127\.0\.0\.1:1\/r \(connection refused\); tried GET http:\/\/127\.0\.0\.1:1\/r\/orders/,
    );
  });

  it("an address that accepts connections and answers nothing fails it, naming rimuhosting:baseUrl", () => {
    const silent = new RimuTimeoutError("GET /orders: no response within 30000 ms (timeouts.readMs)", {
      endpoint: "GET /orders",
      noAnswer: true,
      waitedFor: "answer",
      timeoutKind: "read",
      timeoutMs: 30_000,
    });
    const failure = readFailure(silent, baseUrl);
    expect(failure.kind === "settings" && failure.error.message).toMatch(
      /^\[RIMU_ERR_TIMEOUT\] rimuhosting:baseUrl: nothing answered at http:\/\/127\.0\.0\.1:1\/r within 30 s \(the read timeout, RIMUHOSTING_READ_TIMEOUT_MS\): GET http:\/\/127\.0\.0\.1:1\/r\/orders got not even the start of an answer\. Nothing was changed/,
    );
    expect(failure.kind === "settings" && failure.error.message).not.toMatch(/may still be|Vps `?timeouts/);
  });

  it("an address that never takes the connection fails it, saying nothing was sent and naming the read timeout", () => {
    const dropped = new RimuTimeoutError(
      "GET /orders: no connection within 30000 ms (timeouts.readMs); nothing was sent",
      {
        endpoint: "GET /orders",
        noAnswer: true,
        waitedFor: "connection",
        timeoutKind: "read",
        timeoutMs: 30_000,
      },
    );
    const failure = readFailure(dropped, baseUrl);
    const message = failure.kind === "settings" ? failure.error.message : "";
    expect(message).toMatch(
      /^\[RIMU_ERR_TIMEOUT\] rimuhosting:baseUrl: nothing at http:\/\/127\.0\.0\.1:1\/r took the connection within 30 s \(the read timeout, RIMUHOSTING_READ_TIMEOUT_MS\), so GET http:\/\/127\.0\.0\.1:1\/r\/orders could not be sent\. Nothing was changed/,
    );
    expect(message).not.toMatch(/accepted|was sent|may still be|Vps `?timeouts/);
  });

  it("only a 5xx, a timeout after the answer started or a dropped connection skips the check", () => {
    for (const error of [
      new RimuTransientError("busy", { status: 503, endpoint: "GET /orders" }),
      new RimuTimeoutError("slow", { endpoint: "GET /orders" }),
      new RimuTransientError("reset", { networkCode: "ECONNRESET", endpoint: "GET /orders" }),
    ])
      expect(readFailure(error, baseUrl).kind).toBe("temporary");
    expect(readFailure(new RimuConflictError("no room"), baseUrl).kind).toBe("refused");
  });
});

describe("the URN the Vps class passes in previews", () => {
  beforeAll(async () => {
    await pulumi.runtime.setMocks(
      { newResource: (args) => ({ id: `${args.name}-id`, state: {} }), call: () => ({}) },
      "shop",
      "prod",
      true,
    );
  });

  it("is the URN the resource is registered with, at the top level and under a component", async () => {
    class Group extends pulumi.ComponentResource {
      constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
        super("test:index:Group", name, {}, opts);
      }
    }
    class Thing extends pulumi.CustomResource {
      constructor(name: string, opts?: pulumi.CustomResourceOptions) {
        super("test:index:Thing", name, {}, opts);
      }
    }
    const outer = new Group("outer");
    for (const [name, parent] of [
      ["top", undefined],
      ["child", outer],
    ] as const) {
      const resource = new Thing(name, { parent });
      const urn = await new Promise<string>((resolve) => resource.urn.apply(resolve));
      expect(expectedUrn(name, "test:index:Thing", parent)).toBe(urn);
    }
    // Deeper, the engine prefixes the parent's whole type chain (deployment.go, generateURN; Pulumi's mocks
    // prefix only the parent's own type, so they cannot check this one).
    const inner = new Group("inner", { parent: outer });
    expect(expectedUrn("grandchild", "test:index:Thing", inner)).toBe(
      "urn:pulumi:prod::shop::test:index:Group$test:index:Group$test:index:Thing::grandchild",
    );
  });
});

describe("the run's shared reads", () => {
  const fixture = useImplFixture();
  const calls = (route: string) =>
    fixture()
      .emulator.requestLog()
      .filter((entry) => entry.route === route).length;

  it("are read once and kept until they are LISTING_MAX_AGE_MS old; an order placed is added without a read", async () => {
    let now = 1_000_000;
    const view = new AccountView(fixture().byHand, () => now);
    await Promise.all([
      view.activeOrders(),
      view.activeOrders(),
      view.billingMethods(),
      view.billingMethods(),
    ]);
    const request = { dc_location: "DCDALLAS" as const, vps_parameters: { memory_mb: 2048 } };
    await view.quote(request);
    await view.quote({ vps_parameters: { memory_mb: 2048 }, dc_location: "DCDALLAS" }); // the same, keys in another order
    expect([calls("listOrders"), calls("listBillingMethods"), calls("quoteNewVm")]).toEqual([1, 1, 1]);

    const placed = (
      await fixture().byHand.createVps({ instantiation_options: { domain_name: "x.example.com" } })
    ).about_order;
    view.notePlaced(placed);
    expect((await view.activeOrders()).map((o) => o.order_oid)).toEqual([placed.order_oid]);
    expect(calls("listOrders")).toBe(1);

    now += LISTING_MAX_AGE_MS;
    await view.activeOrders();
    expect(calls("listOrders")).toBe(2);
  });
});

describe("a look-up's listing (listedOrder, what update() and read() start from)", () => {
  const clock = new GateClock({ gated: ["sleep"] });
  const fixture = useImplFixture({ clock });
  const listings = () =>
    fixture()
      .emulator.requestLog()
      .filter((entry) => entry.route === "listOrders").length;

  it("is the look-ups' own while it is read: a check asking for the account meanwhile is not held by it", async () => {
    let now = 1_000_000;
    const view = new AccountView(fixture().byHand, () => now);
    const { order_oid: oid } = (
      await fixture().byHand.createVps({ instantiation_options: { domain_name: "x.example.com" } })
    ).about_order;
    const checked = await view.activeOrders(); // a check's, read before the run's first look-up
    now += 1;
    fixture().emulator.injectFault({ route: "listOrders", kind: "delay", delayMs: 5_000 });
    const lookedUp = view.listedOrder(oid);
    const held = await clock.nextWait(lookedUp);
    // The look-up's listing is held at the emulator: a check's read is answered from the kept listing meanwhile.
    let answered: readonly unknown[] | undefined;
    void view.activeOrders().then((orders) => (answered = orders));
    await until(
      "a check's read of the account while a look-up's listing is held",
      () => answered !== undefined,
      {
        timeoutMs: 5_000,
      },
    ).finally(() => held.open());
    expect(answered).toBe(checked);
    expect((await lookedUp)?.order_oid).toBe(oid);
    // The look-up of another order shares the look-ups' listing: two listings in all.
    const { order_oid: other } = (
      await fixture().byHand.createVps({ instantiation_options: { domain_name: "y.example.com" } })
    ).about_order;
    expect(await view.listedOrder(other)).toBeUndefined(); // placed after that listing was read
    expect(listings()).toBe(2);
  });

  it("answers each order once: a second look-up sees what was changed by hand since the first", async () => {
    const view = new AccountView(fixture().byHand);
    const [a, b, c] = await Promise.all(
      ["a", "b", "c"].map(
        async (name) =>
          (
            await fixture().byHand.createVps({
              instantiation_options: { domain_name: `${name}.example.com` },
            })
          ).about_order.order_oid,
      ),
    );
    const before = listings();
    // One operation's look-ups (a refresh's Reads, in waves of --parallel): one listing, however they arrive.
    for (const oid of [a!, b!, c!]) {
      const listed = await view.listedOrder(oid);
      expect(listed?.order_oid).toBe(oid);
      expect(listed?.running_state).not.toBe("NOTRUNNING");
    }
    expect(listings()).toBe(before + 1);
    // The next operation on a (the user's next command, served by this view as the tests serve it): stopped by hand.
    await fixture().byHand.setRunningState(a!, "NOTRUNNING");
    expect((await view.listedOrder(a!))?.running_state).toBe("NOTRUNNING");
    expect(listings()).toBe(before + 2);
    // c changed after that listing was read, by this run (noteChanged): its look-up is from a listing read after it.
    await fixture().byHand.setRunningState(c!, "NOTRUNNING");
    view.noteChanged(c!);
    expect((await view.listedOrder(c!))?.running_state).toBe("NOTRUNNING");
    expect(listings()).toBe(before + 3);
  });
});
