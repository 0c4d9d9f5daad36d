// The emulator's rate limit (emulator/rate-limit.ts): a burst past a key's quota gets 429 with Retry-After, per key,
// until the window ends; set by the option, the flag, or the control route at run time.
import { createClock } from "../../emulator/clock.js";
import { parseCliArgs } from "../../emulator/cli.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { errorOf } from "./fixtures.js";

const ALICE = "20000000000000000000000000000002";

describe("the emulator's rate limit", () => {
  let emu: TestEmulator;
  let nowMs = 1_000_000;
  afterEach(async () => {
    await emu?.close();
  });
  const clock = () => createClock({ timeScale: 0, now: () => nowMs });

  test("a burst past the quota gets 429 with Retry-After; another key has its own quota; the window ends", async () => {
    emu = await startTestEmulator({ rateLimit: { requests: 3, windowSeconds: 60 }, clock: clock() });
    const burst = await Promise.all(Array.from({ length: 5 }, () => emu.api("GET", "/orders")));
    expect(burst.map((res) => res.status).sort()).toEqual([200, 200, 200, 429, 429]);
    const refused = burst.find((res) => res.status === 429)!;
    expect(errorOf(refused)).toMatchObject({ code: "EMU_ERR_RATE_LIMITED", errorClass: "TooManyRequests" });
    expect(refused.text).toContain("this API key may make 3 requests every 60 s");
    expect(refused.headers.get("retry-after")).toBe("60");

    expect((await emu.api("GET", "/orders", undefined, { apiKey: ALICE })).status).toBe(200);
    nowMs += 45_000;
    const later = await emu.api("GET", "/orders");
    expect([later.status, later.headers.get("retry-after")]).toEqual([429, "15"]);
    nowMs += 15_000;
    expect((await emu.api("GET", "/orders")).status).toBe(200);
  });

  test("set, read and turned off at run time over the control API", async () => {
    emu = await startTestEmulator({ control: true, clock: clock() });
    const control = (method: string, body?: unknown) =>
      fetch(emu.baseUrl.replace(/\/r$/, "/__emulator/rate-limit"), {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));

    expect(await control("GET")).toEqual({ status: 200, body: { rateLimit: null } });
    expect(await control("PUT", { requests: 1, windowSeconds: 30 })).toEqual({
      status: 200,
      body: { rateLimit: { requests: 1, windowSeconds: 30 } },
    });
    expect((await emu.api("GET", "/orders")).status).toBe(200);
    expect((await emu.api("GET", "/orders")).status).toBe(429);
    expect(await control("PUT", { requests: null })).toEqual({ status: 200, body: { rateLimit: null } });
    expect((await emu.api("GET", "/orders")).status).toBe(200);

    const bad = await control("PUT", { requests: 5 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("windowSeconds");
  });

  test("the --rate-limit flag: <requests>/<seconds>, and a clear message for anything else", () => {
    expect(parseCliArgs(["--rate-limit", "10/60"])).toMatchObject({
      rateLimit: { requests: 10, windowSeconds: 60 },
    });
    expect(parseCliArgs(["--rate-limit", "20/0.5"])).toMatchObject({
      rateLimit: { requests: 20, windowSeconds: 0.5 },
    });
    expect(() => parseCliArgs(["--rate-limit", "10"])).toThrow(
      "--rate-limit must be <requests>/<seconds>, such as 10/60 (10 requests a minute per API key), not '10'.",
    );
    expect(() => parseCliArgs(["--rate-limit", "0/60"])).toThrow("--rate-limit must be <requests>/<seconds>");
  });
});
