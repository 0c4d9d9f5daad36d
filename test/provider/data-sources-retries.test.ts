/**
 * L1: a TypeScript program's data sources take the retry and pace settings as the Vps takes them
 * (provider/impl/lifecycle/runtime-config.ts, useProgramSettings): `rimuhosting:retryLimit` and
 * `rimuhosting:requestsPerSecond` from the program's stack config, else RIMUHOSTING_RETRYLIMIT and
 * RIMUHOSTING_REQUESTSPERSECOND, against an emulator that limits the API key's requests. Without them the client's
 * defaults (3 retries, no pace) would let a refused burst through and send it past the quota.
 */
import * as pulumi from "@pulumi/pulumi";
import { DEMO_API_KEY, startEmulator, type RunningEmulator } from "../../emulator/index";
import { getBillingMethods } from "../../provider/index";
import * as testing from "../../provider/impl/testing";

/** A burst of 6 calls. */
const BURST = 6;
/**
 * The quotas: for the retries, 4 requests per minute, which the burst goes past however slowly it is sent; for the
 * pace, 4 requests a second, and a pace of half that (2 a second: a pause of the test's process long enough to send
 * 5 paced requests within one window would have to last a second).
 */
const RETRY_QUOTA = { requests: 4, windowSeconds: 60 };
const PACE_QUOTA = { requests: 4, windowSeconds: 1 };
const PACE = 2;
const ENV_VARS = ["RIMUHOSTING_RETRYLIMIT", "RIMUHOSTING_REQUESTSPERSECOND"];

let emulator: RunningEmulator | undefined;
const startWith = async (rateLimit: { requests: number; windowSeconds: number }) => {
  emulator = await startEmulator({ timeScale: 0, seed: 11, rateLimit });
  return emulator;
};
beforeEach(() => {
  for (const name of ENV_VARS) delete process.env[name];
});
afterEach(async () => {
  for (const name of ENV_VARS) delete process.env[name];
  testing.resetConfiguration();
  await emulator?.close();
  emulator = undefined;
});

/** The program's stack config: the emulator, its demo key, and `settings`. */
function programConfig(settings: Record<string, string> = {}): void {
  pulumi.runtime.setAllConfig({
    "rimuhosting:apiKey": DEMO_API_KEY,
    "rimuhosting:baseUrl": emulator!.baseUrl,
    ...settings,
  });
}

/** The burst's failures' messages. */
async function burst(): Promise<string[]> {
  const results = await Promise.allSettled(Array.from({ length: BURST }, () => getBillingMethods()));
  return results.flatMap((r) => (r.status === "rejected" ? [(r.reason as Error).message] : []));
}

const refused = (): number => emulator!.requestLog().filter((entry) => entry.status === 429).length;

/** The burst, paced: it cannot end before the last call's turn, (BURST - 1) / PACE seconds after it started. */
async function pacedBurst(): Promise<string[]> {
  const started = performance.now();
  const failures = await burst();
  expect(performance.now() - started).toBeGreaterThanOrEqual(((BURST - 1) * 1000) / PACE - 5);
  return failures;
}

describe("the data sources' retries and pace", () => {
  test("retryLimit 0 in the program's config: a burst past the quota fails, naming the rate limit and the settings", async () => {
    await startWith(RETRY_QUOTA);
    programConfig({ "rimuhosting:retryLimit": "0" });
    const failures = await burst();
    // The quota's 4 pass; each of the other 2 was refused once and not sent again.
    expect(failures).toHaveLength(BURST - RETRY_QUOTA.requests);
    expect(refused()).toBe(BURST - RETRY_QUOTA.requests);
    for (const message of failures) {
      expect(message).toMatch(/^\[RIMU_ERR_TRANSIENT\] getBillingMethods: /);
      expect(message).toContain(
        "RimuHosting limits how many requests an API key may make (429 Too Many Requests, asking to wait",
      );
      expect(message).toContain(
        "and the only attempt was refused: raise rimuhosting:retryLimit (how many times a request is sent again), " +
          "or set rimuhosting:requestsPerSecond below the account's quota. This is temporary",
      );
      expect(message).not.toContain(DEMO_API_KEY);
    }
  });

  test("RIMUHOSTING_RETRYLIMIT when the config has none: the message names the variable", async () => {
    await startWith(RETRY_QUOTA);
    process.env.RIMUHOSTING_RETRYLIMIT = "0";
    programConfig();
    const failures = await burst();
    expect(failures).toHaveLength(BURST - RETRY_QUOTA.requests);
    for (const message of failures) expect(message).toContain("refused: raise RIMUHOSTING_RETRYLIMIT (how");
  });

  test("requestsPerSecond under the quota, no retries: the same burst is paced and never refused", async () => {
    // The pace alone (retryLimit 0: a single 429 would fail a call).
    await startWith(PACE_QUOTA);
    programConfig({ "rimuhosting:retryLimit": "0", "rimuhosting:requestsPerSecond": String(PACE) });
    expect(await pacedBurst()).toEqual([]);
    expect(refused()).toBe(0);
    expect(emulator!.requestLog().filter((entry) => entry.route === "listBillingMethods")).toHaveLength(
      BURST,
    );
  });

  test("RIMUHOSTING_REQUESTSPERSECOND paces the burst too; a bad value fails the call, naming the setting", async () => {
    await startWith(PACE_QUOTA);
    process.env.RIMUHOSTING_REQUESTSPERSECOND = String(PACE);
    programConfig({ "rimuhosting:retryLimit": "0" });
    expect(await pacedBurst()).toEqual([]);
    expect(refused()).toBe(0);

    programConfig({ "rimuhosting:requestsPerSecond": "fast" });
    await expect(getBillingMethods()).rejects.toThrow(
      '[RIMU_ERR_CONFIG] getBillingMethods: rimuhosting:requestsPerSecond must be a number, such as 5 (given: "fast"): ' +
        "fix it in the stack config, or remove it for the default.",
    );
  });
});
