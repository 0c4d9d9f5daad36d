// API calls per operation, through the real CLI (issues 20 and 90): what a fleet costs in requests. The provider host
// serves token look-ups, the catalogue, quotes and what it must know of each VPS from reads it shares across resources
// (provider/impl/account/account-view.ts), so a no-op preview of N existing VPSs makes a constant number of calls, an up
// of N new VPSs N creates plus a constant, an update of every VPS N changes plus a constant (the listing each VPS is
// looked up in, the listings its read-backs share, and the update's one quote of each distinct change: the planned
// fee a policy pack reads), a refresh a constant and a destroy N deletes plus a constant. Each shared read is made
// again once it is older than LISTING_MAX_AGE_MS, so "a constant" allows one more read of each per minute of run; the
// read-backs after changes share listings started at least READ_BACK_GAP_MS apart (account/read-backs.ts), so an
// update's constant allows one more listing per such gap of run.
import { LISTING_MAX_AGE_MS } from "../../provider/impl/account/account-view";
import { READ_BACK_GAP_MS } from "../../provider/impl/account/read-backs";
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
/** The listings the read-backs after a run's changes may share: one, and one more per READ_BACK_GAP_MS it lasted. */
const readBacks = (ms: number) => 1 + Math.floor(ms / READ_BACK_GAP_MS);

/** The calls of `n`'s run beyond `route` that the 1-VPS run did not make too (beyond `slack` per route). */
function growth(one: Calls, n: Calls, route: string | undefined, slack: (route: string) => number) {
  return Object.entries(n)
    .filter(([r]) => r !== route)
    .map(([r, count]) => ({ route: r, beyond: count - (one[r] ?? 0) - slack(r) }))
    .filter(({ beyond }) => beyond > 0);
}

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
      seen[`refresh of ${n}`] = await measured(s, () => s.stack.refresh());
      seen[`destroy of ${n}`] = await measured(s, () => s.stack.destroy());
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

  test("an update of every VPS makes N changes and a constant number of other calls, none per VPS", () => {
    const [one, twenty] = [seen["resize of 1"]!, seen["resize of 20"]!];
    expect(one.calls.changeParameters).toBe(1);
    expect(twenty.calls.changeParameters).toBe(20);
    // The constant: the account's listing, the read-backs' listings, and one quote of the one distinct resize.
    expect(twenty.calls.quoteNewVm).toBe(1);
    const slack = (route: string) =>
      refreshes(twenty.ms) + (route === "listOrders" ? readBacks(twenty.ms) : 0);
    expect(growth(one.calls, twenty.calls, "changeParameters", slack)).toEqual([]);
  });

  test("a refresh of N VPSs makes a constant number of calls: one listing holds every order", () => {
    const [one, twenty] = [seen["refresh of 1"]!, seen["refresh of 20"]!];
    expect(growth(one.calls, twenty.calls, undefined, () => refreshes(twenty.ms))).toEqual([]);
  });

  test("a destroy of N VPSs makes N deletes and a constant number of other calls", () => {
    const [one, twenty] = [seen["destroy of 1"]!, seen["destroy of 20"]!];
    expect(one.calls.deleteVps).toBe(1);
    expect(twenty.calls.deleteVps).toBe(20);
    // The sweep for a killed run's orders lists the account again when it finds some to judge (stack-strays.ts): once.
    const slack = (route: string) => refreshes(twenty.ms) + (route === "listOrders" ? 1 : 0);
    expect(growth(one.calls, twenty.calls, "deleteVps", slack)).toEqual([]);
  });

  test("the preview of a resize of every VPS quotes the one distinct request once", () => {
    const { calls } = seen[`preview of a resize of ${PREVIEWED}`]!;
    expect(calls.quoteNewVm).toBe(1);
    expect(calls.changeParameters).toBeUndefined();
  });
});
