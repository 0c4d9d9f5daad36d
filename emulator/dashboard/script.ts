/**
 * The dashboard's script, run by the browser (a string for the reason page.ts gives; no build step, no library).
 * Every DASHBOARD_REFRESH_MS it reads every source of sources.ts at once and renders each section from what it
 * read, without reloading the page; the requests' filters apply to the last reading at once. Text from the
 * emulator (domain names, user agents) goes in as text nodes, never as HTML.
 */
import { DASHBOARD_REFRESH_MS, DASHBOARD_SOURCES } from "./sources.js";

const BROWSER_CODE = String.raw`
"use strict";

// Reads every source at once: { name: its JSON }.
async function readSources(sources) {
  const names = Object.keys(sources);
  const bodies = await Promise.all(
    names.map(async (name) => {
      const response = await fetch(sources[name], { cache: "no-store" });
      if (!response.ok) throw new Error(sources[name] + " answered " + response.status);
      return response.json();
    }),
  );
  return Object.fromEntries(names.map((name, i) => [name, bodies[i]]));
}

// An element with attributes and children (strings become text nodes).
function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    element.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return element;
}

// A table under these headings; a heading ending in "#" is a numeric column, right-aligned (the "#" not shown).
// It sits in a box of its own, which scrolls sideways when the table is wider than its panel (style.ts).
function table(headings, rows) {
  const head = h("tr", {}, headings.map((heading) => {
    const numeric = heading.endsWith("#");
    return h("th", numeric ? { class: "num" } : {}, numeric ? heading.slice(0, -1) : heading);
  }));
  return h("div", { class: "table-box" }, h("table", {}, h("thead", {}, head), h("tbody", {}, rows)));
}

const usd = (amount) => "$" + amount.toFixed(2);
const day = (iso) => (iso ? iso.slice(0, 10) : "");
const clockTime = (iso) => iso.slice(11, 19);
const count = (n, one, many) => n + " " + (n === 1 ? one : many);

function stateBadge(order) {
  if (!order.active) return h("span", { class: "badge" }, "removed");
  const kind = order.runningState === "RUNNING" ? "ok" : order.runningState === "NOTRUNNING" ? "" : "warn";
  return h("span", { class: "badge " + kind }, order.runningState);
}

function renderAccounts(data) {
  const blocks = data.accounts.accounts.map((account) => {
    const orders = data.orders.orders.filter((order) => order.account === account.name);
    const title = h("h3", {}, account.name, h("small", {}, account.holder),
      h("span", { class: "total" }, usd(account.monthlyTotalUsd) + " / month · " +
        count(account.activeOrders, "active order", "active orders")));
    if (orders.length === 0) return h("div", { class: "account" }, title, h("p", { class: "empty" }, "No orders."));
    const rows = orders.map((order) => h("tr", order.active ? {} : { class: "inactive" },
      h("td", {}, String(order.orderOid)),
      h("td", {}, order.domainName),
      h("td", {}, stateBadge(order)),
      h("td", {}, order.planCode),
      h("td", { class: "num" }, usd(order.monthlyFeeUsd)),
      h("td", { class: "wrap" }, order.ips.join(", ")),
      h("td", {}, order.hostOid ? "host" + order.hostOid : "dedicated"),
      h("td", {}, order.dc),
      h("td", {}, day(order.cancellationDate))));
    return h("div", { class: "account" }, title,
      table(["Order", "Domain", "State", "Plan", "Fee / month#", "IPs", "Host", "Data centre", "Cancellation"], rows));
  });
  document.getElementById("account-list").replaceChildren(...blocks);
}

function faultDetail(fault) {
  const parts = [];
  if (fault.kind === "status") parts.push(String(fault.status || 503));
  if (fault.retryAfterSeconds !== undefined) parts.push("Retry-After " + fault.retryAfterSeconds + " s");
  if (fault.delayMs !== undefined) parts.push(fault.delayMs + " ms");
  return parts.join(", ");
}

function renderFaults(data) {
  const armed = data.faults.armed;
  const content = armed.length === 0
    ? h("p", { class: "empty" }, "No faults armed.")
    : table(["Route", "Kind", "Detail", "Times#"], armed.map((fault) => h("tr", {},
        h("td", {}, h("code", {}, fault.route)),
        h("td", {}, h("span", { class: "badge bad" }, fault.kind)),
        h("td", {}, faultDetail(fault)),
        h("td", { class: "num" }, String(fault.times || 1)))));
  document.getElementById("fault-list").replaceChildren(content);
}

function chaosEffect(rule) {
  const parts = [];
  if (rule.status !== undefined) parts.push(String(rule.status));
  if (rule.drop) parts.push("drop");
  if (rule.retryAfterSeconds !== undefined) parts.push("Retry-After " + rule.retryAfterSeconds + " s");
  if (rule.latencyMs) parts.push("+" + rule.latencyMs + " ms");
  return parts.join(", ");
}

function renderChaos(data) {
  const { seed, rules } = data.chaos;
  document.getElementById("chaos-seed").textContent = "seed " + seed;
  const content = rules.length === 0
    ? h("p", { class: "empty" }, "No chaos rules.")
    : table(["Route", "Probability#", "Effect", "Matched#", "Acted#"], rules.map((rule) => h("tr", {},
        h("td", {}, h("code", {}, rule.route)),
        h("td", { class: "num" }, String(rule.probability)),
        h("td", {}, h("span", { class: "badge " + (rule.status !== undefined || rule.drop ? "bad" : "warn") },
          chaosEffect(rule))),
        h("td", { class: "num" }, String(rule.matched)),
        h("td", { class: "num" }, String(rule.acted)))));
  document.getElementById("chaos-list").replaceChildren(content);
}

function renderHosts(data) {
  const rows = data.hosts.hosts.map((host) => {
    const usedShare = 1 - host.memFreeMb / host.memUsableMb;
    const fill = h("span", {});
    fill.style.width = Math.round(usedShare * 100) + "%"; // through the CSSOM: the CSP refuses style attributes
    const bar = h("span", { class: "bar", title: Math.round(usedShare * 100) + "% of memory used" }, fill);
    return h("tr", {},
      h("td", {}, "host" + host.oid),
      h("td", {}, host.dc),
      h("td", {}, bar, (host.memFreeMb / 1024).toFixed(1) + " of " + (host.memUsableMb / 1024).toFixed(0) + " GB free"),
      h("td", { class: "num" }, host.diskFreeGb + " GB"),
      h("td", { class: "num" }, String(host.freeIps)),
      h("td", { class: "num" }, host.runningVpss + " / " + host.vpss));
  });
  document.getElementById("host-list").replaceChildren(
    table(["Host", "Data centre", "Memory", "Disk free#", "IPs free#", "Running / VPSs#"], rows));
}

function statusBadge(request) {
  if (request.status === 0) return h("span", { class: "badge bad" }, request.outcome);
  const kind = request.status < 400 ? "ok" : request.status < 500 ? "warn" : "bad";
  return h("span", { class: "badge " + kind }, String(request.status));
}

function requestMatches(request, filters) {
  if (filters.method && request.method !== filters.method) return false;
  if (filters.route && !request.route.toLowerCase().includes(filters.route.toLowerCase())) return false;
  if (filters.status && String(request.status).charAt(0) !== filters.status) return false;
  if (filters.account && request.account !== filters.account) return false;
  const agent = (request.userAgent || "").toLowerCase();
  if (filters.userAgent && !agent.includes(filters.userAgent.toLowerCase())) return false;
  return true;
}

function renderRequests(data) {
  const form = document.getElementById("request-filters");
  const accountSelect = form.elements.account;
  if (accountSelect.options.length === 1) {
    for (const account of data.accounts.accounts) accountSelect.append(h("option", {}, account.name));
  }
  const filters = Object.fromEntries(new FormData(form));
  const all = data.requests.requests;
  const shown = all.filter((request) => requestMatches(request, filters)).reverse();
  document.getElementById("request-count").textContent =
    shown.length + " shown of the last " + all.length + " (" + data.requests.total + " in all)";
  const rows = shown.map((request) => h("tr", {},
    h("td", {}, clockTime(request.time)),
    h("td", {}, request.method),
    h("td", {}, h("code", {}, request.route)),
    h("td", {}, statusBadge(request)),
    h("td", {}, request.account || ""),
    h("td", { class: "wrap" }, request.userAgent || "")));
  document.getElementById("request-list").replaceChildren(shown.length === 0
    ? h("p", { class: "empty" }, all.length === 0 ? "No requests yet." : "No request matches the filters.")
    : table(["Time (UTC)", "Method", "Route", "Status", "Account", "User agent"], rows));
}

// The emulator's date (moved by --now or POST /__emulator/time/advance), which the orders are seen at.
function renderDate(data) {
  document.getElementById("emulator-date").textContent =
    "Emulator date: " + data.orders.now.slice(0, 16).replace("T", " ") + " UTC";
}

// One render function per section, each reading what readSources() returned.
const SECTIONS = [renderDate, renderAccounts, renderFaults, renderHosts, renderChaos, renderRequests];

function start(sources, refreshMs) {
  const status = document.getElementById("status");
  let last;
  const render = () => {
    if (last) for (const section of SECTIONS) section(last);
  };
  const refresh = async () => {
    try {
      last = await readSources(sources);
      render();
      status.className = "status";
      status.textContent = "Updated " + new Date().toISOString().slice(11, 19) + " UTC, every " + refreshMs / 1000 + " s";
    } catch (error) {
      status.className = "status down";
      status.textContent = "The emulator is not answering (" + error.message + "); trying again.";
    }
    setTimeout(refresh, refreshMs);
  };
  document.getElementById("request-filters").addEventListener("input", render);
  document.getElementById("request-filters").addEventListener("submit", (event) => event.preventDefault());
  void refresh();
}
`;

export const DASHBOARD_SCRIPT = `${BROWSER_CODE}
start(${JSON.stringify(DASHBOARD_SOURCES)}, ${DASHBOARD_REFRESH_MS});
`;
