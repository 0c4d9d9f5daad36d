/**
 * The R1 listing is served from cached bytes while nothing changes. These tests prove the cached
 * bytes are byte-identical to a fresh render (JSON.stringify of the whole record, built here without
 * any cache) after every kind of change, and that an order passing its cancellation date drops out
 * with no request in between.
 */
import { type AboutOrder, ENDPOINTS } from "../../contract/index.js";
import { DEMO_ACCOUNTS } from "../../emulator/index.js";
import type { Clock } from "../../emulator/clock.js";
import { parseListingFilter, selectOrders } from "../../emulator/domain/listing.js";
import { toAboutOrder } from "../../emulator/wire/records.js";
import { rewriteMatrixUrl, matrixOf } from "../../emulator/http/matrix-url.js";
import { okEnvelope } from "../../emulator/wire/envelope.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { createVps, orderPath } from "./fixtures.js";

const DAY = 86_400_000;

describe("listing cache", () => {
  let nowMs = Date.UTC(2026, 10, 1, 12, 0, 0);
  const clock: Clock = {
    now: () => nowMs,
    work: async () => undefined,
    sleep: async () => undefined,
    dispose: () => undefined,
  };
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ clock });
  });
  afterAll(async () => {
    await emu.close();
  });

  /** The listing's bytes as the API sends them. */
  async function served(path: string): Promise<string> {
    const res = await fetch(emu.baseUrl + path, {
      headers: { authorization: `rimuhosting apikey=${DEMO_ACCOUNTS[0]!.apiKey}` },
    });
    expect(res.status).toBe(200);
    return res.text();
  }

  /** The same listing rendered from scratch: no cache, plain JSON.stringify of the whole record. */
  function fresh(path: string): string {
    const req = { url: `/r${path}` } as Parameters<typeof rewriteMatrixUrl>[0];
    rewriteMatrixUrl(req);
    const filter = parseListingFilter(matrixOf(req));
    const ctx = emu.app.emulator.ctx;
    const { orders } = selectOrders(ctx, DEMO_ACCOUNTS[0]!, filter);
    return JSON.stringify({
      [ENDPOINTS.listOrders.rootKey]: {
        ...okEnvelope(ctx.clock.now(), `Found ${orders.length} orders`),
        about_orders: orders.map(toAboutOrder),
        order_filter: filter.echo,
      },
    });
  }

  const PATHS = ["/orders", "/orders;include_inactive=Y", "/orders;search=cache-1"];

  async function expectCurrent(): Promise<string[]> {
    const bodies: string[] = [];
    for (const path of PATHS) {
      const first = await served(path);
      const second = await served(path); // from the cache: nothing changed in between
      expect(second).toBe(first);
      expect(first).toBe(fresh(path));
      bodies.push(first);
    }
    // One order (R2) is rendered from the same cached order JSON.
    for (const order of emu.app.emulator.ctx.store.state.orders.slice(0, 3)) {
      const one = await served(`/orders/order-${order.orderOid}-x`);
      expect(one).toBe(
        JSON.stringify({
          [ENDPOINTS.getOrder.rootKey]: {
            ...okEnvelope(nowMs, `Information about ${order.domainName}`),
            about_order: toAboutOrder(order),
          },
        }),
      );
    }
    return bodies;
  }

  test("unchanged listings are byte-identical to a fresh render; every change shows at once", async () => {
    const orders: AboutOrder[] = [];
    for (let i = 0; i < 4; i++) {
      orders.push((await createVps(emu, {}, { domain: `cache-${i}.example.com` })).about_order);
    }
    let before = await expectCurrent();
    const changes: [string, () => Promise<unknown>][] = [
      ["create", () => createVps(emu, {}, { domain: "cache-new.example.com" })],
      [
        "power off",
        () => emu.api("PUT", orderPath(orders[0]!, "/vps/running-state"), { running_state: "NOTRUNNING" }),
      ],
      [
        "power on",
        () => emu.api("PUT", orderPath(orders[0]!, "/vps/running-state"), { running_state: "RUNNING" }),
      ],
      ["resize", () => emu.api("PUT", orderPath(orders[1]!, "/vps/parameters"), { memory_mb: 2048 })],
      ["move", () => emu.api("PUT", orderPath(orders[2]!, "/vps/host-server"), {})],
      [
        "reinstall",
        () =>
          emu.api("PUT", orderPath(orders[2]!, "/vps/reinstall"), {
            instantiation_options: { distro: "ubuntu2404.64" },
          }),
      ],
      ["cancel at period end", () => emu.api("PUT", orderPath(orders[3]!, "/cancelled"))],
      ["delete", () => emu.api("DELETE", orderPath(orders[1]!, "/vps"))],
    ];
    for (const [name, change] of changes) {
      const res = (await change()) as { status?: number };
      if (res.status !== undefined) expect([name, res.status]).toEqual([name, 200]);
      const after = await expectCurrent();
      expect([name, after[1] === before[1]]).toEqual([name, false]);
      before = after;
    }
  });

  test("an order passing its cancellation date leaves the active listing with no request in between", async () => {
    const order = (await createVps(emu, {}, { domain: "cache-expiring.example.com" })).about_order;
    expect((await emu.api("PUT", orderPath(order, "/cancelled"))).status).toBe(200);
    const listed = async () =>
      (await served("/orders")).includes('"domain_name":"cache-expiring.example.com"');
    expect(await listed()).toBe(true);
    expect(await listed()).toBe(true); // cached
    nowMs += 31 * DAY;
    expect(await listed()).toBe(false);
    await expectCurrent();
  });

  test("a new envelope time is rendered on every request, around the cached orders", async () => {
    const first = await served("/orders");
    nowMs += 1_000;
    const second = await served("/orders");
    expect(second).not.toBe(first);
    expect(second).toBe(fresh("/orders"));
  });
});
