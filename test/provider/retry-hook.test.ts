// The onError callback (provider/retry-hook.ts): runs a failed operation again only for the catalogue's temporary
// codes, and only so many times.
import { isTransientError, retryTransientErrors } from "../../provider/index";
import { ERROR_CATALOGUE } from "../../provider/impl/engine/errors";

const retry = retryTransientErrors({ attempts: 3, pauseMs: 1 });
const failed = (...errors: string[]) => ({ errors });

describe("retryTransientErrors", () => {
  test("retries the temporary codes of docs/errors.md, newest error first, while tries are left", async () => {
    const rateLimited =
      "1 error occurred:\n\t* [RIMU_ERR_TRANSIENT] Creating Vps (web1.example.com): Too many requests … 429 Too Many Requests";
    expect(await retry(failed(rateLimited))).toBe(true);
    expect(
      await retry(failed("[RIMU_ERR_TIMEOUT] Updating Vps 12: no response", "[RIMU_ERR_TRANSIENT] …")),
    ).toBe(true);
    // The third error of three: no try left.
    expect(await retry(failed(rateLimited, rateLimited, rateLimited))).toBe(false);
  });

  test("never retries a mistake in the program or the settings, nor an error without a code", async () => {
    for (const text of [
      "[RIMU_ERR_VALIDATION] memoryMb: must be at least 128",
      "[RIMU_ERR_CONFIG] rimuhosting:retryLimit must be at most 20 retries",
      "[RIMU_ERR_BUDGET] over the budget",
      "[RIMU_ERR_NOPE] not a code of the catalogue",
      "connection to the plugin lost",
    ])
      expect({ text, retried: await retry(failed(text)) }).toEqual({ text, retried: false });
    expect(await retry(failed())).toBe(false);
  });

  test("its idea of temporary is the catalogue's", () => {
    const temporary = Object.entries(ERROR_CATALOGUE)
      .filter(([code]) => isTransientError(`[${code}] …`))
      .map(([code]) => code)
      .sort();
    expect(temporary).toEqual([
      "RIMU_ERR_BACKEND_UNREAD",
      "RIMU_ERR_CREATE_OUTCOME_UNKNOWN",
      "RIMU_ERR_RESPONSE_SHAPE",
      "RIMU_ERR_RUN_IN_PROGRESS",
      "RIMU_ERR_TIMEOUT",
      "RIMU_ERR_TRANSIENT",
      "RIMU_ERR_VPS_INCOMPLETE",
    ]);
  });
});
