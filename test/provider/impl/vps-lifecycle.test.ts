/**
 * L1: the provider implementation called directly (as the shim calls it) against a real emulator on
 * 127.0.0.1: full lifecycle, every in-place change path, drift on refresh, idempotent delete.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { startImplFixture, unchecked, DEMO_API_KEY, type ImplFixture } from "../support/impl-fixture";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";

const PROVIDER = "exports.handler = (serialized provider text)";
const BASE = {
  domainName: "web1.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  memoryMb: 1024,
  diskSpaceMb: 20480,
  metaData: { team: "web" },
  __provider: PROVIDER,
} satisfies VpsInputs;

let fx: ImplFixture;
beforeEach(async () => {
  fx = await startImplFixture();
});
afterEach(async () => {
  await fx.close();
});

const mutations = () => fx.emulator.requestLog().filter((r) => r.method !== "GET");

async function createChecked(inputs: Record<string, unknown>) {
  const checked = await impl.check({}, inputs);
  expect(checked.failures).toBeUndefined();
  return impl.create(checked.inputs);
}

describe("Vps lifecycle (impl against the emulator)", () => {
  it("create: orders the VPS and returns every output, the id being the order oid", async () => {
    const { id, outs } = await createChecked(BASE);
    expect(id).toBe(String(outs.orderOid));
    expect(outs).toMatchObject({
      domainName: "web1.example.com",
      distro: "deb12.64",
      dcLocation: "DCDALLAS",
      memoryMb: 1024,
      diskSpaceMb: 20480,
      diskSpace2Mb: 0,
      runningState: "RUNNING",
      ipCount: 1,
      metaData: { team: "web" },
      secondaryIps: [],
    });
    expect(outs.slug).toMatch(new RegExp(`^order-${id}-`));
    expect(outs.primaryIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(outs.hostServerOid).toMatch(/^\d+$/);
    expect(outs.monthlyFeeUsd).toBeGreaterThan(0);
    // The service's one-line summary restates the outputs: it is getOrder's, not kept in the state.
    expect(outs).not.toHaveProperty("orderDescription");
    // The service generated a password (none given) and it is returned for the secret output.
    expect(typeof outs.password).toBe("string");
    expect((outs.password ?? "").length).toBeGreaterThanOrEqual(8);
    // The creation token stays internal.
    expect(JSON.stringify(outs.metaData)).not.toContain("creation-token");
    expect(JSON.stringify(outs)).not.toContain("__provider");
    const snap = fx.emulator.snapshot().find((o) => String(o.orderOid) === id);
    expect(snap).toMatchObject({ domainName: "web1.example.com", runningState: "RUNNING", cancelled: false });
  });

  it("create: keeps a given password and stops the VPS when runningState is NOTRUNNING", async () => {
    const { id, outs } = await createChecked({
      ...BASE,
      password: "given-root-pw-1",
      runningState: "NOTRUNNING",
    });
    expect(outs.password).toBe("given-root-pw-1");
    expect(outs.runningState).toBe("NOTRUNNING");
    expect(fx.emulator.snapshot().find((o) => String(o.orderOid) === id)?.runningState).toBe("NOTRUNNING");
  });

  it("update: resizes, moves, reinstalls and sets the running state, in that order, returning full outputs", async () => {
    const created = await createChecked(BASE);
    const id = created.id;
    const targetHost = created.outs.hostServerOid === "835" ? "764" : "835";

    // No change: no diff, and update() would do nothing.
    expect(await impl.diff(id, created.outs as never, BASE)).toMatchObject({ changes: false, replaces: [] });

    const news = {
      ...BASE,
      memoryMb: 2048,
      diskSpaceMb: 40960,
      hostServerOid: targetHost,
      distro: "deb13.64",
      allowReinstall: true,
      runningState: "NOTRUNNING" as const,
    };
    expect((await impl.check(BASE, news)).failures).toBeUndefined();
    expect(await impl.diff(id, created.outs as never, news)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const before = mutations().length;
    const { outs } = await impl.update(id, created.outs as never, news);
    const routes = mutations()
      .slice(before)
      .map((r) => r.route);
    expect(routes).toEqual(["changeParameters", "moveVps", "reinstallVps", "setRunningState"]);
    expect(outs).toMatchObject({
      orderOid: Number(id),
      memoryMb: 2048,
      diskSpaceMb: 40960,
      hostServerOid: targetHost,
      distro: "deb13.64",
      runningState: "NOTRUNNING",
      allowReinstall: true,
      domainName: "web1.example.com",
    });
    // Moving to another host changes the IP; reinstalling without a password input generates a new one.
    expect(outs.primaryIp).not.toBe(created.outs.primaryIp);
    expect(typeof outs.password).toBe("string");
    expect(outs.password).not.toBe(created.outs.password);
    // Everything is in the outputs: update() returns the full set, not just what changed.
    for (const key of ["slug", "primaryIp", "secondaryIps", "monthlyFeeUsd", "dcLocation", "metaData"]) {
      expect(outs).toHaveProperty(key);
    }
    // A second diff against the new outputs is clean.
    expect(await impl.diff(id, outs as never, news)).toMatchObject({ changes: false });
  });

  it("update: a running-state change alone makes exactly one call", async () => {
    const created = await createChecked(BASE);
    const before = mutations().length;
    const { outs } = await impl.update(created.id, created.outs as never, {
      ...BASE,
      runningState: "NOTRUNNING",
    });
    expect(
      mutations()
        .slice(before)
        .map((r) => r.route),
    ).toEqual(["setRunningState"]);
    expect(outs.runningState).toBe("NOTRUNNING");
    const back = await impl.update(created.id, outs as never, { ...BASE, runningState: "RUNNING" });
    expect(back.outs.runningState).toBe("RUNNING");
  });

  it("update: a resize restarts a stopped VPS, so the running state is applied after it", async () => {
    const created = await createChecked({ ...BASE, runningState: "NOTRUNNING" });
    const { outs } = await impl.update(created.id, created.outs as never, {
      ...BASE,
      runningState: "NOTRUNNING",
      memoryMb: 2048,
    });
    expect(outs).toMatchObject({ memoryMb: 2048, runningState: "NOTRUNNING" });
  });

  it("update: refuses a reinstall without allowReinstall and a disk shrink, before changing anything", async () => {
    const created = await createChecked(BASE);
    const before = mutations().length;
    await expect(
      impl.update(created.id, created.outs as never, { ...BASE, distro: "deb13.64" }),
    ).rejects.toMatchObject({
      code: "RIMU_ERR_CHANGE_REFUSED",
      message: expect.stringMatching(
        /^\[RIMU_ERR_CHANGE_REFUSED\] distro: .*allowReinstall: true.*Nothing was changed\.$/,
      ),
    });
    await expect(
      impl.update(created.id, created.outs as never, { ...BASE, diskSpaceMb: 10240 }),
    ).rejects.toThrow(/diskSpaceMb: a disk cannot shrink \(20480 MB to 10240 MB\)/);
    expect(mutations().length).toBe(before);
  });

  it("update: settings only (timeouts) make no API change and return full outputs", async () => {
    const created = await createChecked(BASE);
    const before = mutations().length;
    const { outs } = await impl.update(created.id, created.outs as never, {
      ...BASE,
      timeouts: { updateMinutes: 5 },
    });
    expect(mutations().length).toBe(before);
    expect(outs).toMatchObject({
      timeouts: { updateMinutes: 5 },
      primaryIp: created.outs.primaryIp,
      password: created.outs.password,
    });
  });

  it("read: shows drift (stopped and resized by hand) in props and inputs; the next update brings it back", async () => {
    const created = await createChecked({ ...BASE, runningState: "RUNNING" });
    const oid = Number(created.id);
    await fx.byHand.changeParameters(oid, { memory_mb: 4096 });
    await fx.byHand.setRunningState(oid, "NOTRUNNING");
    testing.forgetRun(); // `pulumi refresh`: a new provider host, whose reads list the account anew

    const refreshed = await impl.read(created.id, created.outs as never);
    expect(refreshed.id).toBe(created.id);
    expect(refreshed.props).toMatchObject({ memoryMb: 4096, runningState: "NOTRUNNING" });
    expect(refreshed.inputs).toMatchObject({
      memoryMb: 4096,
      runningState: "NOTRUNNING",
      domainName: "web1.example.com",
    });
    // An input the program did not set (the generated password) is never handed back as an input.
    expect(refreshed.inputs).not.toHaveProperty("password");
    expect(refreshed.inputs).not.toHaveProperty("billingOid");
    expect(refreshed.props?.password).toBe(created.outs.password);

    const program = { ...BASE, runningState: "RUNNING" as const };
    expect(await impl.diff(created.id, refreshed.props as never, program)).toMatchObject({
      changes: true,
      replaces: [],
    });
    const { outs } = await impl.update(created.id, refreshed.props as never, program);
    expect(outs).toMatchObject({ memoryMb: 1024, runningState: "RUNNING" });
  });

  it("read: works with the id alone (Vps.get), filling every output from the service", async () => {
    const created = await createChecked(BASE);
    const got = await impl.read(created.id, { __provider: PROVIDER });
    expect(got.id).toBe(created.id);
    expect(got.props).toMatchObject({
      orderOid: Number(created.id),
      domainName: "web1.example.com",
      distro: "deb12.64",
      memoryMb: 1024,
      primaryIp: created.outs.primaryIp,
    });
    expect(got.props).not.toHaveProperty("password");
  });

  it("read: a cancelled or unknown order leaves the stack (no id)", async () => {
    const created = await createChecked(BASE);
    await fx.byHand.deleteVps(Number(created.id));
    testing.forgetRun(); // `pulumi refresh`: a new provider host
    expect(await impl.read(created.id, created.outs as never)).toEqual({});
    expect(await impl.read("987654321", created.outs as never)).toEqual({});
  });

  it("read: an order only scheduled to cancel at the end of its billing period is still there", async () => {
    const created = await createChecked(BASE);
    await fx.byHand.cancelOrder(Number(created.id));
    const refreshed = await impl.read(created.id, created.outs as never);
    expect(refreshed.id).toBe(created.id);
    expect(refreshed.props?.runningState).toBe("RUNNING");
  });

  it("delete: cancels the order; a second delete and a delete of an unknown order succeed", async () => {
    const created = await createChecked(BASE);
    await impl.delete(created.id, created.outs as never);
    expect(fx.emulator.snapshot().find((o) => String(o.orderOid) === created.id)).toMatchObject({
      cancelled: true,
      runningState: "NOTRUNNING",
    });
    await expect(impl.delete(created.id, created.outs as never)).resolves.toBeUndefined();
    await expect(impl.delete("987654321", {})).resolves.toBeUndefined();
  });

  it("update: a resize reads the account's listing before and after it (shared with the fleet), never the order by itself", async () => {
    const created = await createChecked(BASE);
    testing.forgetRun(); // `pulumi up`: a new provider host
    const start = fx.emulator.requestLog().length;
    const { outs } = await impl.update(created.id, created.outs as never, { ...BASE, memoryMb: 2048 });
    const routes = fx.emulator
      .requestLog()
      .slice(start)
      .map((r) => r.route);
    // The listing the run's other VPSs are looked up in too; the read-back, one listing read after the change.
    expect(routes).toEqual(["listOrders", "changeParameters", "listOrders"]);
    expect(outs.memoryMb).toBe(2048);

    // With a running-state change too: one read after the resize; the running-state answer already holds the
    // order as it now stands, so no read after it.
    testing.forgetRun();
    const next = fx.emulator.requestLog().length;
    const stopped = await impl.update(created.id, outs as never, {
      ...BASE,
      memoryMb: 3072,
      runningState: "NOTRUNNING",
    });
    expect(
      fx.emulator
        .requestLog()
        .slice(next)
        .map((r) => r.route),
    ).toEqual(["listOrders", "changeParameters", "listOrders", "setRunningState"]);
    expect(stopped.outs.runningState).toBe("NOTRUNNING");
    expect(stopped.outs.memoryMb).toBe(3072);
  });

  it("a generated root password appears only in the secret password output: not in logs, other outputs or refreshed inputs", async () => {
    const created = await createChecked(BASE);
    const generated = created.outs.password as string;
    expect(generated.length).toBeGreaterThanOrEqual(8);
    const reinstalled = await impl.update(created.id, created.outs as never, {
      ...BASE,
      distro: "deb13.64",
      allowReinstall: true,
    });
    const regenerated = reinstalled.outs.password as string;
    expect(regenerated).not.toBe(generated);
    const refreshed = await impl.read(created.id, reinstalled.outs as never);
    for (const outs of [created.outs, reinstalled.outs, refreshed.props ?? {}]) {
      const { password, ...others } = outs as Record<string, unknown>;
      expect(typeof password).toBe("string");
      expect(JSON.stringify(others)).not.toContain(generated);
      expect(JSON.stringify(others)).not.toContain(regenerated);
    }
    expect(JSON.stringify(refreshed.inputs)).not.toContain(regenerated);
    expect(fx.logs.length).toBeGreaterThan(0);
    for (const line of fx.logs) {
      expect(line).not.toContain(generated);
      expect(line).not.toContain(regenerated);
    }
  });

  it("errors never contain the API key or a password", async () => {
    const created = await createChecked({ ...BASE, password: "given-root-pw-2" });
    const failures: string[] = [];
    await impl
      .update(created.id, created.outs as never, { ...BASE, distro: "deb13.64" })
      .catch((e: Error) => failures.push(e.message));
    await impl.update("987654321", created.outs as never, BASE).catch((e: Error) => failures.push(e.message));
    await impl
      .create(unchecked({ ...BASE, dcLocation: "DCMARS", password: "given-root-pw-3" }))
      .catch((e: Error) => failures.push(e.message));
    expect(failures).toHaveLength(3);
    for (const message of failures) {
      expect(message).not.toContain(DEMO_API_KEY);
      expect(message).not.toMatch(/given-root-pw/);
    }
    expect(fx.logs.join("\n")).not.toMatch(new RegExp(`${DEMO_API_KEY}|given-root-pw`));
  });
});
