/**
 * Chaos rules (/__emulator/chaos): a seeded rule fails the same requests in every run with the same seed, and others
 * with another seed; a rule's draws on one route do not depend on other routes' requests; drop resets the
 * connection; --error-rate and --latency-ms are rules of the same kind, restored by a reset.
 */
import { controlApi } from "../helpers/control-api.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { errorOf } from "./fixtures.js";

let emu: TestEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const flaky = { route: "listOrders", probability: 0.3, status: 503 };

/** The indexes, among `count` GET /orders, that the rules set with `seed` fail, with `between` sent in between. */
async function failures(seed: number, count = 30, between?: () => Promise<unknown>): Promise<number[]> {
  emu = await startTestEmulator({ control: true });
  const put = await controlApi(emu.baseUrl)("PUT", "/chaos", { seed, rules: [flaky] });
  expect(put.status).toBe(200);
  const failed: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await emu.api("GET", "/orders");
    if (res.status !== 200) {
      expect(errorOf(res)).toMatchObject({ status: 503, code: "EMU_ERR_FAULT_INJECTED" });
      failed.push(i);
    }
    await between?.();
  }
  await emu.close();
  return failed;
}

describe("chaos rules", () => {
  test("a seeded rule at probability 0.3 fails the same requests in two runs; another seed, others", async () => {
    const first = await failures(42);
    const second = await failures(42);
    expect(second).toEqual(first);
    // About 30% of 30 (the draw is fixed by the seed, so this is not a flaky bound).
    expect(first.length).toBeGreaterThanOrEqual(3);
    expect(first.length).toBeLessThanOrEqual(18);
    expect(await failures(43)).not.toEqual(first);
  });

  test("other routes' requests in between do not move a route's failures", async () => {
    const alone = await failures(7, 20);
    const interleaved = await failures(7, 20, () =>
      emu!.api("GET", "/data-centers", undefined, { apiKey: null }),
    );
    expect(interleaved).toEqual(alone);
  });

  test("a pattern matches endpoint names; the report counts what each rule matched and acted on", async () => {
    emu = await startTestEmulator({ control: true });
    const control = controlApi(emu.baseUrl);
    await control("PUT", "/chaos", { seed: 5, rules: [{ route: "list*", status: 502 }] });
    await emu.api("GET", "/orders");
    await emu.api("GET", "/billing-methods");
    expect((await emu.api("GET", "/orders/order-1-x")).status).toBe(404); // getOrder: not list*
    expect((await control("GET", "/chaos")).body).toEqual({
      seed: 5,
      rules: [{ route: "list*", probability: 1, status: 502, matched: 2, acted: 2 }],
    });
  });

  test("PUT again with the same seed replays the same failures in the same emulator", async () => {
    emu = await startTestEmulator({ control: true });
    const control = controlApi(emu.baseUrl);
    const statuses = async () => {
      await control("PUT", "/chaos", { seed: 3, rules: [flaky] });
      const seen = [];
      for (let i = 0; i < 20; i++) seen.push((await emu!.api("GET", "/orders")).status);
      return seen;
    };
    const first = await statuses();
    expect(first).toContain(503);
    expect(await statuses()).toEqual(first);
  });

  test("drop resets the connection before anything is done; 429 carries Retry-After; a latency rule acts", async () => {
    emu = await startTestEmulator({ control: true });
    const control = controlApi(emu.baseUrl);
    await control("PUT", "/chaos", { rules: [{ route: "createVps", drop: true }] });
    const dropped = await emu
      .api("POST", "/orders/new-vps", { instantiation_options: { domain_name: "x.example.com" } })
      .then(
        () => undefined,
        (error: Error & { cause?: { code?: string } }) => error.cause?.code,
      );
    expect(dropped).toBe("ECONNRESET");
    expect(emu.snapshot()).toEqual([]);
    expect(emu.requestLog()).toEqual([expect.objectContaining({ route: "createVps", outcome: "dropped" })]);
    await control("PUT", "/chaos", { rules: [{ route: "getOrder", status: 429 }] });
    const limited = await emu.api("GET", "/orders/order-1-x");
    expect(errorOf(limited)).toMatchObject({ status: 429, code: "EMU_ERR_RATE_LIMITED" });
    expect(limited.headers.get("retry-after")).toBe("1");
    await control("PUT", "/chaos", { rules: [{ route: "*", latencyMs: 1 }] });
    expect((await emu.api("GET", "/orders")).status).toBe(200);
    expect((await control("GET", "/chaos")).body.rules).toEqual([expect.objectContaining({ acted: 1 })]);
  });

  test("--error-rate and --latency-ms start as rules, seeded by the emulator's seed; reset restores them", async () => {
    emu = await startTestEmulator({ control: true, seed: 9, latencyMs: 2, errorRate: { createVps: 0.5 } });
    const control = controlApi(emu.baseUrl);
    const started = {
      seed: 9,
      rules: [
        { route: "*", probability: 1, latencyMs: 2, matched: 0, acted: 0 },
        { route: "createVps", probability: 0.5, status: 503, matched: 0, acted: 0 },
      ],
    };
    expect((await control("GET", "/chaos")).body).toEqual(started);
    await control("PUT", "/chaos", { seed: 1, rules: [] });
    expect((await control("GET", "/chaos")).body).toEqual({ seed: 1, rules: [] });
    await control("POST", "/reset");
    expect((await control("GET", "/chaos")).body).toEqual(started);
  });

  test("a bad rule is a 400 naming it and saying how to fix it", async () => {
    emu = await startTestEmulator({ control: true });
    const control = controlApi(emu.baseUrl);
    const cases: [unknown, string, string][] = [
      [{ route: "craeteVps", status: 503 }, "rules.0.route", "matches no endpoint"],
      [{ route: "*", status: 503, drop: true }, "rules.0", "keep one"],
      [{ route: "*" }, "rules.0", "does nothing"],
      [{ route: "*", status: 503, probability: 2 }, "rules.0.probability", "rules.0.probability"],
    ];
    for (const [rule, field, words] of cases) {
      const res = await control("PUT", "/chaos", { rules: [rule] });
      expect(errorOf(res)).toMatchObject({ status: 400, fieldName: field });
      expect(JSON.stringify(res.body)).toContain(words);
    }
  });
});
