/**
 * Two providers of one command (issue 80 item 5, the third bug): provider B replaces order O with R, finds at its
 * read-back that an order placed meanwhile takes the account over monthlyBudgetUsd, and withdraws R; O stays, and B's
 * state still holds it (the create failed, the engine keeps the old VPS). While B's withdrawal of R is in flight,
 * provider A is refused on the budget: the command fails, so A cancels the orders the command's other providers
 * replaced (replaced-orders.ts). O is no longer replaced: A must leave it billed, or B's state holds a VPS that is gone.
 * The emulator holds B's DELETE of R ("delay": nothing is done until then), so A's refusal lands inside it.
 *
 * And earlier (issue 81's review): B notes O replaced in the command's shared plan once R is placed, before its
 * read-back decides whether R stays. A refused while that read-back is held must leave O alone too: only a kept
 * replacement's order is another provider's to cancel (shared-plan.ts's noteKept).
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { until } from "../../helpers/promises";
import {
  activeOrderOids,
  APP_INPUTS,
  rejectionOf,
  stackConfigWith,
  useImplFixture,
} from "../support/impl-fixture";

const fixture = useImplFixture();
beforeEach(() => testing.setRetryDelay(1));
afterEach(() => testing.setRetryDelay(undefined));

/** How long the emulator holds B's order and B's withdrawal: a bound on the steps inside them (the test waits each out once). */
const HOLD_MS = 2_000;

const configure = (settings: Record<string, string>) =>
  impl.configure({ config: stackConfigWith(fixture().emulator.baseUrl, settings) });

const active = () => activeOrderOids(fixture());

const taken = (route: string) => () =>
  !fixture()
    .emulator.app.emulator.faults.pending()
    .some((f) => f.route === route);

/**
 * O (1 GB in Dallas) ordered; then, in one command under a $25 budget (room for O grown to 2 GB, its replacement R,
 * not for another 1 GB VPS beside it), B replaces O with R, an order by hand lands just before R (the emulator holds
 * B's order), and A is refused on the budget while the step of B's that `hold` names is held.
 */
async function refusedDuring(hold: "withdrawal" | "read-back") {
  await configure({});
  testing.forgetRun();
  const first = await impl.check({}, APP_INPUTS);
  const old = await impl.create(first.inputs);
  const oldOid = Number(old.id);
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
  if (hold === "withdrawal")
    fixture().emulator.injectFault({ route: "deleteVps", kind: "delay", delayMs: HOLD_MS });
  const replacing = rejectionOf(testing.serving(b, () => impl.create(again.inputs)));
  await until("B's order to be held", taken("createVps"));
  const byHand = await fixture().byHand.createVps({
    instantiation_options: { domain_name: "hand.example.com", distro: "deb12.64" },
    vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
  });
  // The next listing is B's read-back after its order (nothing else lists until A starts below).
  if (hold === "read-back")
    fixture().emulator.injectFault({ route: "listOrders", kind: "delay", delayMs: HOLD_MS });
  const held = hold === "withdrawal" ? "deleteVps" : "listOrders";
  await until(`B's ${hold} to be held`, taken(held));
  // A, refused on the budget while B's step is held.
  const refused = await rejectionOf(testing.serving(a, () => impl.create(checkedA.inputs)));
  return { refused, replacing: await replacing, oldOid, handOid: byHand.about_order.order_oid };
}

it("a provider refused on the budget leaves alone the order another provider's withdrawn replacement replaced", async () => {
  const seen = await refusedDuring("withdrawal");
  expect(seen.refused.message).toContain("RIMU_ERR_BUDGET");
  expect(seen.replacing.message).toContain("was cancelled at once");
  expect(await active()).toEqual([seen.oldOid, seen.handOid]);
});

it("a provider refused while another's replacement is still judged leaves the order it replaces alone", async () => {
  const seen = await refusedDuring("read-back");
  expect(seen.refused.message).toContain("RIMU_ERR_BUDGET");
  // R withdrawn, B's create fails and the engine keeps O in B's state: O must still be billed, not cancelled by A.
  expect(seen.replacing.message).toContain("was cancelled at once");
  expect(seen.refused.message).not.toContain(`order ${seen.oldOid}`);
  expect(await active()).toEqual([seen.oldOid, seen.handOid]);
});
