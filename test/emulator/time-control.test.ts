/**
 * Time control (/__emulator/time): at time scale 1 (a create takes 45 s) an order advanced by hand is ready at once,
 * the others go on waiting; the time scale set at runtime applies to work already waiting.
 */
import type { PostNewVpsResponse } from "../../contract/index.js";
import { controlApi } from "../helpers/control-api.js";
import { GateClock } from "../helpers/gate-clock.js";
import { answeredSoon } from "../helpers/pending-create.js";
import { until } from "../helpers/promises.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { errorOf, record } from "./fixtures.js";

let emu: TestEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

interface Work {
  orderOid: number | null;
  remainingMs: number;
}

/** Sends a create that waits on the clock (not awaited). */
const startCreate = (domain: string) =>
  emu!.api("POST", "/orders/new-vps", {
    new_order_request: { instantiation_options: { domain_name: domain } },
  });

/** The work waiting on the clock, once there are `count` of them. */
async function waitingWork(count: number): Promise<Work[]> {
  const control = controlApi(emu!.baseUrl);
  let work: Work[] = [];
  await until(`${count} operations waiting on the clock`, async () => {
    work = (await control<{ work: Work[] }>("GET", "/time")).body.work;
    return work.length === count;
  });
  return work;
}

describe("time control", () => {
  test("at --time-scale 1 an order advanced by hand is ready at once; another order goes on waiting", async () => {
    emu = await startTestEmulator({ control: true, timeScale: 1 });
    const control = controlApi(emu.baseUrl);
    const first = startCreate("first.example.com");
    const second = startCreate("second.example.com");
    const work = await waitingWork(2);
    expect(work.every((w) => w.remainingMs > 30_000)).toBe(true);
    const target = emu.snapshot().find((o) => o.domainName === "first.example.com")!;
    expect(target.runningState).toBe("NOTRUNNING");

    const advanced = await control("POST", "/time/advance", { orderOid: target.orderOid });
    expect(advanced).toMatchObject({ status: 200, body: { finished: 1, ordersEnded: [] } });
    const answer = await answeredSoon(first);
    expect(answer.status).toBe(200);
    expect(record<PostNewVpsResponse>(answer.body).running_vps_info).toMatchObject({
      running_state: "RUNNING",
    });
    expect((await waitingWork(1)).map((w) => w.orderOid)).not.toContain(target.orderOid);

    // Without an order: every order's work.
    expect((await control("POST", "/time/advance")).body).toMatchObject({ finished: 1 });
    expect((await answeredSoon(second)).status).toBe(200);
  });

  test("the time scale set at runtime applies to work already waiting, and to what comes after", async () => {
    emu = await startTestEmulator({ control: true, timeScale: 1 });
    const control = controlApi(emu.baseUrl);
    const create = startCreate("slow.example.com");
    await waitingWork(1);
    expect((await control("PUT", "/time", { timeScale: 0 })).body).toMatchObject({ timeScale: 0, work: [] });
    expect((await answeredSoon(create)).status).toBe(200);
    expect((await answeredSoon(startCreate("instant.example.com"))).status).toBe(200);
    expect((await control("GET", "/time")).body).toMatchObject({ timeScale: 0, work: [] });
  });

  test("an unknown order is a 404; a scale out of bounds or a clock given in code a 400", async () => {
    emu = await startTestEmulator({ control: true });
    const control = controlApi(emu.baseUrl);
    expect(errorOf(await control("POST", "/time/advance", { orderOid: 123 }))).toMatchObject({
      status: 404,
      fieldName: "orderOid",
    });
    expect(errorOf(await control("PUT", "/time", { timeScale: 11 }))).toMatchObject({
      status: 400,
      fieldName: "timeScale",
    });
    await emu.close();
    emu = await startTestEmulator({ control: true, clock: new GateClock({ gated: [] }) });
    const res = await controlApi(emu.baseUrl)("PUT", "/time", { timeScale: 0 });
    expect(errorOf(res)).toMatchObject({ status: 400 });
    expect(JSON.stringify(res.body)).toContain("runs on a clock given in code");
  });
});
