// The engine (pulumi, its language host, the program and the provider host) SIGKILLed in the middle of resize, move,
// reinstall, running state, refresh and delete, each followed by what a user runs next (`pulumi cancel`, `pulumi
// refresh`, then `pulumi up` or `pulumi destroy`): no order leaked or duplicated, the stack never stranded, no update
// half-applied. One stack goes through all six in turn (the state each leaves is where the next starts); the
// emulator is instant (time scale 0) and holds the killed request's answer back so the kill lands after the service
// committed the change. The killed create is test/engine/engine-kill.test.ts; the same scenarios make the
// "engineKilled" column of `npm run fault-matrix`.
//
// Skipped, with the reason in its name, without a CLI: a killed engine's lock, its pending operations and `pulumi
// cancel` exist only in the engine.
import { describeCliOnly } from "./describe-cli";
import { EngineKillRun, type KillResult } from "./engine-kill";

jest.setTimeout(180_000);

const counts = (r: KillResult) => ({
  leaked: r.leaked,
  duplicated: r.duplicated,
  stranded: r.stranded,
  halfApplied: r.halfApplied,
  notes: r.notes,
});
const NOTHING_WRONG = { leaked: 0, duplicated: 0, stranded: 0, halfApplied: 0, notes: [] };

describeCliOnly("the engine killed mid-operation", () => {
  let run: EngineKillRun;

  beforeAll(async () => {
    run = await EngineKillRun.start({ withVps: true });
  });
  afterAll(async () => run?.close());

  // The change was committed but the engine died before recording it: the state still shows the old value,
  // refresh reads the new one, and up has nothing left to do (converge compares with the live order, so the
  // change is not sent twice: a second reinstall would erase the disk again).
  test.each(["resize", "move", "reinstall", "runningState"] as const)(
    "%s: the state keeps the old value until refresh; up converges without repeating the change",
    async (operation) => {
      const r = await run.kill(operation);
      expect(counts(r)).toEqual(NOTHING_WRONG);
      expect(r.seen.target).not.toEqual(r.seen.before);
      expect(String(r.seen.recordedAfterKill)).toBe(String(r.seen.before));
      expect(r.seen.followUpMutations).toEqual([]);
    },
  );

  test("refresh: killed while reading the order; refresh and up then change nothing", async () => {
    const r = await run.kill("refresh");
    expect(counts(r)).toEqual(NOTHING_WRONG);
    expect(r.seen.followUpMutations).toEqual([]);
  });

  test("delete: destroy killed after the cancellation committed; refresh forgets the VPS, destroy finishes", async () => {
    const r = await run.kill("delete");
    expect(counts(r)).toEqual(NOTHING_WRONG);
    expect(r.seen.recordedAfterKill).toBe("in state");
    expect(r.seen.followUpMutations).toEqual([]);
    expect(run.s.emulator.snapshot().find((o) => o.orderOid === r.seen.orderOid)?.cancelled).toBe(true);
  });
});
