/**
 * The dashboard at /__emulator/ in a real browser: headless Chromium (Debian's package, scripts/chromium.sh) over the
 * DevTools protocol, one launch for the file. The page loads; orders created through the API, a scheduled
 * cancellation, armed faults and a chaos rule appear on it at its next refresh, without a reload; the requests' filters work; on
 * a phone's screen (390×844) nothing is off-screen, the page never scrolls sideways and each table that is too wide
 * scrolls inside its own panel, one line a row; and the page fetches nothing but the emulator's own URLs. Screenshots are kept in test-artifacts/dashboard/ (ignored by
 * git; the path is printed). Without a chromium the file is skipped, the reason in its name; with CI=true it fails.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEMO_ACCOUNTS } from "../../emulator/index";
import { type Browser, findChromium, launchChromium, type Page } from "../helpers/chromium";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { until } from "../helpers/promises";

jest.setTimeout(60_000);

const ARTIFACTS = resolve(__dirname, "../../test-artifacts/dashboard");
const chromium = findChromium();
if (!chromium && process.env.CI === "true")
  throw new Error(
    "the dashboard's browser test must run here, but there is no chromium: run scripts/chromium.sh",
  );
const describeWithChromium = chromium
  ? describe
  : // Skipped only without a browser; the reason is in the name.
    (title: string, body: () => void) => describe.skip(`${title} (skipped: no chromium on PATH)`, body);

const keyOf = (name: string) => DEMO_ACCOUNTS.find((account) => account.name === name)!.apiKey;

/** The text of the page's elements matching each selector, keyed as given. */
function textsOf(page: Page, selectors: Record<string, string>): Promise<Record<string, string>> {
  return page.evaluate(
    `Object.fromEntries(Object.entries(${JSON.stringify(selectors)}).map(([k, s]) => [k, document.querySelector(s)?.innerText ?? ""]))`,
  );
}

/**
 * Waits (at most 15 s, scaled) until `ready` holds for the page's texts; the page refreshes itself every second. A
 * failure names what the page last showed.
 */
async function waitForTexts(
  page: Page,
  selectors: Record<string, string>,
  ready: (texts: Record<string, string>) => boolean,
): Promise<Record<string, string>> {
  let texts: Record<string, string> = {};
  const shown = async () => ready((texts = await textsOf(page, selectors)));
  try {
    await until("the page to show what was expected", shown, { timeoutMs: 15_000, intervalMs: 100 });
  } catch (error) {
    throw new Error(`${(error as Error).message}; it showed: ${JSON.stringify(texts)}`, { cause: error });
  }
  return texts;
}

/** A PNG of the whole page into ARTIFACTS; `width`, when given, is the width the page must have (no sideways scroll). */
async function screenshot(page: Page, name: string, width?: number): Promise<void> {
  const { cssContentSize } = await page.send<{ cssContentSize: { width: number; height: number } }>(
    "Page.getLayoutMetrics",
  );
  if (width !== undefined) expect(cssContentSize.width).toBeLessThanOrEqual(width);
  const clip = { x: 0, y: 0, width: cssContentSize.width, height: cssContentSize.height, scale: 1 };
  const { data } = await page.send<{ data: string }>("Page.captureScreenshot", {
    format: "png",
    captureBeyondViewport: true,
    clip,
  });
  const png = Buffer.from(data, "base64");
  // A PNG of the whole page: its header's width and height (IHDR, bytes 16-23) are the page's, to the pixel.
  expect(png.subarray(1, 4).toString()).toBe("PNG");
  expect(Math.abs(png.readUInt32BE(16) - clip.width)).toBeLessThan(1);
  expect(Math.abs(png.readUInt32BE(20) - clip.height)).toBeLessThan(1);
  writeFileSync(join(ARTIFACTS, name), png);
}

interface PhoneLayout {
  pageWidth: number;
  /** The panels (sections) reaching past the screen's left or right edge, by id. */
  offScreen: string[];
  /** Each table: whether it fits its box, whether that box scrolls sideways, the box's and its panel's right edges. */
  tables: { fits: boolean; scrolls: boolean; boxRight: number; panelRight: number }[];
  orderRowHeights: number[];
}

/** What PhoneLayout holds, measured in the page. */
const PHONE_LAYOUT = `(() => {
  const screen = document.documentElement.clientWidth;
  const sections = [...document.querySelectorAll("main section")];
  return {
    pageWidth: document.documentElement.scrollWidth,
    offScreen: sections
      .filter((s) => { const r = s.getBoundingClientRect(); return r.left < 0 || r.right > screen; })
      .map((s) => s.id),
    tables: [...document.querySelectorAll("main table")].map((table) => {
      const box = table.parentElement;
      const overflow = getComputedStyle(box).overflowX;
      return {
        fits: table.getBoundingClientRect().width <= box.clientWidth + 0.5,
        scrolls: overflow === "auto" || overflow === "scroll",
        boxRight: box.getBoundingClientRect().right,
        panelRight: table.closest("section").getBoundingClientRect().right,
      };
    }),
    orderRowHeights: [...document.querySelectorAll("#account-list tbody tr")].map((row) => row.getBoundingClientRect().height),
  };
})()`;

