// API calls per operation, through the real CLI (issue 20): what a fleet costs in requests. The provider host serves
// token look-ups, the catalogue and quotes from reads it shares across resources (provider/impl/account/account-view.ts),
// so a no-op preview of N existing VPSs makes a constant number of calls, an up of N new VPSs N creates plus a
// constant, and an update of every VPS at most 2 calls per VPS beyond the change itself and a constant (the listing,
// and the update's one quote of each distinct change: the planned fee a policy pack reads). Each shared read is made
// again once it is older than LISTING_MAX_AGE_MS, so "a constant" allows one more read of each per minute of run.
import { LISTING_MAX_AGE_MS } from "../../provider/impl/account/account-view";
import { describeCliOnly } from "./describe-cli";
import { startScenario, type Scenario } from "./e2e-support";

jest.setTimeout(600_000);

type Calls = Record<string, number>;

/** Calls by endpoint since `mark`. */
function callsSince(s: Scenario, mark: number): Calls {
  const calls: Calls = {};
  for (const entry of s.emulator.requestLog().slice(mark)) calls[entry.route] = (calls[entry.route] ?? 0) + 1;
  return calls;
}

/** Runs an operation and returns its calls by endpoint, and how long it took. */
async function measured(s: Scenario, run: () => Promise<unknown>): Promise<{ calls: Calls; ms: number }> {
  const mark = s.mark();
  const started = Date.now();
  await run();
  return { calls: callsSince(s, mark), ms: Date.now() - started };
}

/** Extra reads of each shared list a run may make: one per LISTING_MAX_AGE_MS it lasted. */
const refreshes = (ms: number) => Math.floor(ms / LISTING_MAX_AGE_MS);

/** The fleet whose previews are measured. */
const PREVIEWED = 20;

describeCliOnly("API calls of a fleet: shared reads, not one per VPS", () => {
  const fleets: Record<number, Scenario> = {};
  const seen: Record<string, { calls: Calls; ms: number }> = {};

  beforeAll(async () => {
    for (const n of [1, 20]) {
      fleets[n] = await startScenario("fleet", { config: { count: String(n), stopped: "-1" } });
      const s = fleets[n]!;
      // The previews are held to absolute counts (one listing, one quote), which the fleet of 20 shows alone; the
      // fleet of 1 is the baseline of the ups' constant.
      const previewed = n === PREVIEWED;
      if (previewed) seen[`preview of ${n} new`] = await measured(s, () => s.stack.preview());
      seen[`up of ${n} new`] = await measured(s, () => s.stack.up());
      if (previewed) seen[`no-op preview of ${n}`] = await measured(s, () => s.stack.preview());
      await s.stack.setConfig("memoryMb", "2048");
      if (previewed) seen[`preview of a resize of ${n}`] = await measured(s, () => s.stack.preview());
      seen[`resize of ${n}`] = await measured(s, () => s.stack.up());
    }
    // For the report: the calls of each operation by endpoint.
    console.log(JSON.stringify(seen, null, 1));
  });
  afterAll(async () => {
    for (const s of Object.values(fleets)) {
      await s.close();
    }
  });

  test("a no-op preview reads the account's orders once, whatever the number of VPSs", () => {
    const { calls, ms } = seen[`no-op preview of ${PREVIEWED}`]!;
    expect(calls).toEqual({ listOrders: 1 + refreshes(ms) });
  });

  test("an up of N new VPSs makes N creates and a constant number of other calls", () => {
    const other = (calls: Calls) => Object.entries(calls).filter(([route]) => route !== "createVps");
    const one = seen["up of 1 new"]!;
    const twenty = seen["up of 20 new"]!;
    expect(one.calls.createVps).toBe(1);
    expect(twenty.calls.createVps).toBe(20);
    for (const [route, count] of other(twenty.calls))
      expect({ route, count }).toEqual({
        route,
        count: Math.min(count, (one.calls[route] ?? 0) + refreshes(twenty.ms)),
      });
  });

  test("the preview of N new VPSs quotes identical ones once and reads each list once", () => {
    const { calls, ms } = seen[`preview of ${PREVIEWED} new`]!;
    expect(calls.quoteNewVm).toBe(1);
    expect(calls.listOrders).toBeLessThanOrEqual(1 + refreshes(ms));
    expect(calls.createVps).toBeUndefined();
  });

  test("an update of every VPS makes at most 2 calls per VPS beyond the change itself, and a constant", () => {
    for (const n of [1, 20]) {
      const { calls, ms } = seen[`resize of ${n}`]!;
      expect(calls.changeParameters).toBe(n);
      const beyond = Object.entries(calls)
        .filter(([route]) => route !== "changeParameters")
        .reduce((sum, [, count]) => sum + count, 0);
      // The constant: the account's listing, and one quote of the one distinct resize (impl/budget/planned-fee.ts).
      expect(calls.quoteNewVm).toBe(1);
      expect(beyond).toBeLessThanOrEqual(2 * n + 2 + refreshes(ms));
    }
  });

  test("the preview of a resize of every VPS quotes the one distinct request once", () => {
    const { calls } = seen[`preview of a resize of ${PREVIEWED}`]!;
    expect(calls.quoteNewVm).toBe(1);
    expect(calls.changeParameters).toBeUndefined();
  });
});
