/**
 * `pulumi destroy` after a killed run, in-process against the emulator (stack-strays.ts; docs/troubleshooting.md,
 * "A run was killed: what is checked"): the orders a killed run left in no state are cancelled only on a positive
 * record that they are this stack's, and every other one is named and left billed. A destroy that cannot judge them:
 * destroy-cannot-judge.test.ts; the next `up` taking them back: take-back.test.ts; the killed run and the backend it
 * left: test/provider/support/killed-runs.ts.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { held, useKilledRuns } from "../support/killed-runs";

const {
  runRecords,
  backend,
  inBackend,
  vps,
  active,
  killedRun,
  killedCreate,
  nextUp,
  recorded,
  runsUnread,
  lines,
} = useKilledRuns();

/**
 * `pulumi destroy` after a killed run (stack-strays.ts): destroy runs no program, so no check takes the order back;
 * the first delete of a run that checked no VPS cancels the orders carrying the stack's token that no state holds
 * and that this stack's backend records as placed by a run that never finished (run-records.ts), and names every other one that
 * stays billed. Here the stack holds web-0 (recorded by an `up`) and a killed run left web-1's order in no state.
 */
describe("destroy after a killed run", () => {
  /** The destroy: a new run that deletes the recorded VPS, as the engine does (no check). */
  async function destroy(web0: { id: string; outs: unknown }) {
    testing.forgetRun();
    await impl.delete(web0.id, web0.outs as never);
  }

  it("no state holds the killed run's order and no operation recorded it: destroy cancels it, and names it", async () => {
    const web0 = await recorded("web-0");
    const stray = await killedRun("web-1");
    backend([held(web0), { stack: "dev", resources: [] }]);
    await destroy(web0);
    expect(await active()).toEqual([]);
    const said = lines().join("\n");
    expect(said).toContain(`order ${stray} (web-1.example.com, $`);
    expect(said).toContain(
      "cancelled. A killed run of this stack ordered it: this stack's backend records the run that placed it, " +
        "which kept no checkpoints and never finished, so no state ever held it. It is no longer billed; " +
        "RimuHosting credited $",
    );
    // One line says the order, why it was this stack's and its bill: no second line about the same order.
    expect(lines().filter((line) => line.includes(String(stray)))).toHaveLength(1);
  });

  it("an order whose run finished (a VPS kept with retainOnDelete, or removed with `pulumi state delete`) stays billed, named", async () => {
    const web0 = await recorded("web-0");
    const mail = await recorded("mail");
    backend([held(web0)]);
    await destroy(web0);
    expect(await active()).toEqual([Number(mail.id)]);
    expect(lines().join("\n")).toMatch(
      new RegExp(
        `order ${mail.id} \\(mail\\.example\\.com, \\$[\\d.]+ a month\\) stays billed: it left this stack's ` +
          "state on purpose \\(a VPS kept with retainOnDelete, or removed with `pulumi state delete`\\)",
      ),
    );
  });

  // An order a later `up` took back carries the killed run's id still: that run never finished and kept no
  // checkpoints, yet the taking run's state held the order, which then left it on purpose.
  it("a killed run's order taken back by an up that finished, then kept with retainOnDelete: stays billed, named", async () => {
    const web0 = await recorded("web-0");
    const oid = await killedRun("web-1");
    backend([held(web0)]);
    const before = runRecords.ids();
    const { created } = await nextUp("web-1");
    expect((await created!).id).toBe(String(oid));
    // The taking `up` finished: its state held the order (the engine's history records the operation).
    runRecords.finish(...runRecords.ids().filter((id) => !before.includes(id)));
    // retainOnDelete: the engine drops web-1 from the state during the destroy, without asking the provider.
    backend([held(web0)]);
    await destroy(web0);
    expect(await active()).toEqual([oid]);
    expect(lines().join("\n")).toContain(
      `order ${oid} (web-1.example.com, $10.00 a month) stays billed: it left this stack's state on purpose`,
    );
  });

  it.each([
    ["its run kept checkpoints (the engine wrote it into a state)", "checkpoints"],
    ["no record of this backend names its run (a copy of the backend made before it)", "copy"],
  ] as const)(
    "an order of this stack's mark in no state, %s: named, not cancelled, the destroy not failed",
    async (_title, how) => {
      const web0 = await recorded("web-0");
      runRecords.checkpoints = how === "checkpoints";
      const before = runRecords.ids();
      const stray = await killedRun("web-1");
      if (how === "copy") runRecords.drop(...runRecords.ids().filter((id) => !before.includes(id)));
      backend([held(web0)]);
      await destroy(web0);
      expect(await active()).toEqual([stray]);
      expect(lines().join("\n")).toContain(
        `order ${stray} (web-1.example.com, $10.00 a month) carries this stack's identity and no state of this ` +
          "backend holds it, but nothing this backend records proves it this stack's",
      );
    },
  );

  it.each([
    [
      "another stack's state holds it (adopted there)",
      (stray: number) => [
        {
          stack: "colleague",
          resources: [{ type: "pulumi-nodejs:dynamic/rimuhosting:Vps", inputs: { adoptOrderOid: stray } }],
        },
      ],
      undefined,
      undefined,
    ],
    [
      "the states cannot be read",
      () => [],
      "`pulumi stack ls --all` failed: no backend",
      "cannot be judged: the backend's states could not be read (`pulumi stack ls --all` failed: no backend)",
    ],
    [
      "the stack's run records cannot be read",
      () => [],
      undefined,
      "cannot be judged: this stack's run records could not be read (`pulumi stack history` failed)",
    ],
  ] as const)("%s: destroy leaves it billed", async (title, others, unread, said) => {
    const web0 = await recorded("web-0");
    const stray = await killedRun("web-1");
    backend([held(web0), ...others(stray)], unread);
    runsUnread(title.includes("run records") ? "`pulumi stack history` failed" : undefined);
    const destroyed = destroy(web0);
    // A killed run's order of this stack left billed fails the destroy; another stack's is not this stack's to name.
    if (said) await expect(destroyed).rejects.toThrow(/RIMU_ERR_LEFT_BILLED.*cannot tell whether/);
    else await destroyed;
    // A failed delete keeps its VPS in the state: it is not cancelled either.
    expect(await active()).toEqual(said ? [Number(web0.id), stray] : [stray]);
    if (said) expect(lines().join("\n")).toContain(`order ${stray} (web-1.example.com, $`);
    if (said) expect(lines().join("\n")).toContain(said);
  });

  it("a run that checked a VPS (an up deleting one) cancels nothing but its own: its check takes killed orders back", async () => {
    const web0 = await recorded("web-0");
    const stray = await killedRun("web-1");
    backend([held(web0)]);
    testing.forgetRun();
    await impl.check({}, vps("web-2"));
    await impl.delete(web0.id, web0.outs as never);
    expect(await active()).toEqual([stray]);
  });

  it.each([
    [
      "a stack of the same names in another backend placed it",
      "colleague",
      () =>
        "1 order of stack prod's name ($10.00 a month) carries another stack's identity: not this stack's",
    ],
    [
      "it carries no stack identity",
      undefined,
      (stray: number) =>
        `Warning: order ${stray} (web-1.example.com, $10.00 a month) carries this stack's name and no state of ` +
        "this backend holds it, but it is not provably this stack's: it carries no stack identity (placed by a " +
        "release before it",
    ],
  ] as const)("%s: destroy leaves it billed", async (_title, placedIn, said) => {
    const web0 = await recorded("web-0");
    inBackend(placedIn);
    const stray = await killedRun("web-1");
    inBackend("mine");
    backend([held(web0)]);
    await destroy(web0);
    expect(await active()).toEqual([stray]);
    // Told of either way (another stack's in one line, issue 92; one of no identity as a warning), and the destroy
    // does not fail (it may be another backend's live VPS).
    expect(lines().join("\n")).toContain(said(stray));
  });

  it("the engine's record of the killed create (a pending operation) holds its nonce: cancelled, with no history", async () => {
    const web0 = await recorded("web-0");
    const { oid: stray, nonce } = await killedCreate("web-1");
    const pending = [{ type: "rimuhosting:index:Vps", inputs: { __creationNonce: nonce } }];
    backend([{ ...held(web0), pending }]);
    runsUnread("no finished operation of stack prod is recorded");
    await destroy(web0);
    expect(await active()).toEqual([]);
    expect(lines().join("\n")).toContain(
      `order ${stray} (web-1.example.com, $10.00 a month): cancelled. A killed run of this stack ordered it: the ` +
        "engine's record of a create it never finished (a pending operation) carries its creation nonce.",
    );
  });

  it("another provider of the same command ordered it (PULUMI_SKIP_CHECKPOINTS: no state yet): never cancelled", async () => {
    const web0 = await recorded("web-0");
    backend([held(web0)]);
    // One command, two providers (two runs): one orders web-1, the other deletes web-0 and checked no VPS.
    const command = `one command ${Math.random()}`;
    const orders = testing.beginRun(command);
    const deletes = testing.beginRun(command);
    const checked = await testing.serving(orders, () => impl.check({}, vps("web-1")));
    const web1 = await testing.serving(orders, () => impl.create(checked.inputs));
    await testing.serving(deletes, () => impl.delete(web0.id, web0.outs as never));
    expect(await active()).toEqual([Number(web1.id)]);
  });

  it("an order placed after the destroy began, its nonce in no plan (a provider whose note failed): never cancelled", async () => {
    const web0 = await recorded("web-0");
    backend([held(web0)]);
    // The destroy's run begins; then a provider of another plan (as one of this command whose append failed) orders.
    const deletes = testing.beginRun(`destroy ${Math.random()}`);
    const orders = testing.beginRun(`unshared ${Math.random()}`);
    const checked = await testing.serving(orders, () => impl.check({}, vps("web-1")));
    const web1 = await testing.serving(orders, () => impl.create(checked.inputs));
    await expect(testing.serving(deletes, () => impl.delete(web0.id, web0.outs as never))).rejects.toThrow(
      /RIMU_ERR_LEFT_BILLED/,
    );
    expect(await active()).toEqual([Number(web0.id), Number(web1.id)]);
    expect(lines().join("\n")).toContain("it was ordered after this command began");
  });

  // Issue 80: two providers of a stack's first `up` set its tag at once; the run whose value the backend did not keep
  // marked its orders with an identity no later run proves (the same as a same-named stack's of another backend).
  // Without the engine's record it is another stack's (issue 92): counted in one line, no warning (killed-orders exits
  // 0 on it), never cancelled, the destroy not failed. With a pending create of this stack carrying its nonce, it is
  // this stack's: cancelled.
  it("an order of this stack's name marked with another identity (a lost tag race): one line, never cancelled, the destroy not failed", async () => {
    const web0 = await recorded("web-0");
    inBackend("tag-the-backend-did-not-keep");
    const stray = await killedRun("web-1");
    inBackend("one-backend");
    backend([held(web0)]);
    await destroy(web0);
    expect(await active()).toEqual([stray]);
    // No warning: rimuhosting-killed-orders counts every warning line as an order left billed (exit 1).
    expect(lines().filter((line) => line.includes("another stack"))).toEqual([
      "[rimuhosting] 1 order of stack prod's name ($10.00 a month) carries another stack's identity: not this " +
        "stack's (a stack prod of project shop in another backend, or this stack's before `pulumi stack rm`), left " +
        "alone; the account's bill counts it (`rimuhosting-bill`, the control panel's orders).",
    ]);
    expect(lines().join("\n")).not.toContain("Warning:");
  });

  // Only this stack's own state can prove such an order its own: another stack's unread state changes nothing.
  it("the same beside a stack whose state cannot be read (a torn file): one line, never cancelled, the destroy not failed", async () => {
    const web0 = await recorded("web-0");
    inBackend("a-colleagues-backend");
    const colleagues = await killedRun("web-1");
    inBackend("one-backend");
    backend(
      [held(web0)],
      "the state of torn (`pulumi stack export` failed: unexpected end of JSON input) could not be read",
    );
    await destroy(web0);
    expect(await active()).toEqual([colleagues]);
    expect(lines().filter((line) => line.includes("another stack's identity"))).toHaveLength(1);
    expect(lines().join("\n")).not.toContain("Warning:");
    expect(lines().join("\n")).not.toContain("cannot tell");
  });

  it("a lost tag race's order whose nonce a pending create of this stack holds: this stack's, cancelled", async () => {
    const web0 = await recorded("web-0");
    inBackend("tag-the-backend-did-not-keep");
    const { oid: stray, nonce } = await killedCreate("web-1");
    inBackend("one-backend");
    const pending = [{ type: "rimuhosting:index:Vps", inputs: { __creationNonce: nonce } }];
    // Another stack's pending create of the nonce proves nothing of this stack's: left alone.
    backend([held(web0), { stack: "organization/shop/staging", resources: [], pending }]);
    await destroy(web0);
    expect(await active()).toEqual([stray]);
    const web2 = await recorded("web-2");
    backend([{ ...held(web2), pending }]);
    await destroy(web2);
    expect(await active()).toEqual([]);
    expect(lines().join("\n")).toContain(
      `order ${stray} (web-1.example.com, $10.00 a month): cancelled. A killed run of this stack ordered it: the ` +
        "engine's record of a create it never finished (a pending operation) carries its creation nonce, though its " +
        "stack identity is not this stack's (a lost tag race).",
    );
  });

  it("this stack has no identity yet (no tag): a marked order of its name is counted as another stack's, the destroy not failed", async () => {
    const noIdentity = () =>
      testing.setStackIdentityReader(async () => ({
        none: true,
        unread:
          "its tag rimuhosting:instance is not set yet, so no run has marked an order with its identity",
      }));
    noIdentity();
    const web0 = await recorded("web-0");
    inBackend("another-backend");
    const theirs = Number((await recorded("web-1")).id);
    noIdentity();
    backend([held(web0)]);
    await destroy(web0);
    expect(await active()).toEqual([theirs]);
    expect(lines().join("\n")).toContain(
      "1 order of stack prod's name ($10.00 a month) carries another stack's identity: not this stack's",
    );
    expect(lines().join("\n")).not.toContain("Warning:");
  });

  it("an order of another stack of the account (its own token) is never looked at", async () => {
    const web0 = await recorded("web-0");
    testing.forgetRun();
    const other = { ...vps("web-1"), creationScope: "shop/staging/web-1" };
    const theirs = await impl.create((await impl.check({}, other)).inputs);
    backend([held(web0)]);
    await destroy(web0);
    expect(await active()).toEqual([Number(theirs.id)]);
  });
});
