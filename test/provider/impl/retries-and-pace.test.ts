/**
 * L1: the provider settings `retryLimit` and `requestsPerSecond` (impl/engine/retry-settings.ts): read from the stack
 * config or an explicit provider's arguments, else their environment variables, refused with a message naming the
 * setting; and used by the client: 20 VPSs created at once against an emulator that limits the API key's requests
 * (10 per second) all succeed with the pace docs/installation-configuration.md gives and no retries, and fail with the
 * rate limit named and the settings to change with neither.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { checkConfig } from "../../../provider/native/provider-config";
import { DEMO_API_KEY, startEmulator, type RunningEmulator } from "../../../emulator/index";
import { APP_INPUTS } from "../support/impl-fixture";

/**
 * The emulator's quota in these tests: 10 requests per API key per second (20 creates make about 25 requests); for the
 * burst without pace or retries, 10 per minute, which it goes past however slowly the test's process sends it.
 */
const QUOTA = { requests: 10, windowSeconds: 1 };
const BURST_QUOTA = { requests: 10, windowSeconds: 60 };

let emulator: RunningEmulator;
beforeEach(async () => {
  delete process.env.RIMUHOSTING_RETRYLIMIT;
  delete process.env.RIMUHOSTING_REQUESTSPERSECOND;
  emulator = await startEmulator({ timeScale: 0, seed: 11, rateLimit: QUOTA });
});
afterEach(async () => {
  delete process.env.RIMUHOSTING_RETRYLIMIT;
  delete process.env.RIMUHOSTING_REQUESTSPERSECOND;
  testing.resetConfiguration();
  await emulator.close();
});

async function configureWith(settings: Record<string, string>): Promise<void> {
  testing.resetConfiguration();
  const values: Record<string, string> = {
    "rimuhosting:apiKey": DEMO_API_KEY,
    "rimuhosting:baseUrl": emulator.baseUrl,
    ...settings,
  };
  await impl.configure({ config: { get: (key) => values[key] } });
  testing.setLogSink(() => {});
}

/** Checks and creates VPS number `n` of a fleet, as the engine does. */
async function createVps(n: number) {
  const inputs = { ...APP_INPUTS, domainName: `app${n}.example.com`, creationScope: `shop/prod/app${n}` };
  const checked = await impl.check({}, inputs);
  if (checked.failures) throw new Error(JSON.stringify(checked.failures));
  return impl.create(checked.inputs);
}

const createFleet = () => Promise.allSettled(Array.from({ length: 20 }, (_, n) => createVps(n + 1)));

describe("retryLimit and requestsPerSecond", () => {
  test("the pace alone, no retries: 20 VPSs created at once all succeed under the rate limit", async () => {
    // The docs' pace, half the quota (5 a second for 10), with retryLimit 0: one 429 would fail a create, so only the
    // pace brings the burst through (the retry limit alone, through the CLI: test/engine/native-retries-timeouts.test.ts).
    // Half: a pause of the test's process long enough to send 11 paced requests within one window would have to last
    // a second.
    await configureWith({ "rimuhosting:retryLimit": "0", "rimuhosting:requestsPerSecond": "5" });
    const started = performance.now();
    const results = await createFleet();
    // The fleet's last create cannot start before its turn: 20 requests at 5 a second.
    expect(performance.now() - started).toBeGreaterThanOrEqual((19 * 1000) / 5 - 5);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    // The pace kept the burst under the quota: not one request was refused.
    expect(emulator.requestLog().filter((entry) => entry.status === 429)).toEqual([]);
    expect(emulator.snapshot().filter((o) => !o.cancelled)).toHaveLength(20);
  });

  test("with retryLimit 0, a burst past the quota fails with the rate limit and the settings named", async () => {
    await emulator.close();
    emulator = await startEmulator({ timeScale: 0, seed: 11, rateLimit: BURST_QUOTA });
    await configureWith({ "rimuhosting:retryLimit": "0" });
    const results = await createFleet();
    const failures = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as Error).message] : []));
    expect(failures.length).toBeGreaterThan(0);
    expect(emulator.requestLog().some((entry) => entry.status === 429)).toBe(true);
    for (const message of failures) {
      expect(message).toMatch(/^\[RIMU_ERR_TRANSIENT\] /);
      expect(message).toContain(
        "RimuHosting limits how many requests an API key may make (429 Too Many Requests",
      );
      expect(message).toContain("the only attempt was refused: raise rimuhosting:retryLimit");
      expect(message).toContain("or set rimuhosting:requestsPerSecond below the account's quota.");
      expect(message).not.toContain(DEMO_API_KEY);
    }
  });

  test("a bad value fails every operation, naming the setting as written (stack config or variable)", async () => {
    await configureWith({ "rimuhosting:retryLimit": "50" });
    await expect(createVps(1)).rejects.toThrow(
      '[RIMU_ERR_CONFIG] Checking Vps: rimuhosting:retryLimit must be at most 20 retries (given: \\"50\\"): ' +
        "fix it in the stack config, or remove it for the default.",
    );
    await expect(impl.create({ ...APP_INPUTS })).rejects.toThrow(
      '[RIMU_ERR_CONFIG] Creating Vps (app1.example.com): rimuhosting:retryLimit must be at most 20 retries (given: "50")',
    );

    process.env.RIMUHOSTING_REQUESTSPERSECOND = "fast";
    await configureWith({});
    await expect(impl.create({ ...APP_INPUTS })).rejects.toThrow(
      'RIMUHOSTING_REQUESTSPERSECOND must be a number, such as 5 (given: "fast"): fix it in the environment ' +
        "(the variable is read when rimuhosting:requestsPerSecond is not set), or remove it for the default.",
    );
    expect(emulator.snapshot()).toEqual([]);
  });

  test("the native plugin's CheckConfig refuses them before anything runs, naming an explicit provider's argument", () => {
    const urn = "urn:pulumi:dev::shop::pulumi:providers:rimuhosting::alice";
    const { failures } = checkConfig(urn, { apiKey: DEMO_API_KEY, retryLimit: -1, requestsPerSecond: 0 });
    expect(failures.map((f) => f.reason)).toEqual([
      "[RIMU_ERR_CONFIG] provider 'alice': retryLimit must be 0 (no retries) to 20 (given: -1): fix it in the " +
        "arguments of provider 'alice' in the program, or remove it for the default.",
      "[RIMU_ERR_CONFIG] provider 'alice': requestsPerSecond must be more than 0 requests per second, such as 5 " +
        "(given: 0): fix it in the arguments of provider 'alice' in the program, or remove it for the default.",
    ]);
    expect(checkConfig(urn, { retryLimit: 8, requestsPerSecond: "2.5" }).failures).toEqual([]);
  });
});
