import { inspect } from "node:util";
import {
  DEFAULT_BASE_URL,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUTS,
  RimuConfigError,
  createClient,
  resolveClientConfig,
} from "../../provider/client/index.js";

describe("resolveClientConfig", () => {
  it("fills defaults", () => {
    const resolved = resolveClientConfig({});
    expect(resolved.baseUrl).toBe(DEFAULT_BASE_URL);
    expect(resolved.timeouts).toEqual(DEFAULT_TIMEOUTS);
    expect(resolved.retry).toEqual(DEFAULT_RETRY);
  });

  it("overrides per field and strips a trailing slash", () => {
    const resolved = resolveClientConfig({
      baseUrl: "http://127.0.0.1:8080/r/",
      timeouts: { readMs: 5 },
      retry: { limit: 0 },
    });
    expect(resolved.baseUrl).toBe("http://127.0.0.1:8080/r");
    expect(resolved.timeouts).toEqual({ ...DEFAULT_TIMEOUTS, readMs: 5 });
    expect(resolved.retry).toEqual({ ...DEFAULT_RETRY, limit: 0 });
  });

  it.each([
    ["https://rimuhosting.com", "https://rimuhosting.com/r"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080/r"],
    ["http://127.0.0.1:8080/r", "http://127.0.0.1:8080/r"],
    ["https://proxy.example.com/rimu/r/", "https://proxy.example.com/rimu/r"],
  ])("reads the base URL %s as the API root %s (a bare server root means its /r)", (baseUrl, root) => {
    expect(resolveClientConfig({ baseUrl }).baseUrl).toBe(root);
  });

  it.each([
    ["not a url", { baseUrl: "rimuhosting.com/r" }, "baseUrl", /such as https:\/\/rimuhosting\.com\/r/],
    ["ftp", { baseUrl: "ftp://example.com/r" }, "baseUrl", /must be an http\(s\) URL/],
    ["credentials in url", { baseUrl: "https://user:pw@example.com/r" }, "baseUrl", /without credentials/],
    ["negative timeout", { timeouts: { readMs: -1 } }, "timeouts.readMs", /at least 1 ms|0 or more/],
    [
      "fractional timeout",
      { timeouts: { mutationMs: 1.5 } },
      "timeouts.mutationMs",
      /whole number of milliseconds/,
    ],
    ["retry limit", { retry: { limit: 100 } }, "retry.limit", /at most 20 retries/],
    ["log not a function", { log: "yes" }, "log", /must be a function/],
    ["empty key", { apiKey: "" }, "apiKey", /must not be empty/],
  ])("refuses %s, naming the field and what is wrong", (_name, config, field, wrong) => {
    let caught: unknown;
    try {
      resolveClientConfig(config as never);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RimuConfigError);
    expect(caught).toMatchObject({ code: "RIMU_ERR_CONFIG", fieldName: field });
    expect((caught as Error).message).toContain(field);
    expect((caught as Error).message).toMatch(wrong);
  });

  it("never echoes a malformed key", () => {
    const key = "abc def-secret";
    let caught: unknown;
    try {
      createClient({ apiKey: key });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RimuConfigError);
    const text = `${(caught as Error).message} ${JSON.stringify(caught)} ${inspect(caught)}`;
    expect(text).toContain("apiKey");
    expect(text).not.toContain("def-secret");
  });
});
