/**
 * Two providers of one command (issue 80 item 5, the third bug): provider B replaces order O with R, finds at its
 * read-back that an order placed meanwhile takes the account over monthlyBudgetUsd, and withdraws R; O stays, and B's
 * state still holds it (the create failed, the engine keeps the old VPS). While B's withdrawal of R is in flight,
 * provider A is refused on the budget: the command fails, so A cancels the orders the command's other providers
 * replaced (replaced-orders.ts). O is no longer replaced: A must leave it billed, or B's state holds a VPS that is gone.
 * The emulator holds B's DELETE of R ("delay": nothing is done until then), so A's refusal lands inside it.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { until } from "../../helpers/promises";
import { APP_INPUTS, rejectionOf, stackConfig, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture();
beforeEach(() => testing.setRetryDelay(1));
afterEach(() => testing.setRetryDelay(undefined));

/** How long the emulator holds B's order and B's withdrawal: a bound on the steps inside them (the test waits each out once). */
const HOLD_MS = 2_000;

const configure = (settings: Record<string, string>) => {
  const base = stackConfig(fixture().emulator.baseUrl);
  return impl.configure({
    config: { get: (key) => settings[key.replace("rimuhosting:", "")] ?? base.get(key) },
  });
};

const active = async () =>
  ((await fixture().byHand.listOrders({ includeInactive: false })).about_orders ?? []).map(
    (o) => o.order_oid,
  );

const taken = (route: string) => () =>
  !fixture()
    .emulator.app.emulator.faults.pending()
    .some((f) => f.route === route);

it("a provider refused on the budget leaves alone the order another provider's withdrawn replacement replaced", async () => {
  await configure({});
  testing.forgetRun();
  const first = await impl.check({}, APP_INPUTS);
  const old = await impl.create(first.inputs);
  const oldOid = Number(old.id);
  // Room for O grown to 2 GB (its replacement), not for another 1 GB VPS beside it.
  await configure({ monthlyBudgetUsd: "25" });
  const command = `one command ${Math.random()}`;
  const a = testing.beginRun(command);
  const b = testing.beginRun(command);
  const grown = { ...APP_INPUTS, dcLocation: "DCLONDON" as const, memoryMb: 2048 };
  const another = { ...APP_INPUTS, domainName: "app2.example.com", creationScope: "shop/prod/app2" };
  const moved = await testing.serving(b, () => impl.check(first.inputs, grown));
  expect(moved.failures).toBeUndefined();
  const again = await testing.serving(b, () => impl.check({}, grown));
  expect(again.failures).toBeUndefined();
  const checkedA = await testing.serving(a, () => impl.check({}, another));
  expect(checkedA.failures).toBeUndefined();

  // B's order is held; an order by hand lands before it, so B's read-back finds the account over the budget.
  fixture().emulator.injectFault({ route: "createVps", kind: "delay", delayMs: HOLD_MS });
  fixture().emulator.injectFault({ route: "deleteVps", kind: "delay", delayMs: HOLD_MS });
  const replacing = rejectionOf(testing.serving(b, () => impl.create(again.inputs)));
  await until("B's order to be held", taken("createVps"));
  const byHand = await fixture().byHand.createVps({
    instantiation_options: { domain_name: "hand.example.com", distro: "deb12.64" },
    vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
  });
  await until("B's withdrawal of its replacement to be held", taken("deleteVps"));
  // A, refused on the budget while B withdraws.
  const refused = await rejectionOf(testing.serving(a, () => impl.create(checkedA.inputs)));
  expect(refused.message).toContain("RIMU_ERR_BUDGET");
  expect((await replacing).message).toContain("was cancelled at once");
  expect(await active()).toEqual([oldOid, byHand.about_order.order_oid]);
});
