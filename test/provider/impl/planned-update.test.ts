/**
 * I6 (docs/cost.md, "A change is what diff() plans"): update() does what diff() planned and nothing else. A VPS changed
 * outside Pulumi (resized, moved, stopped, reinstalled) keeps that change through an update of another input: the
 * update makes the planned calls only, the fee moves only by the planned resize, and the state keeps its record of
 * that input, so the next plan is empty and a refresh reports the change. A half-done earlier update still finishes. In-process against the
 * emulator (real HTTP), through impl's update(), which both front ends call.
 *
 * The cases are generated from two tables: every pair of an outside change (OUTSIDE) and a planned change of another
 * input (PLANNED), 20 in all. The cases are named below them: 2048 MB shrunk by hand to 1024 ($16 → $10) and a reverseDns change;
 * a disk grown by hand and a memory resize (refused halfway before, as a disk shrink).
 */
import * as impl from "../../../provider/impl/index";
import { orderOutputs } from "../../../provider/impl/inputs/vps-outputs";
import type { RimuClient } from "../../../provider/client/index";
import { APP_INPUTS, createChecked, rejectionOf, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture();

/**
 * The program before the run: 2048 MB (MIRO1B's $16 a month), on host 764, running, its PTR set, reinstalls allowed
 * (an input the program leaves out is never a change, so each input an outside change touches is set).
 */
const PROGRAM = {
  ...APP_INPUTS,
  memoryMb: 2048,
  hostServerOid: "764",
  runningState: "RUNNING",
  reverseDns: "app1.example.com",
  allowReinstall: true,
};

/** A change made outside Pulumi: the input it changes and its value on the order afterwards. */
interface Outside {
  name: string;
  input: string;
  make(client: RimuClient, oid: number): Promise<unknown>;
  live: unknown;
}

const OUTSIDE: Outside[] = [
  {
    name: "memory shrunk by hand",
    input: "memoryMb",
    make: (client, oid) => client.changeParameters(oid, { memory_mb: 1024 }),
    live: 1024,
  },
  {
    name: "memory grown by hand",
    input: "memoryMb",
    make: (client, oid) => client.changeParameters(oid, { memory_mb: 4096 }),
    live: 4096,
  },
  {
    name: "disk grown by hand",
    input: "diskSpaceMb",
    make: (client, oid) => client.changeParameters(oid, { disk_space_mb: 30720 }),
    live: 30720,
  },
  {
    name: "stopped by hand",
    input: "runningState",
    make: (client, oid) => client.setRunningState(oid, "NOTRUNNING"),
    live: "NOTRUNNING",
  },
  {
    name: "moved by hand",
    input: "hostServerOid",
    make: (client, oid) => client.moveVps(oid, { selected_host_server_oid: "835", is_update_dns: false }),
    live: "835",
  },
  {
    name: "reinstalled by hand with another distro",
    input: "distro",
    make: (client, oid) =>
      client.reinstallVps(oid, {
        instantiation_options: { distro: "deb13.64" },
        vps_parameters: { memory_mb: null, disk_space_mb: null },
        dc_location: null,
      }),
    live: "deb13.64",
  },
];

/** A change of the program: the input, its new value and the one call that makes it. */
interface Planned {
  name: string;
  input: string;
  value: unknown;
  route: string;
  resize: boolean;
}

const PLANNED: Planned[] = [
  {
    name: "reverseDns",
    input: "reverseDns",
    value: "www.example.com",
    route: "setReverseDns",
    resize: false,
  },
  { name: "memory grown", input: "memoryMb", value: 8192, route: "changeParameters", resize: true },
  { name: "disk grown", input: "diskSpaceMb", value: 40960, route: "changeParameters", resize: true },
  { name: "stopped", input: "runningState", value: "NOTRUNNING", route: "setRunningState", resize: false },
];

/** Every pair of an outside change and a planned change of another input. */
const PAIRS = OUTSIDE.flatMap((outside) =>
  PLANNED.filter((planned) => planned.input !== outside.input).map((planned) => ({ outside, planned })),
);

/** The order's value of an input, as the emulator holds it now. */
async function liveValue(oid: number, input: string): Promise<unknown> {
  const order = (await fixture().byHand.getOrder(oid)).about_order;
  const outputs = orderOutputs(order, {}) as Record<string, unknown>;
  if (input !== "reverseDns") return outputs[input];
  const snapshot = fixture()
    .emulator.snapshot()
    .find((o) => o.orderOid === oid)!;
  return snapshot.ptr[order.allocated_ips?.primary_ip ?? ""];
}

const feeOf = (oid: number) =>
  fixture()
    .emulator.snapshot()
    .find((o) => o.orderOid === oid)!.monthlyFeeUsd;

const changesSince = (mark: number) =>
  fixture()
    .emulator.requestLog()
    .slice(mark)
    .filter((entry) => entry.method !== "GET")
    .map((entry) => entry.route);

/**
 * A VPS created at PROGRAM (named `n`), changed outside Pulumi, then updated from its recorded state to the program
 * with `planned` made: what the update called, and the state it recorded.
 */
async function driftThenUpdate(n: number, outside: Outside, planned: Planned) {
  const program = { ...PROGRAM, domainName: `i6-${n}.example.com`, creationScope: `shop/prod/i6-${n}` };
  const created = await createChecked(program);
  const oid = Number(created.id);
  await outside.make(fixture().byHand, oid);
  const feeAfterHand = feeOf(oid);
  const news = { ...created.inputs, [planned.input]: planned.value };
  const mark = fixture().emulator.requestLog().length;
  const { outs } = await impl.update(created.id, created.outs as never, news);
  return { oid, feeAfterHand, news, outs, recordedBefore: created.outs, calls: changesSince(mark) };
}

describe("I6: update() does what diff() planned; a change made outside Pulumi stays", () => {
  it.each(PAIRS.map((pair, n) => [pair.outside.name, pair.planned.name, n, pair] as const))(
    "%s, then %s planned: only the planned call; the outside change stays, for a refresh to report",
    async (_outside, _planned, n, { outside, planned }) => {
      const run = await driftThenUpdate(n, outside, planned);
      expect({
        calls: run.calls,
        outside: await liveValue(run.oid, outside.input),
        planned: await liveValue(run.oid, planned.input),
        recorded: (run.outs as Record<string, unknown>)[outside.input],
      }).toEqual({
        calls: [planned.route],
        outside: outside.live,
        planned: planned.value,
        recorded: (run.recordedBefore as Record<string, unknown>)[outside.input],
      });
      if (!planned.resize) expect(feeOf(run.oid)).toBe(run.feeAfterHand);
      // The state says of it what it said before the run: the next plan is empty (check, diff and budget agree), and a
      // refresh reads the change made outside Pulumi.
      const next = await impl.diffVps(String(run.oid), run.outs as never, run.news);
      expect(next.changes).toBe(false);
      const refreshed = await impl.read(String(run.oid), run.outs as never);
      expect((refreshed.props as Record<string, unknown>)[outside.input]).toEqual(outside.live);
    },
  );

  it("the issue's case: 2048 MB shrunk by hand to 1024 ($16 → $10), then only reverseDns changes: no resize, no restart, the fee stays $10", async () => {
    const run = await driftThenUpdate(100, OUTSIDE[0]!, PLANNED[0]!);
    expect(run.feeAfterHand).toBe(10);
    expect(run.calls).toEqual(["setReverseDns"]);
    expect(feeOf(run.oid)).toBe(10);
    expect(await liveValue(run.oid, "memoryMb")).toBe(1024);
    expect(await liveValue(run.oid, "runningState")).toBe("RUNNING");
    // The state keeps 2048 MB (a refresh reads 1024) and records the fee billed now.
    expect(run.outs).toMatchObject({ memoryMb: 2048, reverseDns: "www.example.com", monthlyFeeUsd: 10 });
  });

  it("a disk grown by hand beside a memory resize: the memory alone is resized, the disk is not shrunk (it was refused halfway)", async () => {
    const run = await driftThenUpdate(101, OUTSIDE[2]!, PLANNED[1]!);
    expect(run.calls).toEqual(["changeParameters"]);
    const resize = fixture()
      .emulator.requestLog()
      .filter((entry) => entry.route === "changeParameters")
      .pop();
    expect(JSON.stringify(resize)).not.toContain("disk_space_mb");
    expect(await liveValue(run.oid, "diskSpaceMb")).toBe(30720);
    expect(await liveValue(run.oid, "memoryMb")).toBe(8192);
  });
});

describe("a half-done earlier update still finishes", () => {
  /** A resize and a reverseDns change, the PTR refused once: the resize is made, the PTR is not. */
  async function halfDone(n: number, diskGrownByHand = false) {
    const program = { ...PROGRAM, domainName: `half-${n}.example.com`, creationScope: `shop/prod/half-${n}` };
    const created = await createChecked(program);
    if (diskGrownByHand) await OUTSIDE[2]!.make(fixture().byHand, Number(created.id));
    const news = { ...created.inputs, memoryMb: 4096, reverseDns: "www.example.com" };
    fixture().emulator.injectFault({ route: "setReverseDns", kind: "status", status: 400 });
    const error = await rejectionOf(impl.update(created.id, created.outs as never, news));
    expect(error.code).toBe("RIMU_ERR_VPS_INCOMPLETE");
    expect(await liveValue(Number(created.id), "memoryMb")).toBe(4096);
    return { created, news, error };
  }

  it("recorded (the error's properties are the state): the next update sets the PTR and resizes nothing; a disk grown by hand is recorded as it was", async () => {
    const { created, news, error } = await halfDone(1, true);
    expect(error.properties).toMatchObject({ memoryMb: 4096, diskSpaceMb: 20480 });
    expect(await liveValue(Number(created.id), "diskSpaceMb")).toBe(30720);
    const mark = fixture().emulator.requestLog().length;
    const { outs } = await impl.update(created.id, error.properties, news);
    expect(changesSince(mark)).toEqual(["setReverseDns"]);
    expect(outs).toMatchObject({ memoryMb: 4096, diskSpaceMb: 20480, reverseDns: "www.example.com" });
  });

  it("not recorded (the engine killed: the state is the one before): the resize is in the plan and on the order, so only the PTR is set", async () => {
    const { created, news } = await halfDone(2);
    const mark = fixture().emulator.requestLog().length;
    const { outs } = await impl.update(created.id, created.outs as never, news);
    expect(changesSince(mark)).toEqual(["setReverseDns"]);
    expect(outs).toMatchObject({ memoryMb: 4096, reverseDns: "www.example.com" });
  });
});
