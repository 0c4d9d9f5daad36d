// The GateClock test helper: a wait goes to the call of nextWait() that is still waiting for one.
import { GateClock } from "./gate-clock.js";
import { rejectionOf } from "./promises.js";

describe("GateClock.nextWait", () => {
  it("after a request ended without waiting (a lost race), the next wait goes to the next call", async () => {
    const clock = new GateClock({ gated: ["sleep"] });
    await rejectionOf(clock.nextWait(Promise.resolve("answered")));
    const sleeping = clock.sleep(1_000);
    const wait = await clock.nextWait();
    expect(wait).toMatchObject({ kind: "sleep", ms: 1_000 });
    wait.open();
    await sleeping;
    expect(clock.pending()).toBe(0);
  });

  it("a wait that started first is handed to the call, and the request's later end is no failure", async () => {
    const clock = new GateClock({ gated: ["sleep"] });
    let finish!: () => void;
    const request = new Promise<void>((resolve) => (finish = resolve));
    const taken = clock.nextWait(request);
    const sleeping = clock.sleep(5);
    const wait = await taken;
    finish();
    wait.open();
    await sleeping;
  });
});
