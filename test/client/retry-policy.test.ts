import { ENDPOINTS } from "../../contract/index.js";
import {
  RETRY_POLICY,
  RETRY_RULES,
  RUNNING_STATE_RETRY,
  isRetryable,
  timeoutMs,
} from "../../provider/client/index.js";

describe("RETRY_POLICY", () => {
  it("covers every endpoint of the contract", () => {
    expect(Object.keys(RETRY_POLICY).sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  it("retries every GET on transient failures and never retries POST new-vps in the transport", () => {
    for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
      const policy = RETRY_POLICY[name as keyof typeof RETRY_POLICY];
      if (endpoint.method === "GET") expect([name, policy.retry]).toEqual([name, "read"]);
      if (endpoint.method === "POST") expect([name, policy.retry]).toEqual([name, "never"]);
    }
  });

  it("treats reboots as actions and target states as idempotent", () => {
    expect(RUNNING_STATE_RETRY.RUNNING).toBe("idempotentWrite");
    expect(RUNNING_STATE_RETRY.NOTRUNNING).toBe("idempotentWrite");
    expect(RUNNING_STATE_RETRY.RESTARTING).toBe("action");
    expect(RUNNING_STATE_RETRY.POWERCYCLING).toBe("action");
  });
});

describe("isRetryable", () => {
  it("read: 429/502/503/504, connection errors and timeouts", () => {
    for (const status of [429, 502, 503, 504]) expect(isRetryable(RETRY_RULES.read, { status })).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 500, 501]) {
      expect(isRetryable(RETRY_RULES.read, { status })).toBe(false);
    }
    expect(isRetryable(RETRY_RULES.read, { networkCode: "ECONNRESET" })).toBe(true);
    expect(isRetryable(RETRY_RULES.read, { networkCode: "ECONNREFUSED" })).toBe(true);
    expect(isRetryable(RETRY_RULES.read, { networkCode: "ERR_SOMETHING" })).toBe(false);
    expect(isRetryable(RETRY_RULES.read, { timedOut: true })).toBe(true);
  });

  it("idempotent writes: like reads but never after a timeout", () => {
    expect(isRetryable(RETRY_RULES.idempotentWrite, { status: 503 })).toBe(true);
    expect(isRetryable(RETRY_RULES.idempotentWrite, { networkCode: "ECONNRESET" })).toBe(true);
    expect(isRetryable(RETRY_RULES.idempotentWrite, { timedOut: true })).toBe(false);
  });

  it("actions: only when the server certainly did nothing", () => {
    expect(isRetryable(RETRY_RULES.action, { status: 429 })).toBe(true);
    expect(isRetryable(RETRY_RULES.action, { networkCode: "ECONNREFUSED" })).toBe(true);
    expect(isRetryable(RETRY_RULES.action, { status: 503 })).toBe(false);
    expect(isRetryable(RETRY_RULES.action, { networkCode: "ECONNRESET" })).toBe(false);
    expect(isRetryable(RETRY_RULES.action, { timedOut: true })).toBe(false);
  });

  it("never: nothing", () => {
    expect(isRetryable(RETRY_RULES.never, { status: 429 })).toBe(false);
    expect(isRetryable(RETRY_RULES.never, { networkCode: "ECONNREFUSED" })).toBe(false);
  });
});

describe("timeoutMs", () => {
  const timeouts = { readMs: 30_000, mutationMs: 3_600_000, movePerGbMs: 600_000 };

  it("sizes reads short and mutations long", () => {
    expect(timeoutMs("read", timeouts)).toBe(30_000);
    expect(timeoutMs("mutation", timeouts)).toBe(3_600_000);
  });

  it("gives a move the mutation timeout plus movePerGbMs per GB of used disk", () => {
    expect(timeoutMs("move", timeouts)).toBe(3_600_000);
    expect(timeoutMs("move", timeouts, 0)).toBe(3_600_000);
    expect(timeoutMs("move", timeouts, 1024)).toBe(3_600_000 + 600_000);
    expect(timeoutMs("move", timeouts, 20 * 1024)).toBe(3_600_000 + 20 * 600_000);
    expect(timeoutMs("move", { ...timeouts, mutationMs: 1 }, 512)).toBe(1 + 300_000);
  });
});
