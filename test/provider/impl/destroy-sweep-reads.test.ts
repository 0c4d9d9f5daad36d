/**
 * What a destroy's sweep for a killed run's orders (provider/impl/ownership/stack-strays.ts) reads of the backend: the
 * states, the stack's identity and its run records (each a `pulumi` CLI read in a deployment) only when it finds an
 * order to judge. An order whose delete this run began is in the engine's state, so a destroy whose deletes all run at
 * once (`--parallel` at least the fleet's size) reads none; one that also finds an order of this stack in no state
 * judges every order on the records, as before. Against the emulator, the backend given (setBackendReader).
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { APP_INPUTS, activeOrderOids, useImplFixture } from "../support/impl-fixture";
import { RunRecordsStandIn } from "../support/run-records-stand-in";

const fixture = useImplFixture();
const runRecords = new RunRecordsStandIn();

const vps = (name: string) => ({
  ...APP_INPUTS,
  domainName: `${name}.example.com`,
  creationScope: `shop/prod/${name}`,
});

/** An `up` of stack prod that ordered `name`: its id and outputs, as the state holds them. */
async function recorded(name: string) {
  testing.forgetRun();
  const checked = await impl.check({}, vps(name));
  return impl.create(checked.inputs);
}

/** The backend: stack prod's state holding `held`; each read of the states, identity and run records counted. */
function backendHolding(held: { id: string }[]) {
  const reads = { states: 0, identity: 0, runs: 0 };
  const resources = held.map((v) => ({
    type: "rimuhosting:index:Vps",
    id: v.id,
    outputs: { orderOid: Number(v.id) },
  }));
  testing.setBackendReader({
    states: async () => (reads.states++, { stacks: [{ stack: "prod", resources }] }),
    runs: async () => (reads.runs++, runRecords.runs()),
    recordRun: runRecords.record,
    recordTakeBack: runRecords.recordTakeBack,
  });
  testing.setStackIdentityReader(async ({ project, stack }) => {
    reads.identity++;
    return { mark: `id3-one-backend-${project}-${stack}` };
  });
  return reads;
}

let lines: string[] = [];
beforeEach(() => {
  runRecords.forget();
  lines = [];
  testing.setLogSink((line) => lines.push(line));
});
afterEach(() => testing.setLogSink((line) => console.log(line)));

/**
 * The destroy's deletes of `vpss`, one run, all under way at once (as the engine sends them with `--parallel` N): each
 * begins `apartMs` after the one before, as the engine sends them one after another.
 */
async function destroyAtOnce(vpss: { id: string; outs: unknown }[], apartMs = 0) {
  testing.forgetRun();
  const begun = (i: number) => new Promise((resolve) => setTimeout(resolve, i * apartMs));
  await Promise.all(vpss.map((v, i) => begun(i).then(() => impl.delete(v.id, v.outs as never))));
}

it.each([
  ["all begun together", 0],
  ["begun 40 ms apart (the judging delete lists the account before the others arrive)", 40],
])(
  "a destroy whose deletes run at once, %s, reads nothing of the backend, and cancels every VPS",
  async (_title, apartMs) => {
    const vpss = [await recorded("web-0"), await recorded("web-1"), await recorded("web-2")];
    const reads = backendHolding(vpss);
    await destroyAtOnce(vpss, apartMs);
    expect(reads).toEqual({ states: 0, identity: 0, runs: 0 });
    expect(await activeOrderOids(fixture())).toEqual([]);
    expect(lines.filter((line) => line.includes("shut down and cancelled"))).toHaveLength(3);
  },
);

it("an order of this stack in no state beside them: every order judged on the records, that one named", async () => {
  const vpss = [await recorded("web-0"), await recorded("web-1")];
  // An order of this stack's identity that no state holds (and no record proves a killed run's): not this run's.
  const mail = await recorded("mail");
  const reads = backendHolding(vpss);
  await destroyAtOnce(vpss);
  expect(reads.states).toBe(1);
  expect(reads.identity).toBe(1);
  expect(await activeOrderOids(fixture())).toEqual([Number(mail.id)]);
  // Judged on the records and named, never cancelled.
  const named = lines.filter((line) => line.includes(`order ${mail.id} (mail.example.com, $10.00 a month)`));
  expect(named).toHaveLength(1);
  expect(named[0]).toContain("It stays billed, not cancelled.");
});
