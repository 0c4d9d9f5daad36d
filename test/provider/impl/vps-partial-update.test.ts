/**
 * L1: an update of several steps that fails partway. RimuHosting applies each step on its own (resize, move,
 * reinstall, reverse DNS, running state, in that order), so an update is not all or nothing: for every pair of
 * steps, the first applied and the second refused, the error records what was done (the state then holds the VPS
 * as it stands, never the old values of the step that ran), and the next update finishes the rest without
 * running the done step again. Against the emulator (real HTTP), the second step's route refused once.
 */
import type { EndpointName } from "../../../contract/index";
import * as impl from "../../../provider/impl/index";
import { APP_INPUTS, createChecked, rejectionOf, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture();

/** One step of an update: the input that asks for it, its value before and after, and the route it calls. */
interface Step {
  name: string;
  input: string;
  before: unknown;
  after: unknown;
  route: EndpointName;
}

/** The steps in the order update() runs them (vps-converge.ts). */
const STEPS: Step[] = [
  { name: "resize", input: "memoryMb", before: 1024, after: 2048, route: "changeParameters" },
  { name: "move", input: "hostServerOid", before: "764", after: "835", route: "moveVps" },
  { name: "reinstall", input: "distro", before: "deb12.64", after: "deb13.64", route: "reinstallVps" },
  {
    name: "reverse DNS",
    input: "reverseDns",
    before: "a.example.com",
    after: "b.example.com",
    route: "setReverseDns",
  },
  {
    name: "running state",
    input: "runningState",
    before: "RUNNING",
    after: "NOTRUNNING",
    route: "setRunningState",
  },
];

const PAIRS = STEPS.flatMap((first, i) =>
  STEPS.slice(i + 1).map((second) => [first.name, second.name, first, second] as const),
);

const PROGRAM = {
  ...APP_INPUTS,
  allowReinstall: true,
  ...Object.fromEntries(STEPS.map((step) => [step.input, step.before])),
};

/** The order's value of each step's input, as the service holds it now. */
async function live(id: string): Promise<Record<string, unknown>> {
  const order = (await fixture().byHand.getOrder(Number(id))).about_order;
  const ptr = fixture()
    .emulator.snapshot()
    .find((o) => String(o.orderOid) === id)!.ptr;
  return {
    memoryMb: order.vps_parameters?.memory_mb,
    hostServerOid: order.host_server_oid,
    distro: order.distro,
    reverseDns: ptr[order.allocated_ips?.primary_ip ?? ""],
    runningState: order.running_state,
  };
}

const routesSince = (mark: number) =>
  fixture()
    .emulator.requestLog()
    .slice(mark)
    .filter((entry) => entry.method !== "GET")
    .map((entry) => entry.route);

describe("a multi-step update that fails partway: the state records what was done, the next up finishes it", () => {
  it("the steps below are update()'s, in the order it runs them", async () => {
    // The pairs are (earlier, later) in this order: if update() ran them in another order, or had another step,
    // "the first applied and the second refused" would not be what the pairs test.
    const created = await createChecked(PROGRAM);
    const { __creationNonce: _nonce, ...program } = created.inputs;
    const news = { ...program, ...Object.fromEntries(STEPS.map((step) => [step.input, step.after])) };
    const mark = fixture().emulator.requestLog().length;
    await impl.update(created.id, created.outs as never, news);
    expect(routesSince(mark)).toEqual(STEPS.map((step) => step.route));
  });

  it.each(PAIRS)("%s done, then %s refused", async (_first, _second, first, second) => {
    const created = await createChecked(PROGRAM);
    const { __creationNonce: _nonce, ...program } = created.inputs;
    const news = { ...program, [first.input]: first.after, [second.input]: second.after };
    fixture().emulator.injectFault({ route: second.route, kind: "status", status: 400 });

    const error = await rejectionOf<impl.VpsIncompleteError>(
      impl.update(created.id, created.outs as never, news),
    );
    expect(error.code).toBe("RIMU_ERR_VPS_INCOMPLETE");
    expect(error.id).toBe(created.id);
    // What the engine records: the first step done, the second not, and the serialized provider.
    expect(error.properties).toMatchObject({
      [first.input]: first.after,
      [second.input]: second.before,
      __provider: "text",
    });
    // (A move gives new addresses without a PTR record: the name is set again by the step that was refused.)
    const leftBehind = first.name === "move" && second.input === "reverseDns" ? undefined : second.before;
    expect(await live(created.id)).toMatchObject({ [first.input]: first.after, [second.input]: leftBehind });

    // The next `pulumi up`: an update from the recorded properties runs the step that is left, not the done one.
    const mark = fixture().emulator.requestLog().length;
    const finished = await impl.update(created.id, error.properties, news);
    const routes = routesSince(mark);
    expect(routes).toContain(second.route);
    expect(routes).not.toContain(first.route);
    expect(finished.outs).toMatchObject({ [first.input]: first.after, [second.input]: second.after });
    expect(await live(created.id)).toMatchObject({
      [first.input]: first.after,
      [second.input]: second.after,
    });
  });
});
