/**
 * The emulator's date moved by hand (POST /__emulator/time/advance with `now` or `days`, the `now` option / --now)
 * and what a real account shows on the new date: a cancellation scheduled for the end of the billing period ends
 * once the date passes it; the billing period rolls (a cancellation after the move takes the next period's end); a
 * deletion's credit is the fee's share of the unused part of the period. The machine's time is frozen in these
 * tests (a clock of createClock with a fixed `now`), so the figures are exact.
 */
import * as path from "node:path";
import fc from "fast-check";
import type { DeleteServerResponse, GetOrdersResponse, PutCancelledResponse } from "../../contract/index.js";
import { roundMoney } from "../../emulator/catalog/pricing.js";
import { createClock } from "../../emulator/clock.js";
import { DAY_MS } from "../../emulator/domain/durations.js";
import { controlApi } from "../helpers/control-api.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { useTempDir } from "../helpers/use-emulator.js";
import { createVps, errorOf, getOrder, orderPath, record } from "./fixtures.js";

const MACHINE_NOW = Date.parse("2026-11-27T01:00:00Z");
const tmp = useTempDir();
const started: TestEmulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((emu) => emu.close()));
});

/** An emulator whose machine time stands still at MACHINE_NOW (its date moves only when moved). */
async function emulator(options: Parameters<typeof startTestEmulator>[0] = {}): Promise<TestEmulator> {
  const clock = createClock({ timeScale: 0, now: () => MACHINE_NOW });
  const emu = await startTestEmulator({ control: true, clock, ...options });
  started.push(emu);
  return emu;
}

interface Moved {
  finished: number;
  now: string;
  ordersEnded: number[];
}
const advance = (emu: TestEmulator, body: unknown) =>
  controlApi(emu.baseUrl)<Moved>("POST", "/time/advance", body);
const dateOf = async (emu: TestEmulator) =>
  Date.parse((await controlApi(emu.baseUrl)<{ now: string }>("GET", "/time")).body.now);

const cancel = async (emu: TestEmulator, oid: number) =>
  record<PutCancelledResponse>((await emu.api("PUT", `/orders/order-${oid}-x/cancelled`)).body).about_order!;

describe("the emulator's date", () => {
  test("a cancellation at the end of the billing period ends when the date passes it, not before", async () => {
    const emu = await emulator();
    const order = (await createVps(emu, {}, { domain: "ends.example.com" })).about_order;
    const scheduled = (await cancel(emu, order.order_oid)).billing_info!.cancellation_date!.ms_since_epoch;
    expect(scheduled).toBe(MACHINE_NOW + 30 * DAY_MS);

    expect((await advance(emu, { days: 29 })).body).toEqual({
      finished: 0,
      now: new Date(MACHINE_NOW + 29 * DAY_MS).toISOString(),
      ordersEnded: [],
    });
    expect((await getOrder(emu, order.order_oid)).running_state).toBe("RUNNING");

    const past = await advance(emu, { now: "2026-12-28" });
    expect(past.body).toMatchObject({ now: "2026-12-28T00:00:00.000Z", ordersEnded: [order.order_oid] });
    expect(await getOrder(emu, order.order_oid)).toMatchObject({ running_state: "NOTRUNNING" });
    expect(errorOf(await emu.api("GET", orderPath(order, "/vps")))).toMatchObject({ status: 404 });
    const active = record<GetOrdersResponse>((await emu.api("GET", "/orders")).body).about_orders ?? [];
    expect(active.map((o) => o.order_oid)).not.toContain(order.order_oid);
    // The dashboard's source shows the date, and the order as gone.
    const view = await controlApi(emu.baseUrl)<{ now: string; orders: { active: boolean }[] }>(
      "GET",
      "/snapshot",
    );
    expect(view.body).toMatchObject({ now: "2026-12-28T00:00:00.000Z", orders: [{ active: false }] });
  });

  test("moved by any number of days, the period rolls and a deletion credits the unused part of it", async () => {
    const emu = await emulator();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 24 * 120 }), async (hours) => {
        n += 1;
        const orderedAt = await dateOf(emu);
        const kept = (await createVps(emu, {}, { domain: `kept${n}.example.com` })).about_order;
        const gone = (await createVps(emu, {}, { domain: `gone${n}.example.com` })).about_order;
        if (hours > 0) expect((await advance(emu, { days: hours / 24 })).status).toBe(200);
        const elapsed = hours * 3_600_000;
        const periodEnd = orderedAt + (Math.floor(elapsed / (30 * DAY_MS)) + 1) * 30 * DAY_MS;

        const cancelled = await cancel(emu, kept.order_oid);
        expect(cancelled.billing_info!.cancellation_date!.ms_since_epoch).toBe(periodEnd);
        const deleted = record<DeleteServerResponse>((await emu.api("DELETE", orderPath(gone, "/vps"))).body);
        const fee = gone.billing_info!.monthly_recurring_fee!;
        const credit = roundMoney((fee * (periodEnd - orderedAt - elapsed)) / (30 * DAY_MS));
        expect(deleted.cancel_messages).toContain(
          `A $${credit.toFixed(2)} credit has been added to your account.`,
        );
      }),
      { numRuns: 12, seed: 68, examples: [[30 * 24], [40 * 24], [29 * 24 + 23]] },
    );
  });

  test("--now sets the date at start; a state file keeps a moved date over a restart; --now wins over it", async () => {
    const stateFile = path.join(tmp(), "dated.json");
    const first = await emulator({ now: "2027-01-15", stateFile });
    expect(await dateOf(first)).toBe(Date.parse("2027-01-15T00:00:00Z"));
    const order = (await createVps(first, {}, { domain: "dated.example.com" })).about_order;
    expect(order.billing_info!.order_date!.iso_format).toBe("2027-01-15T00:00:00Z");
    await advance(first, { days: 10 });
    await first.close();

    expect(await dateOf(await emulator({ stateFile }))).toBe(Date.parse("2027-01-25T00:00:00Z"));
    expect(await dateOf(await emulator({ stateFile, now: "+1d" }))).toBe(MACHINE_NOW + DAY_MS);
  });

  test("a date that is not ISO 8601, earlier than the emulator's, or sent with orderOid is a 400 naming it", async () => {
    const emu = await emulator();
    const refused = async (body: unknown, fieldName: string, text: string) => {
      const res = await advance(emu, body);
      expect(errorOf(res)).toMatchObject({ status: 400, fieldName });
      expect(JSON.stringify(res.body)).toContain(text);
    };
    await refused({ now: "next tuesday" }, "now", "now must be an ISO 8601 date such as 2027-01-15");
    await refused(
      { now: "2026-01-01" },
      "now",
      "is earlier than the emulator's date, 2026-11-27T01:00:00.000Z",
    );
    await refused(
      { days: 1, orderOid: 5 },
      "orderOid",
      "Send one of now (a date), days (a duration) or orderOid",
    );
    await refused({ days: -1 }, "days", "days");
    await expect(emulator({ now: "soon" })).rejects.toThrow("now must be an ISO 8601 date");
    expect(await dateOf(emu)).toBe(MACHINE_NOW);
  });
});
