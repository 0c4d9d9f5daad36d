/**
 * A destroy that cannot judge the orders a killed run may have left, in-process against the emulator
 * (stack-strays.ts; docs/troubleshooting.md, "A run was killed: what is checked"): it fails naming why, its state
 * never lies, and `pulumi destroy` again once the cause is fixed leaves nothing of this stack's billed. What a destroy
 * that can judge does: destroy-after-killed-run.test.ts; the killed run and the backend it left:
 * test/provider/support/killed-runs.ts.
 */
import fc from "fast-check";
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { held, useKilledRuns } from "../support/killed-runs";
import { until } from "../../helpers/promises";

const { fixture, runRecords, backend, inBackend, active, killedRun, recorded, runsUnread, lines } =
  useKilledRuns();

/** True once no fault of `route` waits to be taken (its request arrived). */
const taken = (route: string) => () =>
  !fixture()
    .emulator.app.emulator.faults.pending()
    .some((f) => f.route === route);

/**
 * A destroy that cannot judge the orders a killed run may have left (stack-strays.ts) fails, and its state never lies:
 * the delete that judges fails before it cancels its own VPS (the engine keeps a VPS whose delete failed, so that
 * VPS must still be billed), and the run's other deletes cancel theirs. Once the cause is fixed, `pulumi destroy`
 * again (the kept VPS brings the provider back) cancels the killed run's order and the kept VPS.
 */
