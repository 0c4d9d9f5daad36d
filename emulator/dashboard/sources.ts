/**
 * What the dashboard reads, and where: one control endpoint per source, fetched together at every refresh. The page's
 * sections render these by name (script.ts), so a new section is a source here and a render function there.
 */
export const DASHBOARD_SOURCES = {
  accounts: "/__emulator/accounts",
  orders: "/__emulator/snapshot",
  hosts: "/__emulator/hosts",
  faults: "/__emulator/faults",
  chaos: "/__emulator/chaos",
  // The last 200 are what a page can show; a long run's whole log would be read again every second.
  requests: "/__emulator/requests?last=200",
} as const;

/** How often the page reads its sources again, in milliseconds. */
export const DASHBOARD_REFRESH_MS = 1000;
