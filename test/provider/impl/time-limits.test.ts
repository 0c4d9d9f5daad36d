/**
 * L1: the time limit of each operation (impl/engine/time-limits.ts): the `timeouts` input over the engine's timeout
 * (customTimeouts, which the native plugin receives with each request) over the default; and a create whose order
 * takes longer than its limit failing soon after it, naming the limit and where it came from.
 */
import * as impl from "../../../provider/impl/index";
import { limitName, timeLimitOf } from "../../../provider/impl/engine/time-limits";
import { useImplFixture, APP_INPUTS } from "../support/impl-fixture";

describe("which limit an operation gets", () => {
  test("the timeouts input wins over customTimeouts, which wins over the default", () => {
    expect(timeLimitOf("create", 1, { timeoutSeconds: 2 })).toEqual({
      operation: "create",
      ms: 60_000,
      source: "input",
    });
    expect(timeLimitOf("create", undefined, { timeoutSeconds: 2 })).toEqual({
      operation: "create",
      ms: 2_000,
      source: "customTimeouts",
    });
    // The engine sends 0 when the program sets no customTimeouts.
    expect(timeLimitOf("delete", undefined, { timeoutSeconds: 0 })).toEqual({
      operation: "delete",
      ms: 3_600_000,
      source: "default",
    });
    expect(timeLimitOf("update", undefined)).toMatchObject({ ms: 3_600_000, source: "default" });
    expect(timeLimitOf("read", undefined, { timeoutSeconds: 5 })).toEqual({
      operation: "read",
      ms: 5_000,
      source: "customTimeouts",
    });
    expect(timeLimitOf("read", undefined)).toMatchObject({ ms: 30_000, source: "default" });
  });

  test("each limit is named with where it came from", () => {
    expect(limitName(timeLimitOf("create", undefined, { timeoutSeconds: 2 }))).toBe(
      "the create limit of 2 s, from the resource's customTimeouts.create (the Vps `timeouts` input's createMinutes would win over it)",
    );
    expect(limitName(timeLimitOf("update", 90, { timeoutSeconds: 2 }))).toBe(
      "the update limit of 90 min, from the Vps `timeouts` input's updateMinutes",
    );
    expect(limitName(timeLimitOf("delete", undefined))).toBe(
      "the delete limit of 60 min, the default; raise it with the Vps `timeouts` input's deleteMinutes or customTimeouts.delete",
    );
    expect(limitName(timeLimitOf("read", undefined, { timeoutSeconds: 3 }))).toBe(
      "the read limit of 3 s, from the resource's customTimeouts.read",
    );
  });
});

describe("a create slower than its limit", () => {
  const fx = useImplFixture();

  test("fails soon after the engine's limit, naming it; the input's limit wins and waits for the order", async () => {
    // Each of the next two orders is answered after 2 s (the emulator's delay fault).
    fx().emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 2_000, times: 2 });
    const checked = await impl.check({}, { ...APP_INPUTS });
    const error = await impl.create(checked.inputs, { timeoutSeconds: 1 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(
      "POST /orders/new-vps: no response within 1000 ms (the create limit of 1 s, from the resource's customTimeouts.create",
    );
    expect(error?.message).toMatch(/^\[RIMU_ERR_CREATE_OUTCOME_UNKNOWN\] /);
    // The look-ups for the order wait at most the limit again, not the client's minute.
    const lookups = /\((\d+) lookups over (\d+) ms\)/.exec(error?.message ?? "");
    expect(Number(lookups?.[2])).toBeLessThanOrEqual(1000);

    const patient = await impl.check(
      {},
      { ...APP_INPUTS, domainName: "app2.example.com", timeouts: { createMinutes: 1 } },
    );
    const created = await impl.create(patient.inputs, { timeoutSeconds: 1 });
    expect(created.outs.domainName).toBe("app2.example.com");
  });
});