describe("a destroy that cannot judge", () => {
  /**
   * The destroy's deletes of `vpss`, one run, as the engine makes them: each delete that fails keeps its VPS in the
   * state. Returns the VPSs the state still holds and every error; checks that the state never lies (each VPS it
   * keeps is billed, each it dropped is not).
   */
  async function destroyAll(vpss: { id: string; outs: unknown }[]) {
    testing.forgetRun();
    const errors: string[] = [];
    const kept: number[] = [];
    for (const v of vpss)
      await impl.delete(v.id, v.outs as never).catch((error: Error) => {
        errors.push(error.message);
        kept.push(Number(v.id));
      });
    fixture().emulator.app.emulator.faults.clear();
    const billed = await active();
    for (const v of vpss)
      expect([v.id, billed.includes(Number(v.id))]).toEqual([v.id, kept.includes(Number(v.id))]);
    return { kept, errors };
  }

  it.each([
    [
      "the account's orders cannot be listed",
      () => fixture().emulator.injectFault({ route: "listOrders", kind: "status", status: 503, times: 50 }),
      "the account's orders could not be listed (",
    ],
    [
      "this stack's identity cannot be read",
      () => inBackend(undefined),
      "this stack's identity could not be read (the CLI failed), so order ",
    ],
  ] as const)(
    "%s: fails naming why, its own VPS kept billed in the state, the others cancelled; again once fixed: nothing billed",
    async (_title, breakIt, why) => {
      const web0 = await recorded("web-0");
      const web2 = await recorded("web-2");
      const stray = await killedRun("web-1");
      const states = () =>
        backend([{ stack: "prod", resources: [...held(web0).resources, ...held(web2).resources] }]);
      states();
      breakIt();
      const first = await destroyAll([web0, web2]);
      fixture().emulator.app.emulator.faults.clear();
      inBackend("one-backend");
      // The judging delete (the first) failed, naming why and the order it could not judge; web-2 was cancelled.
      expect(first.kept).toEqual([Number(web0.id)]);
      expect(first.errors).toHaveLength(1);
      expect(first.errors[0]).toMatch(
        /^\[RIMU_ERR_LEFT_BILLED\] This destroy cannot tell whether a killed run/,
      );
      expect(first.errors[0]).toContain(why);
      expect(first.errors[0]).toContain(
        `Vps ${web0.id} (web-0.example.com) is kept (not cancelled, still in the state)`,
      );
      expect(first.errors[0]).toContain("then run `pulumi destroy` again: it cancels the VPS it kept");
      expect(await active()).toEqual([Number(web0.id), stray]);
      // `pulumi destroy` again: the state holds web-0 only.
      backend([held(web0)]);
      const again = await destroyAll([web0]);
      expect(again).toEqual({ kept: [], errors: [] });
      expect(await active()).toEqual([]);
      expect(lines().join("\n")).toContain(`order ${stray} (web-1.example.com, $10.00 a month): cancelled.`);
    },
  );

  // Issue 92: the backend stopped mid-`destroy`. The states unread, the judging delete cannot tell the stack's own
  // VPSs (in its state) from a killed run's orders, while the run's other deletes cancel theirs (each answer held
  // here, so they end after the sweep listed the account again). Its failure names only what is still billed: the
  // killed run's order, not the VPSs this run's deletes cancelled.
  it("the backend's states unread mid-destroy: the failure names only what is still billed", async () => {
    const [web0, web1, web2] = [await recorded("web-0"), await recorded("web-1"), await recorded("web-2")];
    const stray = await killedRun("web-3");
    backend([], "`pulumi stack ls --all --json` failed: error: connection refused");
    testing.forgetRun();
    fixture().emulator.injectFault({ route: "deleteVps", kind: "delay", delayMs: 1500, times: 2 });
    const deletes = await Promise.allSettled(
      [web0, web1, web2].map((v) => impl.delete(v.id, v.outs as never)),
    );
    fixture().emulator.app.emulator.faults.clear();
    expect(deletes.map((d) => d.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
    const failure = String((deletes[0] as PromiseRejectedResult).reason.message);
    expect(failure).toMatch(/^\[RIMU_ERR_LEFT_BILLED\] This destroy cannot tell whether a killed run/);
    expect(failure).toContain(
      "the backend's states could not be read (`pulumi stack ls --all --json` failed: error: connection refused), " +
        `so order ${stray} (web-3.example.com, $10.00 a month) cannot be judged`,
    );
    for (const cancelled of [web1, web2]) expect(failure).not.toContain(`order ${cancelled.id} `);
    expect(await active()).toEqual([Number(web0.id), stray]);
    const said = lines().join("\n");
    for (const cancelled of [web1, web2])
      expect(said).toContain(
        `order ${cancelled.id} (${cancelled.id === web1.id ? "web-1" : "web-2"}.example.com, $10.00 a month) is no longer billed: this run's delete of it cancelled it.`,
      );
    expect(said).not.toMatch(new RegExp(`Warning: order (${web1.id}|${web2.id}) `));
  });

  // Item 7 of issue 92: a killed run's order that ended (cancelled by hand) while the sweep's cancellation of it was on
  // its way: the cancellation fails, but nothing is left billed, so the destroy does not fail.
  it("a killed run's order already gone when the sweep cancels it: counted as ended, the destroy not failed", async () => {
    const web0 = await recorded("web-0");
    const stray = await killedRun("web-1");
    backend([held(web0)]);
    testing.forgetRun();
    fixture().emulator.injectFault({ route: "deleteVps", kind: "delay", delayMs: 1500, times: 1 });
    const destroying = impl.delete(web0.id, web0.outs as never);
    await until("the sweep's cancellation to be held", taken("deleteVps"));
    await fixture().byHand.deleteVps({ orderOid: stray, domainName: "web-1.example.com" });
    await destroying;
    expect(await active()).toEqual([]);
    expect(lines().join("\n")).toContain(
      `order ${stray} (web-1.example.com, $10.00 a month) is no longer billed`,
    );
  });

  /** Whose order a killed run's order is: this stack's, one placed with no identity, or another backend's stack's. */
  type StrayOf = "ours" | "unmarked" | "other";
  /** What the destroy cannot read. */
  type Unread = "nothing" | "listing" | "identity" | "states" | "run records";

  it("property: whatever it cannot read, the state never lies, this stack's killed orders are cancelled or named with a failure, and a second destroy once fixed leaves none", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.constantFrom<StrayOf>("ours", "unmarked", "other"), { maxLength: 3 }),
        fc.constantFrom<Unread>("nothing", "listing", "identity", "states", "run records"),
        async (own, strayKinds, unread) => {
          try {
            await oneCase(own, strayKinds, unread);
          } finally {
            // Each case starts from an account with no active order.
            fixture().emulator.app.emulator.faults.clear();
            const left = (await fixture().byHand.listOrders({ includeInactive: false })).about_orders ?? [];
            for (const o of left)
              await fixture().byHand.deleteVps({ orderOid: o.order_oid, domainName: o.domain_name });
          }
        },
      ),
      { seed: 80, numRuns: 25 },
    );
  });

  async function oneCase(own: number, strayKinds: StrayOf[], unread: Unread) {
    inBackend("one-backend");
    const vpss = [];
    for (let i = 0; i < own; i++) vpss.push(await recorded(`own-${i}`));
    // The killed runs' orders: placed by runs whose state recorded nothing (here: none is given to the destroy).
    const strays = [];
    for (const [i, kind] of strayKinds.entries()) {
      inBackend(kind === "ours" ? "one-backend" : kind === "other" ? "colleague" : undefined);
      strays.push({ kind, oid: Number((await recorded(`stray-${i}`, false)).id) });
    }
    inBackend(unread === "identity" ? undefined : "one-backend");
    const prod = { stack: "prod", resources: vpss.flatMap((v) => held(v).resources) };
    backend([prod], unread === "states" ? "`pulumi stack ls --all` failed: no backend" : undefined);
    runsUnread(unread === "run records" ? "`pulumi stack history` failed" : undefined);
    if (unread === "listing")
      fixture().emulator.injectFault({ route: "listOrders", kind: "status", status: 503, times: 50 });
    const first = await destroyAll(vpss); // checks: each VPS the state keeps is billed, each it drops is not
    const billed = await active();
    const said = first.errors.join("\n");
    for (const stray of strays) {
      const stays = billed.includes(stray.oid);
      // Another stack's order, or one no identity proves, is never cancelled.
      if (stray.kind !== "ours") expect([stray, stays]).toEqual([stray, true]);
      // This stack's killed order is cancelled, or the destroy fails naming it (or saying it could not list).
      else if (stays) expect(said).toMatch(new RegExp(`order ${stray.oid} |could not be listed`));
    }
    if (unread === "nothing") expect(first.errors).toEqual([]);
    // At most the judging delete fails.
    expect(first.kept.length).toBeLessThanOrEqual(1);
    // Fixed: `pulumi destroy` again over what the state still holds.
    inBackend("one-backend");
    const kept = vpss.filter((v) => first.kept.includes(Number(v.id)));
    backend([{ stack: "prod", resources: kept.flatMap((v) => held(v).resources) }]);
    runsUnread(undefined);
    const again = await destroyAll(kept);
    expect(again.errors).toEqual([]);
    expect(await active()).toEqual(strays.filter((s) => s.kind !== "ours").map((s) => s.oid));
  }

  it("a VPS of this stack whose delete ended between the sweep's listing and its reading of the states is not a stray", async () => {
    const web0 = await recorded("web-0");
    const web2 = await recorded("web-2");
    // Another provider of this destroy cancels web-2, and the engine drops it from the state, while web-0's delete
    // judges: the states it reads no longer hold web-2.
    testing.setBackendReader({
      states: async () => {
        await fixture().byHand.deleteVps({ orderOid: Number(web2.id), domainName: "web-2.example.com" });
        return { stacks: [held(web0)] };
      },
      runs: runRecords.runs,
    });
    expect(await destroyAll([web0])).toEqual({ kept: [], errors: [] });
    expect(await active()).toEqual([]);
    expect(lines().join("\n")).not.toContain(`order ${web2.id}`);
  });
});
