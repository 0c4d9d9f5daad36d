/** Realistic durations the operations ask the clock for (no wall-clock timing: an injected clock records them). */
import { createClock } from "../../emulator/clock.js";
import { DURATIONS_MS } from "../../emulator/domain/durations.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { createVps, orderPath, recordingClock } from "./fixtures.js";

describe("durations", () => {
  let emu: TestEmulator;
  const clock = recordingClock();
  beforeAll(async () => {
    emu = await startTestEmulator({ clock });
  });
  afterAll(async () => {
    await emu.close();
  });

  const during = async (call: () => Promise<unknown>): Promise<number[]> => {
    clock.worked.length = 0;
    await call();
    return [...clock.worked];
  };

  test("create, reboot, resize, reinstall and delete block for realistic times", async () => {
    let order = { order_oid: 0 };
    expect(
      await during(async () => (order = (await createVps(emu, {}, { domain: "t.example.com" })).about_order)),
    ).toEqual([DURATIONS_MS.create]);
    expect(
      await during(() =>
        emu.api("PUT", orderPath(order, "/vps/running-state"), { running_state: "RESTARTING" }),
      ),
    ).toEqual([DURATIONS_MS.restart]);
    expect(
      await during(() =>
        emu.api("PUT", orderPath(order, "/vps/running-state"), { running_state: "RUNNING" }),
      ),
    ).toEqual([]);
    expect(
      await during(() => emu.api("PUT", orderPath(order, "/vps/parameters"), { memory_mb: 2048 })),
    ).toEqual([DURATIONS_MS.resize]);
    expect(await during(() => emu.api("PUT", orderPath(order, "/vps/reinstall"), {}))).toEqual([
      DURATIONS_MS.reinstall,
    ]);
    expect(await during(() => emu.api("DELETE", orderPath(order, "/vps")))).toEqual([DURATIONS_MS.delete]);
  });

  test("data-transfer-usage takes a few seconds longer than the VPS status", async () => {
    const order = (await createVps(emu, {}, { domain: "u.example.com" })).about_order;
    const [status] = await during(() => emu.api("GET", orderPath(order, "/vps")));
    const [usage] = await during(() => emu.api("GET", orderPath(order, "/vps/data-transfer-usage")));
    expect(usage! - status!).toBeGreaterThanOrEqual(2_000);
    expect(usage! - status!).toBeLessThanOrEqual(10_000);
  });

  test("a host move takes 5 to 10 minutes per GB of used disk", async () => {
    const order = (await createVps(emu, {}, { domain: "m.example.com" })).about_order;
    const [move] = await during(() => emu.api("PUT", orderPath(order, "/vps/host-server"), {}));
    const usedGb = 1800 / 1024;
    expect(move!).toBeGreaterThanOrEqual(usedGb * 5 * 60_000);
    expect(move!).toBeLessThanOrEqual(usedGb * 10 * 60_000);
  });
});

describe("clock", () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  test("clock: work() waits the realistic time times timeScale", async () => {
    jest.useFakeTimers();
    const clock = createClock({ timeScale: 0.5 });
    let done = false;
    void clock.work(10_000).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(4_999);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  test("clock: timeScale 0 is instant, and dispose() ends pending waits", async () => {
    jest.useFakeTimers();
    let instant = false;
    void createClock({ timeScale: 0 })
      .work(60_000)
      .then(() => (instant = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(instant).toBe(true);
    const clock = createClock({ timeScale: 1 });
    let done = false;
    void clock.work(3_600_000).then(() => (done = true));
    clock.dispose();
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toBe(true);
  });
});