/** Types `value` into the requests' filter `name`, as a user does (an input event). */
function setFilter(page: Page, name: string, value: string): Promise<unknown> {
  return page.evaluate(
    `(() => { const field = document.getElementById("request-filters").elements[${JSON.stringify(name)}];
      field.value = ${JSON.stringify(value)}; field.dispatchEvent(new Event("input", { bubbles: true })); })()`,
  );
}

describeWithChromium("the dashboard in headless Chromium", () => {
  let emu: TestEmulator;
  let browser: Browser;
  let page: Page;
  let profile: string;
  let dashboardUrl: string;
  const fetched: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    console.log(`dashboard screenshots: ${ARTIFACTS}`);
    emu = await startTestEmulator({ control: true });
    dashboardUrl = emu.baseUrl.replace(/\/r$/, "/__emulator/");
    profile = mkdtempSync(join(tmpdir(), "rimu-chromium-"));
    browser = await launchChromium(chromium!, profile);
    page = await browser.newPage(1280, 900);
    page.on("Network.requestWillBeSent", (params) => fetched.push((params.request as { url: string }).url));
    await page.send("Network.enable");
    await page.send("Page.enable");
  });

  afterAll(async () => {
    await browser?.close();
    await emu?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test("loads, with every account and host, before any order", async () => {
    await page.send("Page.navigate", { url: dashboardUrl });
    const texts = await waitForTexts(
      page,
      { status: "#status", accounts: "#accounts", hosts: "#hosts", faults: "#faults", chaos: "#chaos" },
      (t) => t.status!.startsWith("Updated"),
    );
    for (const account of DEMO_ACCOUNTS) expect(texts.accounts).toContain(account.holder);
    expect(texts.accounts).toContain("$0.00 / month");
    expect(texts.hosts).toContain("host836"); // the small Dallas host
    expect(texts.faults).toContain("No faults armed.");
    expect(texts.chaos).toContain("No chaos rules.");
    await page.evaluate("window.loadedOnce = true"); // gone if the page reloads
    await screenshot(page, "1-empty.png");
  });

  test("shows orders created through the API, the faults armed and the chaos rules, without a reload", async () => {
    const agent = { headers: { "user-agent": "dashboard-test/1.0" } };
    const create = (domain: string, extra: object, apiKey?: string) =>
      emu.api<{ post_new_vps_response: { about_order: { order_oid: number } } }>(
        "POST",
        "/orders/new-vps",
        { new_order_request: { instantiation_options: { domain_name: domain }, ...extra } },
        { ...agent, ...(apiKey ? { apiKey } : {}) },
      );
    expect((await create("web1.example.com", {})).status).toBe(200);
    const web2 = await create("web2.example.com", { vps_parameters: { memory_mb: 2048 } });
    const web2Oid = web2.body.post_new_vps_response.about_order.order_oid;
    expect((await emu.api("PUT", `/orders/order-${web2Oid}-x/cancelled`, undefined, agent)).status).toBe(200);
    expect((await create("db1.example.com", { dc_location: "DCLONDON" }, keyOf("alice"))).status).toBe(200);
    const old = await create("old.example.com", {}, keyOf("bob"));
    const oldOid = old.body.post_new_vps_response.about_order.order_oid;
    const deleted = await emu.api("DELETE", `/orders/order-${oldOid}-x/vps`, undefined, {
      ...agent,
      apiKey: keyOf("bob"),
    });
    expect(deleted.status).toBe(200);
    const faults = emu.baseUrl.replace(/\/r$/, "/__emulator/faults");
    for (const fault of [
      { route: "createVps", kind: "status", status: 503, times: 2 },
      { route: "listOrders", kind: "drop" },
    ])
      expect((await fetch(faults, { method: "POST", body: JSON.stringify(fault) })).status).toBe(200);
    // A rule on a route this file never calls, so the requests below answer as the faults decide.
    const chaos = { seed: 7, rules: [{ route: "getVpsStatus", probability: 0.25, status: 502 }] };
    const armed = await fetch(faults.replace(/faults$/, "chaos"), {
      method: "PUT",
      body: JSON.stringify(chaos),
    });
    expect(armed.status).toBe(200);

    const snapshot = emu.snapshot();
    const accounts = (await (await fetch(dashboardUrl + "accounts")).json()) as {
      accounts: { name: string; monthlyTotalUsd: number }[];
    };
    const texts = await waitForTexts(
      page,
      { accounts: "#accounts", faults: "#faults", chaos: "#chaos", requests: "#requests" },
      (t) =>
        t.accounts!.includes("old.example.com") &&
        t.faults!.includes("listOrders") &&
        t.chaos!.includes("getVpsStatus"),
    );
    for (const order of snapshot) {
      expect(texts.accounts).toContain(order.domainName);
      if (order.active) expect(texts.accounts).toContain(order.ips[0]);
    }
    const cancelled = snapshot.find((order) => order.orderOid === web2Oid)!;
    expect(texts.accounts).toContain(cancelled.cancellationDate!.slice(0, 10));
    expect(texts.accounts).toMatch(/old\.example\.com\s+removed/);
    for (const account of accounts.accounts)
      expect(texts.accounts).toContain(`$${account.monthlyTotalUsd.toFixed(2)} / month`);
    expect(texts.faults).toMatch(/createVps\s+status\s+503\s+2/);
    expect(texts.chaos).toMatch(/seed 7[\s\S]*getVpsStatus\s+0\.25\s+502\s+0\s+0/);
    expect(texts.requests).toContain("dashboard-test/1.0");
    expect(await page.evaluate("window.loadedOnce")).toBe(true);
    await screenshot(page, "2-orders-and-faults.png", 1280);
  });

  test("reads on a phone (390×844): nothing off-screen, each table folds or scrolls within its panel", async () => {
    const phone = await browser.newPage(390, 844, { mobile: true });
    await phone.send("Page.navigate", { url: dashboardUrl });
    await waitForTexts(phone, { accounts: "#accounts", hosts: "#hosts" }, (t) =>
      t.accounts!.includes("old.example.com"),
    );
    const layout = await phone.evaluate<PhoneLayout>(PHONE_LAYOUT);
    // The page itself never scrolls sideways: 390 px wide, every panel inside the screen's width.
    expect(layout.pageWidth).toBeLessThanOrEqual(390);
    expect(layout.offScreen).toEqual([]);
    // Every table fits its panel or scrolls inside it; the panel stays on the screen either way.
    expect(layout.tables.length).toBeGreaterThanOrEqual(5); // orders of 4 accounts, faults, chaos, hosts, requests
    for (const table of layout.tables) {
      expect(table.fits || table.scrolls).toBe(true);
      expect(table.boxRight).toBeLessThanOrEqual(table.panelRight);
    }
    // Each order is one line (as on the desktop): no column squeezed into a tall, narrow row.
    expect(layout.orderRowHeights.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...layout.orderRowHeights)).toBeLessThan(40);
    await screenshot(phone, "4-phone.png", 390);
  });

  test("filters the requests by route and by status", async () => {
    // Spend the armed 503s: two createVps requests answered 503, then a listOrders the other fault drops.
    for (const domain of ["web3.example.com", "web4.example.com"])
      expect(
        (
          await emu.api("POST", "/orders/new-vps", {
            new_order_request: { instantiation_options: { domain_name: domain } },
          })
        ).status,
      ).toBe(503);
    await expect(emu.api("GET", "/orders")).rejects.toThrow();
    await waitForTexts(page, { faults: "#faults" }, (t) => t.faults!.includes("No faults armed."));

    await setFilter(page, "status", "5");
    let rows = await page.evaluate<string[]>(
      `[...document.querySelectorAll("#request-list tbody tr")].map((row) => row.innerText)`,
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/createVps\s+503/);

    await setFilter(page, "status", "");
    await setFilter(page, "route", "listorders");
    rows = await page.evaluate<string[]>(
      `[...document.querySelectorAll("#request-list tbody tr")].map((row) => row.innerText)`,
    );
    expect(rows).toEqual([expect.stringMatching(/GET\s+listOrders\s+dropped/)]);
    // The next refresh keeps the filter.
    const { status } = await textsOf(page, { status: "#status" });
    await waitForTexts(page, { status: "#status" }, (t) => t.status !== status);
    expect(
      await page.evaluate(
        `[...document.querySelectorAll("#request-list tbody tr")].map((row) => row.innerText)`,
      ),
    ).toEqual(rows);
    await screenshot(page, "3-filtered.png");
  });

  test("fetches nothing but the emulator's own URLs", () => {
    const origin = new URL(dashboardUrl).origin;
    expect(fetched.length).toBeGreaterThan(5);
    expect(fetched.filter((url) => !url.startsWith(`${origin}/__emulator/`))).toEqual([]);
  });
});
