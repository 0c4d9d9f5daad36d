/**
 * A `deleteBeforeReplace` move at the same price under `maxMonthlyIncreaseUsd: 0` (issue 80 item 5): the engine
 * cancels the old order first, then creates its replacement, which the guard counts as replacing it (never as a whole
 * new order). Here also the DELETE's answer lost after RimuHosting cancelled the order: the delete settles it by
 * reading the order (gone), and the replacement must still be counted against the cancelled fee (the "already gone"
 * branch noted no cancelled fee, so the replacement was refused as a whole new VPS).
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import * as native from "../../../provider/native/vps-resource";
import { activeOrderOids, APP_INPUTS, stackConfigWith, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture();
beforeEach(() => testing.setRetryDelay(1));
afterEach(() => testing.setRetryDelay(undefined));

const configure = (settings: Record<string, string>) =>
  impl.configure({ config: stackConfigWith(fixture().emulator.baseUrl, settings) });

const active = () => activeOrderOids(fixture());

it.each([
  ["its answer arrives", false],
  ["its answer is lost after the cancellation", true],
] as const)("the delete of a same-price move (%s): the replacement is ordered", async (_title, lost) => {
  await configure({});
  const london = { ...APP_INPUTS, dcLocation: "DCLONDON" as const };
  const frankfurt = { ...APP_INPUTS, dcLocation: "DCFRANKFURT" as const };
  testing.forgetRun();
  const first = await impl.check({}, london);
  const made = await impl.create(first.inputs);
  await configure({ maxMonthlyIncreaseUsd: "0" });
  // The update: check and diff of the move (a replacement), the replacement's check, then the old order's delete
  // first and the replacement's create, as the engine runs a deleteBeforeReplace.
  testing.forgetRun();
  const moved = await impl.check(first.inputs, frankfurt);
  expect(moved.failures).toBeUndefined();
  expect((await impl.diffVps(made.id, made.outs as never, moved.inputs)).replaces).toContain("dcLocation");
  const again = await impl.check({}, frankfurt);
  expect(again.failures).toBeUndefined();
  if (lost) fixture().emulator.injectFault({ route: "deleteVps", kind: "drop-after-commit" });
  await impl.delete(made.id, made.outs as never);
  fixture().emulator.app.emulator.faults.clear();
  expect(await active()).toEqual([]);
  const replacement = await impl.create(again.inputs);
  expect(await active()).toEqual([Number(replacement.id)]);
  await impl.delete(replacement.id, replacement.outs as never);
});

/**
 * The same move on a VPS `pulumi import` brought into a stack of the native plugin: its state records no
 * creationScope (Read has none to give), so its delete must take the resource's key from the URN the engine sends, or
 * the cancelled fee is noted under another key than the replacement's and the replacement is refused.
 */
it("the delete of an imported VPS's same-price move (native plugin): the replacement is ordered", async () => {
  await configure({});
  const urn = "urn:pulumi:prod::shop::rimuhosting:index:Vps::app";
  const byHand = await fixture().byHand.createVps({
    instantiation_options: { domain_name: APP_INPUTS.domainName, distro: "deb12.64" },
    vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
    dc_location: "DCLONDON",
  });
  const oid = String(byHand.about_order.order_oid);
  const imported = await native.read(oid, {});
  await configure({ maxMonthlyIncreaseUsd: "0" });
  testing.forgetRun();
  const program = { domainName: APP_INPUTS.domainName, distro: "deb12.64", dcLocation: "DCFRANKFURT" };
  const moved = await native.check(urn, imported.inputs ?? {}, {
    ...program,
    memoryMb: 1024,
    diskSpaceMb: 20480,
  });
  expect(moved.failures).toEqual([]);
  expect((await native.diff(oid, urn, imported.properties, moved.inputs)).replaces).toContain("dcLocation");
  const again = await native.check(urn, {}, { ...program, memoryMb: 1024, diskSpaceMb: 20480 });
  expect(again.failures).toEqual([]);
  await native.deleteVps(oid, imported.properties, undefined, urn);
  const replacement = await native.create(urn, again.inputs, false);
  expect(await active()).toEqual([Number(replacement.id)]);
  await native.deleteVps(replacement.id, replacement.properties, undefined, urn);
});
