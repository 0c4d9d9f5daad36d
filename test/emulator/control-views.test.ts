/**
 * What the dashboard reads (emulator/dashboard/sources.ts), over real HTTP on 127.0.0.1: the accounts' monthly
 * totals, the hosts' room, the snapshot's and the request log's fields, the faults' uses left, and the dashboard's
 * own files, served only with `control` and allowed to load nothing from elsewhere. The page in a browser:
 * dashboard-browser.test.ts.
 */
import { bannerLines } from "../../emulator/cli.js";
import { DEMO_ACCOUNTS } from "../../emulator/index.js";
import { DASHBOARD_SOURCES } from "../../emulator/dashboard/sources.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { createVps, orderPath, record } from "./fixtures.js";

const alice = DEMO_ACCOUNTS.find((account) => account.name === "alice")!.apiKey;

describe("the dashboard's sources", () => {
  let emu: TestEmulator;
  afterEach(async () => {
    await emu?.close();
  });

  const control = async <T = Record<string, unknown>>(path: string, init?: RequestInit) => {
    const res = await fetch(emu.baseUrl.replace(/\/r$/, `/__emulator${path}`), init);
    return {
      status: res.status,
      headers: res.headers,
      text: await res.clone().text(),
      json: () => res.json() as T,
    };
  };

  test("accounts: each account's billed orders and monthly total, which a delete lowers and R3 does not", async () => {
    emu = await startTestEmulator({ control: true });
    const small = await createVps(emu, {}, { domain: "a.example.com" });
    const big = await createVps(emu, { vps_parameters: { memory_mb: 4096 } }, { domain: "b.example.com" });
    await createVps(emu, {}, { domain: "c.example.com", apiKey: alice });
    const fee = (response: typeof small) => response.about_order.billing_info!.monthly_recurring_fee!;
    type Accounts = { accounts: { name: string; activeOrders: number; monthlyTotalUsd: number }[] };
    const totals = async () =>
      Object.fromEntries(
        (await (await control<Accounts>("/accounts")).json()).accounts.map((a) => [
          a.name,
          [a.activeOrders, a.monthlyTotalUsd],
        ]),
      );

    expect(await totals()).toEqual({
      demo: [2, Math.round((fee(small) + fee(big)) * 100) / 100],
      alice: [1, expect.any(Number)],
      bob: [0, 0],
    });
    // Cancelled at the end of its billing period: still billed until then.
    const smallOrder = small.about_order;
    expect((await emu.api("PUT", orderPath(smallOrder, "/cancelled"))).status).toBe(200);
    expect((await totals()).demo).toEqual([2, Math.round((fee(small) + fee(big)) * 100) / 100]);
    expect((await emu.api("DELETE", orderPath(big.about_order, "/vps"))).status).toBe(200);
    expect((await totals()).demo).toEqual([1, fee(small)]);
    const body = await (await control("/accounts")).json();
    expect(JSON.stringify(body)).not.toContain(DEMO_ACCOUNTS[0]!.apiKey);
  });

  test("hosts: each host's room, as R5 reports it for the host of an order", async () => {
    emu = await startTestEmulator({ control: true });
    const created = await createVps(
      emu,
      { vps_parameters: { memory_mb: 2048 } },
      { domain: "room.example.com" },
    );
    const order = created.about_order;
    const vps = record<{ host_server_info: Record<string, number> }>(
      (await emu.api("GET", orderPath(order, "/vps"))).body,
    );
    type Hosts = {
      hosts: { oid: string; memFreeMb: number; diskFreeGb: number; vpss: number; runningVpss: number }[];
    };
    const hosts = (await (await control<Hosts>("/hosts")).json()).hosts;
    const host = hosts.find((h) => h.oid === order.host_server_oid)!;
    expect(host).toMatchObject({
      memFreeMb: vps.host_server_info.host_mem_mb_free,
      diskFreeGb: vps.host_server_info.host_disk_gb_free,
      vpss: 1,
      runningVpss: 1,
    });
    expect(hosts.filter((h) => h.vpss > 0)).toHaveLength(1);
  });

  test("snapshot: plan, data centre, host, IPs, cancellation date and whether the order is active", async () => {
    emu = await startTestEmulator({ control: true });
    const created = await createVps(emu, { dc_location: "DCLONDON" }, { domain: "snap.example.com" });
    const order = created.about_order;
    expect((await emu.api("PUT", orderPath(order, "/cancelled"))).status).toBe(200);
    const [snapshot] = (await (await control<{ orders: Record<string, unknown>[] }>("/snapshot")).json())
      .orders;
    expect(snapshot).toMatchObject({
      domainName: "snap.example.com",
      planCode: "MIRO1B", // the default plan
      dc: "DCLONDON",
      hostOid: order.host_server_oid,
      ips: [order.allocated_ips!.primary_ip],
      cancelled: true,
      active: true,
    });
    expect(Date.parse(snapshot!.cancellationDate as string)).toBeGreaterThan(Date.now());
    // Deleted: cancelled now, and no longer active.
    const gone = (await createVps(emu, {}, { domain: "gone.example.com" })).about_order;
    expect((await emu.api("DELETE", orderPath(gone, "/vps"))).status).toBe(200);
    const orders = (await (await control<{ orders: Record<string, unknown>[] }>("/snapshot")).json()).orders;
    expect(orders.map((o) => [o.domainName, o.active])).toEqual([
      ["snap.example.com", true],
      ["gone.example.com", false],
    ]);
  });

  test("requests: time and user agent of each, the last N with ?last=N, and a bad N refused by name", async () => {
    emu = await startTestEmulator({ control: true });
    for (const agent of ["one/1", "two/2", "three/3"])
      await emu.api("GET", "/distributions", undefined, { apiKey: null, headers: { "user-agent": agent } });
    type Requests = { requests: { userAgent?: string; time: string }[]; total: number };
    const all = await (await control<Requests>("/requests")).json();
    expect(all.requests.map((r) => r.userAgent)).toEqual(["one/1", "two/2", "three/3"]);
    for (const r of all.requests) expect(Math.abs(Date.parse(r.time) - Date.now())).toBeLessThan(60_000);
    const last = await (await control<Requests>("/requests?last=2")).json();
    expect([last.requests.map((r) => r.userAgent), last.total]).toEqual([["two/2", "three/3"], 3]);
    const bad = await control("/requests?last=0");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("last must be a whole number of requests, 1 or more, not '0'");
  });

  test("faults: each armed one with the uses it has left", async () => {
    emu = await startTestEmulator({ control: true });
    emu.injectFault({ route: "listOrders", kind: "status", status: 503, times: 2 });
    expect((await emu.api("GET", "/orders")).status).toBe(503);
    expect((await (await control("/faults")).json()).armed).toEqual([
      { route: "listOrders", kind: "status", status: 503, times: 1 },
    ]);
  });

  test("the page, its script, style sheet and icon: served with control only, loading nothing from elsewhere", async () => {
    emu = await startTestEmulator();
    expect((await control("/")).status).toBe(404);
    await emu.close();
    emu = await startTestEmulator({ control: true });
    const types = { "/": "text/html", "/dashboard.js": "text/javascript", "/dashboard.css": "text/css" };
    for (const [path, type] of Object.entries({ ...types, "/favicon.svg": "image/svg+xml" })) {
      const res = await control(path);
      expect([path, res.status, res.headers.get("content-type")?.split(";")[0]]).toEqual([path, 200, type]);
      expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
      // No address of another origin to load from: src=, href= or url() with a scheme or a leading //.
      expect(res.text).not.toMatch(/(src|href|url)\s*[=(]\s*["']?([a-z]+:)?\/\//i);
    }
    // Also without the trailing slash, the address a user types.
    expect((await fetch(emu.baseUrl.replace(/\/r$/, "/__emulator"))).status).toBe(200);
    const script = (await control("/dashboard.js")).text;
    for (const source of Object.values(DASHBOARD_SOURCES)) {
      expect(script).toContain(JSON.stringify(source));
      expect([source, (await control(source.replace("/__emulator", ""))).status]).toEqual([source, 200]);
    }
    // The page's own requests are not in the request log it shows.
    expect(emu.requestLog()).toEqual([]);
  });

  test("the command's banner gives the dashboard's address with --control, and only then", () => {
    expect(bannerLines("http://127.0.0.1:8780/r", 1, true).at(-1)).toBe(
      "Dashboard: http://127.0.0.1:8780/__emulator/",
    );
    expect(bannerLines("http://127.0.0.1:8780/r", 1, false).join("\n")).not.toContain("__emulator");
  });
});
