/**
 * A killed run and the backend it left, in-process against the emulator, for the tests of what the next run does with
 * its order: the next `up` takes it back (take-back.test.ts), `pulumi destroy`'s sweep cancels or names it
 * (destroy-after-killed-run.test.ts), and a destroy that cannot judge it fails (destroy-cannot-judge.test.ts).
 * The backend's states, run records and stack identity are given to the provider (setBackendReader,
 * setStackIdentityReader): in-process there is no backend; the reading of a real one through the CLI is
 * test/engine/killed-runs.test.ts's.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { APP_INPUTS, activeOrderOids, useImplFixture } from "./impl-fixture";
import { RunRecordsStandIn } from "./run-records-stand-in";

/**
 * The hooks and helpers of a file of these tests; call at its top. Each test starts from a fresh emulator, the stack
 * prod of project shop in backend "one-backend", no states given, no run records, and the provider's log lines kept
 * (`lines`).
 */
export function useKilledRuns() {
  const fixture = useImplFixture();
  // A killed run's create ends without its answer (RIMU_ERR_CREATE_OUTCOME_UNKNOWN) after the client's retries of the
  // failing look-up: 1 ms between them instead of the client's backoff, about 3 s of waiting per killed run.
  beforeEach(() => testing.setRetryDelay(1));
  afterEach(() => testing.setRetryDelay(undefined));

  /** The runs from now on are those of the stack of the same names in backend `name` (its own identity), or none. */
  const inBackend = (name: string | undefined) =>
    testing.setStackIdentityReader(async ({ project, stack }) =>
      name === undefined ? { unread: "the CLI failed" } : { mark: `id3-${name}-${project}-${stack}` },
    );
  beforeEach(() => inBackend("one-backend"));

  /** The stack's run records (run-records.ts): the runs of these tests write theirs there. */
  const runRecords = new RunRecordsStandIn();

  /** The backend's states are `stacks`, and some could not be read (`unread`), or all could (undefined). */
  const backend = (stacks: testing.BackendStates["stacks"], unread?: string) =>
    testing.setBackendReader({
      states: async () => (unread === undefined ? { stacks } : { stacks, unread }),
      runs: runRecords.runs,
      recordRun: runRecords.record,
      recordTakeBack: runRecords.recordTakeBack,
    });

  beforeEach(() => {
    runRecords.forget();
    backend([], "no states given");
    testing.setCreateLookupGrace(0);
  });
  afterEach(() => testing.setCreateLookupGrace(undefined));

  const vps = (name: string) => ({
    ...APP_INPUTS,
    domainName: `${name}.example.com`,
    creationScope: `shop/prod/${name}`,
  });

  const active = () => activeOrderOids(fixture());

  /** killedRun's order, and the creation nonce its check gave it (a pending create of its state would carry it). */
  async function killedCreate(name: string): Promise<{ oid: number; nonce: string | undefined }> {
    testing.forgetRun();
    const checked = await impl.check({}, vps(name));
    expect(checked.failures).toBeUndefined();
    const before = await active();
    fixture().emulator.injectFault({ route: "createVps", kind: "drop-after-commit" });
    fixture().emulator.injectFault({ route: "listOrders", kind: "status", status: 503, times: 50 });
    await impl.create(checked.inputs).catch(() => undefined);
    fixture().emulator.app.emulator.faults.clear();
    testing.forgetRun();
    const placed = (await active()).filter((oid) => !before.includes(oid));
    expect(placed).toHaveLength(1);
    return { oid: placed[0]!, nonce: (checked.inputs as { __creationNonce?: string }).__creationNonce };
  }

  return {
    fixture,
    runRecords,
    inBackend,
    backend,
    vps,
    /** The account's active orders, by number. */
    active,
    killedCreate,
    /**
     * The run that is killed: check() and create() of `name`, the create's answer lost for good (the engine dies
     * before it could record anything), so the order is billed and in no state. Returns its order number.
     */
    killedRun: async (name: string): Promise<number> => (await killedCreate(name)).oid,

    /** The next `pulumi up` of the stack: a preview's check, then check and create. */
    async nextUp(name: string) {
      testing.forgetRun();
      const preview = await impl.checkVps({}, { ...vps(name), __preview: true });
      testing.forgetRun();
      const checked = await impl.check({}, vps(name));
      return { preview, checked, created: checked.failures ? undefined : impl.create(checked.inputs) };
    },

    /** An `up` that recorded `name`: its id and outputs, as the state holds them (`finished`: the up finished). */
    async recorded(name: string, finished = true) {
      testing.forgetRun();
      const before = runRecords.ids();
      const checked = await impl.check({}, vps(name));
      const created = await impl.create(checked.inputs);
      // The `up` finished: its state held the VPS (the engine's history records the operation).
      if (finished) runRecords.finish(...runRecords.ids().filter((id) => !before.includes(id)));
      return created;
    },

    /** The stack's run records cannot be read (`why`), or can (undefined). */
    runsUnread(why: string | undefined) {
      runRecords.unread = why;
    },

    /** The provider's log lines in this test. */
    lines: () => fixture().logs,
  };
}

/** The state of stack prod holding `web0`. */
export const held = (web0: { id: string }) => ({
  stack: "prod",
  resources: [{ type: "rimuhosting:index:Vps", id: web0.id, outputs: { orderOid: Number(web0.id) } }],
});
