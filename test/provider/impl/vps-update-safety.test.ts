/**
 * L1: an update runs step by step. Every change is validated before the first call; a distro the catalogue
 * does not list makes the reinstall the first step, so its refusal changes nothing; a step that fails after
 * an earlier one changed the VPS is recorded with what was done, and the next up finishes the rest; a lost
 * response to an idempotent change is reconciled by reading the order. Against the real emulator, with its
 * fault injection.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import {
  APP_INPUTS,
  DEMO_API_KEY,
  createChecked,
  rejectionOf,
  stackConfig,
  unchecked,
  useImplFixture,
} from "../support/impl-fixture";

const PROGRAM = APP_INPUTS;
const fixture = useImplFixture();
const mutations = () =>
  fixture()
    .emulator.requestLog()
    .filter((r) => r.method !== "GET");
const failure = rejectionOf;

describe("an update is checked before its first call, and a partial one is recorded and finished", () => {
  it("a misspelled distro next to a resize: the reinstall goes first, is refused, nothing changes; the message names distro and gives no retry advice", async () => {
    const created = await createChecked(PROGRAM);
    const news = { ...PROGRAM, memoryMb: 2048, distro: "deb12.46", allowReinstall: true };
    const checked = await impl.check(created.inputs, news);
    expect(checked.failures).toBeUndefined(); // unlisted codes may be valid: a warning, not a failure
    const before = mutations().length;
    const error = await failure(impl.update(created.id, created.outs as never, checked.inputs));
    expect(error.id).toBeUndefined(); // a plain error: the old state stands
    expect(error.code).toBe("RIMU_ERR_VALIDATION");
    expect(error.message).toMatch(
      /^\[RIMU_ERR_VALIDATION\] VPS order \d+ \(app1\.example\.com\): distro 'deb12\.46' is not a distribution/,
    );
    expect(error.message).toContain("Fix the input named above");
    expect(error.message).not.toMatch(/instantiation_options|pulumi up again|Try again later|\n\s+at /);
    expect(error.message).not.toContain(DEMO_API_KEY);
    expect(
      mutations()
        .slice(before)
        .map((r) => r.route),
    ).toEqual(["reinstallVps"]);
    const live = (await fixture().byHand.getOrder(Number(created.id))).about_order;
    expect(live.vps_parameters?.memory_mb).toBe(1024);
    expect(live.distro).toBe("deb12.64");
  });

  it("a transient failure in the middle (resize done, move 503) is recorded with __provider and finished by the next up", async () => {
    const created = await createChecked(PROGRAM);
    const otherHost = created.outs.hostServerOid === "835" ? "764" : "835";
    const news = { ...created.inputs, memoryMb: 2048, hostServerOid: otherHost };
    fixture().emulator.injectFault({ route: "moveVps", kind: "status", status: 503 });
    const error = await failure(impl.update(created.id, created.outs as never, news));
    expect(error.id).toBe(created.id);
    expect(error.code).toBe("RIMU_ERR_VPS_INCOMPLETE");
    expect(error.message).toContain("This is temporary");
    expect(error.properties).toMatchObject({ memoryMb: 2048, __provider: "text" });
    const resumed = await impl.update(created.id, error.properties, news);
    expect(resumed.outs).toMatchObject({ memoryMb: 2048, hostServerOid: otherHost });
  });

  it("a resize whose response is lost is retried, answered 'the requested sizes are the current sizes', and counts as done", async () => {
    const created = await createChecked(PROGRAM);
    fixture().emulator.injectFault({ route: "changeParameters", kind: "drop-after-commit" });
    fixture().logs.length = 0;
    const { outs } = await impl.update(created.id, created.outs as never, {
      ...created.inputs,
      memoryMb: 2048,
    });
    expect(outs.memoryMb).toBe(2048);
    expect(fixture().logs.join("\n")).toContain("the order already has the requested sizes");
  });

  it("refresh after a partial create works from the recorded properties; the order vanishing is dropped by refresh, and up orders anew", async () => {
    fixture().emulator.injectFault({ route: "setRunningState", kind: "status", status: 500 });
    const checked = await impl.check({}, { ...PROGRAM, runningState: "NOTRUNNING" });
    const error = await failure(impl.create(checked.inputs));
    expect(error.properties.__provider).toBe("text");
    const refreshed = await impl.read(error.id, error.properties);
    expect(refreshed.id).toBe(error.id);
    await fixture().byHand.deleteVps(Number(error.id)); // cancelled outside Pulumi
    testing.forgetRun(); // the next `pulumi refresh`: a new provider host, whose reads list the account anew
    expect(await impl.read(error.id, error.properties)).toEqual({});
    testing.forgetRun(); // `pulumi up` after `pulumi refresh`: a new provider host
    // The engine drops it; the next up creates (check with no olds: a fresh nonce, no foreign order active).
    const again = await createChecked({ ...PROGRAM, runningState: "NOTRUNNING" });
    expect(again.outs.runningState).toBe("NOTRUNNING");
  });
});

describe("messages give the right advice", () => {
  it("a wrong API key says to fix the key, never to try again later, and names no wire field", async () => {
    testing.resetConfiguration();
    await impl.configure({ config: stackConfig(fixture().emulator.baseUrl, "wrong-key-0123456789") });
    const error = await rejectionOf<impl.VpsError>(
      impl.create({ ...PROGRAM, __creationNonce: "0".repeat(32) }),
    );
    expect(error.code).toBe("RIMU_ERR_AUTH");
    expect(error.message).toMatch(/^\[RIMU_ERR_AUTH\] Creating Vps \(app1\.example\.com\): /);
    expect(error.message).toContain("pulumi config set --secret rimuhosting:apiKey");
    expect(error.message).not.toMatch(/try again later|run the same|wrong-key-0123456789|\n\s+at /i);
    expect(fixture().emulator.snapshot()).toEqual([]);
  });

  it("a 503 that outlasts the retries says it is temporary", async () => {
    const created = await createChecked(PROGRAM);
    fixture().emulator.injectFault({ route: "changeParameters", kind: "status", status: 503, times: 10 });
    const error = await rejectionOf<impl.VpsError>(
      impl.update(created.id, created.outs as never, { ...created.inputs, memoryMb: 2048 }),
    );
    expect(error.code).toBe("RIMU_ERR_TRANSIENT");
    expect(error.message).toContain("This is temporary: run the same pulumi command again");
  });
});

describe("a change committed but never recorded (the engine killed before its answer): refresh, then up sends nothing", () => {
  // The engine's part (a killed run, `pulumi cancel`, the state keeping the old value until `pulumi refresh`) is shown
  // through the CLI once, on a resize (test/engine/engine-kill.test.ts). The follow-up for each other in-place change
  // is the provider's: read() records what the killed run did, and the diff of the program against that plans
  // nothing, so the change is never sent twice (a second reinstall would erase the disk again).
  const BEFORE = { ...PROGRAM, hostServerOid: "764", runningState: "RUNNING", allowReinstall: true };
  const KILLED: {
    operation: string;
    program: Record<string, unknown>;
    commit(oid: number): Promise<unknown>;
  }[] = [
    {
      operation: "move",
      program: { hostServerOid: "835" },
      commit: (oid) =>
        fixture().byHand.moveVps(oid, { selected_host_server_oid: "835", is_update_dns: false }),
    },
    {
      operation: "reinstall",
      program: { distro: "deb13.64" },
      commit: (oid) =>
        fixture().byHand.reinstallVps(oid, {
          instantiation_options: { distro: "deb13.64" },
          vps_parameters: { memory_mb: null, disk_space_mb: null },
          dc_location: null,
        }),
    },
    {
      operation: "runningState",
      program: { runningState: "NOTRUNNING" },
      commit: (oid) => fixture().byHand.setRunningState(oid, "NOTRUNNING"),
    },
  ];

  it.each(KILLED)(
    "$operation: refresh reads it, and the plan of the program asking for it is empty",
    async (killed) => {
      const created = await createChecked(BEFORE);
      await killed.commit(Number(created.id));
      const mark = mutations().length;
      testing.forgetRun(); // `pulumi refresh`: a new provider host
      const refreshed = await impl.read(created.id, created.outs as never);
      expect(refreshed.props).toMatchObject(killed.program);
      testing.forgetRun(); // `pulumi up`: another
      const program = await impl.check(
        refreshed.inputs ?? created.inputs,
        unchecked({ ...BEFORE, ...killed.program }),
      );
      expect(program.failures).toBeUndefined();
      const planned = await impl.diff(created.id, refreshed.props as never, program.inputs);
      expect(planned.changes).toBe(false);
      expect(mutations().slice(mark)).toEqual([]);
    },
  );
});
