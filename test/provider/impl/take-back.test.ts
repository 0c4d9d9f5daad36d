/**
 * A killed run's order taken back by the next `pulumi up` of its stack (docs/cost.md, I4; issue 64 case 3), against
 * the emulator: an order that carries a new resource's creation token and another nonce (the killed run's check
 * made it, and no state recorded it) is taken back when no state of the backend holds it, refused when one does or
 * when the states cannot be read, and judged by the rule after an order as the killed run would have judged it.
 * What `pulumi destroy` does with such an order: destroy-after-killed-run.test.ts and destroy-cannot-judge.test.ts;
 * the killed run and the backend it left: test/provider/support/killed-runs.ts.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { rejectionOf, stackConfigWith } from "../support/impl-fixture";
import { held, useKilledRuns } from "../support/killed-runs";

const { fixture, backend, inBackend, vps, active, killedRun, nextUp, runRecords } = useKilledRuns();

const configure = (settings: Record<string, string>) =>
  impl.configure({ config: stackConfigWith(fixture().emulator.baseUrl, settings) });

const texts = (notes: readonly { message?: string; text?: string }[]) =>
  notes.map((n) => n.message ?? n.text ?? JSON.stringify(n)).join("\n");

describe("a killed run's order", () => {
  it("no state holds it: the next up takes it back, orders nothing, and update, refresh and delete handle it", async () => {
    const oid = await killedRun("web-1");
    backend([
      { stack: "prod", resources: [] },
      { stack: "dev", resources: [{ type: "rimuhosting:index:Vps", outputs: { orderOid: oid + 1000 } }] },
    ]);
    const { preview, checked, created } = await nextUp("web-1");
    expect(preview.failures).toEqual([]);
    expect(texts(preview.notes)).toContain(`web-1: takes back order ${oid} (web-1.example.com, $`);
    expect(checked.failures).toBeUndefined();
    const { id, outs } = await created!;
    expect(id).toBe(String(oid));
    expect(await active()).toEqual([oid]);
    // The state now holds it with the order's own nonce: later previews see their own order, not a stray one.
    testing.forgetRun();
    const later = await impl.checkVps(checked.inputs, { ...vps("web-1"), __preview: true });
    expect(later.failures).toEqual([]);
    expect(texts(later.notes)).not.toContain("RIMU_ERR_FOREIGN_ORDER");
    const read = await impl.read(id, outs as never);
    expect(read.id).toBe(id);
    await impl.delete(id, outs as never);
    expect(await active()).toEqual([]);
  });

  it.each([
    [
      "another stack's state holds it",
      (oid: number) =>
        backend([
          {
            stack: "colleague",
            resources: [
              { type: "pulumi-nodejs:dynamic/rimuhosting:Vps", id: String(oid), outputs: { orderOid: oid } },
            ],
          },
        ]),
      "the state of stack colleague holds it",
    ],
    [
      "the states cannot be read",
      () => backend([], "`pulumi stack ls --all` failed: no backend"),
      "it is not provably this stack's: the backend's states could not be read",
    ],
  ] as const)("%s: refused, named, nothing taken or ordered", async (_title, states, why) => {
    const oid = await killedRun("web-1");
    states(oid);
    const { preview, checked } = await nextUp("web-1");
    for (const failures of [preview.failures, checked.failures]) {
      expect(JSON.stringify(failures)).toContain("RIMU_ERR_FOREIGN_ORDER");
      expect(JSON.stringify(failures)).toContain(`order ${oid}`);
      expect(JSON.stringify(failures)).toContain(`It is not taken back (${why}`);
    }
    expect(await active()).toEqual([oid]);
  });

  it.each([
    [
      "a stack of the same names in another backend placed it",
      "colleague",
      "it carries another stack's identity: a stack of the same project and stack name in another backend",
    ],
    [
      "it carries no stack identity (a release before it, or the identity unread)",
      undefined,
      "it carries no stack identity (placed by a release before it, or by a run that could not read it)",
    ],
  ] as const)("%s: refused, named, nothing taken or ordered", async (_title, placedIn, why) => {
    inBackend(placedIn);
    const oid = await killedRun("web-1");
    inBackend("mine");
    backend([]);
    const { preview, checked } = await nextUp("web-1");
    for (const failures of [preview.failures, checked.failures]) {
      expect(JSON.stringify(failures)).toContain("RIMU_ERR_FOREIGN_ORDER");
      expect(JSON.stringify(failures)).toContain(`order ${oid}`);
      expect(JSON.stringify(failures)).toContain(`It is not taken back (${why}`);
    }
    expect(await active()).toEqual([oid]);
  });

  // The mark is a copy's too: a copy of this backend (a restored CI cache, a backup) carries this stack's identity, so
  // only this backend's record of the run that placed the order proves it this stack's (may-cancel.ts, mayTakeBack).
  it.each([
    [
      "a copy of this backend: its run is not one this backend records",
      (): void => runRecords.drop(...runRecords.ids()),
      "no record of this stack's backend names its run",
    ],
    [
      "its run finished: this stack's state held it and let it go (retainOnDelete, state delete)",
      (): void => runRecords.finish(...runRecords.ids()),
      "finished, so this stack's state held it and let it go on purpose",
    ],
    [
      "this stack's run records cannot be read",
      (): void => {
        runRecords.unread = "`pulumi stack tag ls` failed";
      },
      "this stack's run records could not be read (`pulumi stack tag ls` failed)",
    ],
  ] as const)(
    "of this stack's identity, but %s: refused, named, nothing taken",
    async (_title, records, why) => {
      const oid = await killedRun("web-1");
      records();
      backend([]);
      const { preview, checked } = await nextUp("web-1");
      for (const failures of [preview.failures, checked.failures]) {
        expect(JSON.stringify(failures)).toContain("RIMU_ERR_FOREIGN_ORDER");
        expect(JSON.stringify(failures)).toContain(`order ${oid}`);
        expect(JSON.stringify(failures)).toContain(why);
      }
      expect(await active()).toEqual([oid]);
    },
  );

  // A replacement's order carries the nonce of the VPS it replaces, and a copy of the backend carries that nonce too:
  // the copy's replacement must not find the original's replacement order as its own by the nonce alone.
  it.each([
    ["the replacement's run was killed: this backend records it, unfinished", "found as its own", false],
    ["a copy of the backend made before the replacement: its run is not this backend's", "refused", true],
  ] as const)("a replacement's order already placed, %s: %s", async (_title, outcome, copy) => {
    testing.forgetRun();
    const first = await impl.check({}, vps("web-1"));
    const made = await impl.create(first.inputs);
    runRecords.finish(...runRecords.ids());
    const moved = { ...vps("web-1"), dcLocation: "DCLONDON" as const };
    testing.forgetRun();
    const replacing = await impl.check(first.inputs, moved);
    const placed = await impl.create(replacing.inputs);
    if (copy) runRecords.drop(runRecords.ids().at(-1)!);
    backend([held(made)]);
    testing.forgetRun();
    const again = await impl.check(first.inputs, moved);
    expect(again.failures).toBeUndefined();
    if (outcome === "refused") {
      const error = await impl.create(again.inputs).then(
        () => undefined,
        (e: unknown) => `${(e as { code?: string }).code} ${(e as Error).message}`,
      );
      expect(error).toContain("RIMU_ERR_FOREIGN_ORDER");
      expect(error).toContain(`order ${placed.id}`);
      expect(error).toContain("no record of this stack's backend names its run");
    } else expect((await impl.create(again.inputs)).id).toBe(placed.id);
    expect((await active()).sort()).toEqual([Number(made.id), Number(placed.id)].sort());
  });

  it("its killed run kept checkpoints: taken back all the same (taking back cancels nothing)", async () => {
    runRecords.checkpoints = true;
    const oid = await killedRun("web-1");
    backend([]);
    const { checked, created } = await nextUp("web-1");
    expect(checked.failures).toBeUndefined();
    expect((await created!).id).toBe(String(oid));
    expect(await active()).toEqual([oid]);
  });

  it("this stack's identity cannot be read: refused, nothing taken", async () => {
    const oid = await killedRun("web-1");
    inBackend(undefined);
    backend([]);
    const { checked } = await nextUp("web-1");
    expect(JSON.stringify(checked.failures)).toContain(
      "this stack's identity could not be read (the CLI failed)",
    );
    expect(await active()).toEqual([oid]);
  });

  it("two stacks killed at once over the budget: each next up judges its own, the later order goes, the account ends within", async () => {
    const web1 = await killedRun("web-1");
    const web2 = await killedRun("web-2");
    const fee = (await fixture().byHand.getOrder(web1)).about_order.billing_info?.monthly_recurring_amt
      ?.amt_usd;
    expect(typeof fee).toBe("number");
    await configure({ monthlyBudgetUsd: String(1.5 * fee!) });
    backend([]);
    // Stack of web-2 first: its order is the later one, so it goes, with the figures.
    const second = await nextUp("web-2");
    expect(texts(second.preview.notes)).toContain(
      "the account is over its monthly budget: its 2 active orders are billed",
    );
    const refused = await rejectionOf(second.created!);
    expect(refused.message).toContain(`web-2: a killed run of this stack ordered it as order ${web2}`);
    expect(refused.message).toContain(`order ${web2} was cancelled at once`);
    const first = await nextUp("web-1");
    expect(texts(first.preview.notes)).not.toContain("over its monthly budget");
    expect((await first.created!).id).toBe(String(web1));
    expect(await active()).toEqual([web1]);
  });
});
