/**
 * Every error class, produced by the real emulator, and the rule that the API key is in none of them
 * (message, JSON, util.inspect, cause chain) and in no log line.
 */
import {
  RimuAuthError,
  RimuConflictError,
  RimuError,
  RimuNotFoundError,
  RimuTimeoutError,
  RimuTransientError,
  RimuValidationError,
} from "../../provider/client/index.js";
import { expectNoSecret, visibleText } from "./support/secrets.js";
import { DEMO_ACCOUNTS, newVpsRequest, startClientFixture, type ClientFixture } from "./support/emulator.js";
import { rejectionOf } from "../helpers/promises.js";

let fx: ClientFixture;
const seen: unknown[] = [];

async function failure(promise: Promise<unknown>): Promise<RimuError> {
  const error = await rejectionOf(promise, RimuError);
  seen.push(error);
  return error;
}

beforeEach(async () => {
  fx = await startClientFixture();
});

afterEach(async () => {
  await fx.close();
  const keys = DEMO_ACCOUNTS.map((a) => a.apiKey);
  for (const key of keys) {
    expectNoSecret(fx.logs, key);
    for (const error of seen) expectNoSecret(visibleText(error), key);
  }
  seen.length = 0;
});

describe("client errors from the emulator", () => {
  it("403 with a wrong key -> RimuAuthError with the service's error_class", async () => {
    const wrongKey = "0000-not-a-real-key-SECRET";
    const client = fx.clientWith({ apiKey: wrongKey });
    const error = await failure(client.listOrders());
    expect(error).toBeInstanceOf(RimuAuthError);
    expect(error).toMatchObject({ code: "RIMU_ERR_AUTH", status: 403, endpoint: "GET /orders" });
    expect(["PermissionException", "LoginRequired"]).toContain(error.errorClass);
    expect(error.humanMessage).toBeTruthy();
    expectNoSecret(visibleText(error), wrongKey);
    expectNoSecret(fx.logs, wrongKey);
  });

  it("404 for a missing order, and the same 404 for another account's order", async () => {
    const missing = await failure(fx.client.getOrder(99_999_999));
    expect(missing).toBeInstanceOf(RimuNotFoundError);
    expect(missing).toMatchObject({
      code: "RIMU_ERR_NOT_FOUND",
      status: 404,
      endpoint: "GET /orders/{order}",
    });

    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    const other = fx.clientWith({ apiKey: DEMO_ACCOUNTS[1]!.apiKey });
    const foreign = await failure(other.getOrder(oid));
    expect(foreign).toBeInstanceOf(RimuNotFoundError);
    expect(foreign.status).toBe(404);
    expect(fx.emulator.snapshot()[0]!.runningState).toBe("RUNNING");
  });

  it("400 with the offending field -> RimuValidationError.fieldName", async () => {
    const error = await failure(
      fx.client.createVps({ ...newVpsRequest(), instantiation_options: { domain_name: "not a domain" } }),
    );
    expect(error).toBeInstanceOf(RimuValidationError);
    expect(error).toMatchObject({
      code: "RIMU_ERR_VALIDATION",
      status: 400,
      endpoint: "POST /orders/new-vps",
    });
    expect(error.fieldName).toMatch(/domain_name/);
    expect(error.message).toContain(`(field: ${error.fieldName})`);
    expect(fx.emulator.snapshot()).toHaveLength(0);
    // A definite 4xx on create is never retried.
    expect(fx.emulator.requestLog().filter((r) => r.route === "createVps")).toHaveLength(1);
  });

  it("a request the contract rejects is refused before sending, naming the field", async () => {
    const error = await failure(fx.client.changeParameters(1, { memory_mb: "lots" as unknown as number }));
    expect(error).toBeInstanceOf(RimuValidationError);
    expect(error.fieldName).toBe("memory_mb");
    expect(error.status).toBeUndefined();
    expect(fx.emulator.requestLog()).toHaveLength(0);
  });

  it("409 for a disk shrink -> RimuConflictError", async () => {
    const oid = (await fx.client.createVps(newVpsRequest())).about_order.order_oid;
    const error = await failure(fx.client.changeParameters(oid, { disk_space_mb: 2048 }));
    expect(error).toBeInstanceOf(RimuConflictError);
    expect(error).toMatchObject({
      code: "RIMU_ERR_CONFLICT",
      status: 409,
      endpoint: "PUT /orders/{order}/vps/parameters",
    });
    expect(error.humanMessage).toBeTruthy();
  });

  it("503 that persists -> RimuTransientError after the retry limit", async () => {
    fx.emulator.injectFault({ route: "listOrders", kind: "status", status: 503, times: 10 });
    const error = await failure(fx.client.listOrders());
    expect(error).toBeInstanceOf(RimuTransientError);
    expect(error).toMatchObject({ code: "RIMU_ERR_TRANSIENT", status: 503, attempts: 4 });
    expect(fx.emulator.requestLog().filter((r) => r.route === "listOrders")).toHaveLength(4);
  });

  it("a slow response -> RimuTimeoutError naming the timeout option", async () => {
    const client = fx.clientWith({ timeouts: { readMs: 50 }, retry: { limit: 0 } });
    fx.emulator.injectFault({ route: "getOrder", kind: "delay", delayMs: 1000 });
    const error = await failure(client.getOrder(1));
    expect(error).toBeInstanceOf(RimuTimeoutError);
    expect(error).toMatchObject({ code: "RIMU_ERR_TIMEOUT", networkCode: "ETIMEDOUT", attempts: 1 });
    expect(error.message).toContain("timeouts.readMs");
  });
});
