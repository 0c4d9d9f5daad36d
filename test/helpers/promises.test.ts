import { rejectionOf, until } from "./promises";

describe("rejectionOf", () => {
  it("gives the error a promise rejects with", async () => {
    const error = new RangeError("no");
    expect(await rejectionOf(Promise.reject(error), RangeError)).toBe(error);
  });

  it("fails when the promise resolves, saying with what", async () => {
    await expect(rejectionOf(Promise.resolve({ ok: 1 }))).rejects.toThrow(
      "expected the promise to reject, but it resolved with { ok: 1 }",
    );
  });

  it("fails when the error is not of the class asked for", async () => {
    await expect(rejectionOf(Promise.reject(new Error("plain")), RangeError)).rejects.toThrow(
      /expected a RangeError, but the promise rejected with Error: plain/,
    );
  });
});

describe("until", () => {
  it("resolves once the condition holds", async () => {
    let calls = 0;
    await until("the third call", () => ++calls === 3, { intervalMs: 1 });
    expect(calls).toBe(3);
  });

  it("fails after its timeout (scaled to this machine: test/helpers/deadlines.ts), naming what it waited for", async () => {
    await expect(until("nothing", () => false, { timeoutMs: 20, intervalMs: 5 })).rejects.toThrow(
      /timed out after \d+ ms waiting for nothing/,
    );
  });
});
