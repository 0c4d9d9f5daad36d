/**
 * A failed read-back after an order (issue 64 case 5, invariant I4 of docs/cost.md): once RimuHosting took the order,
 * the account is read again to judge it against the monthly budget (provider/impl/ordering/order-withdrawal.ts). When
 * that read fails (a 429 or a 5xx with no retry left, a timeout), the order is billed all the same, so the create
 * fails as incomplete with the order's id: the state records it, and the next update, refresh and delete handle it.
 * Against the emulator over loopback, faults injected on its listing while the order is held.
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

const configure = (settings: Record<string, string>) =>
  impl.configure({ config: stackConfigWith(fixture().emulator.baseUrl, settings) });

const inputs = { ...APP_INPUTS, domainName: "web-1.example.com", creationScope: "shop/prod/web-1" };

const activeOids = () => activeOrderOids(fixture());

/** The faults of the listing that read-back meets, each with what it takes to make it fail. */
const FAULTS = [
  ["a 429", { kind: "status", status: 429, retryAfterSeconds: 0 }],
  ["a 503", { kind: "status", status: 503 }],
  ["a timeout", { kind: "delay", delayMs: 3_000 }],
] as const;

afterEach(() => testing.setReadTimeoutForTests(undefined));

describe("an order whose read-back fails", () => {
  it.each(FAULTS)(
    "%s: recorded as incomplete with the order's id; update, refresh and delete handle it",
    async (_t, fault) => {
      await configure({ monthlyBudgetUsd: "1000", retryLimit: "0" });
      testing.setReadTimeoutForTests(1_000);
      const checked = await impl.check({}, inputs);
      expect(checked.failures).toBeUndefined();
      // Hold the order, and arm the listing's fault while it is held: the next listing is the read-back.
      const faults = fixture().emulator.app.emulator.faults;
      fixture().emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 500 });
      const creating = rejectionOf(impl.create(checked.inputs));
      await until("the order held by the delay", () => faults.pending().length === 0);
      fixture().emulator.injectFault({ route: "listOrders", ...fault });
      const error = await creating;
      expect(error).toBeInstanceOf(impl.VpsIncompleteError);
      expect(error.message).toMatch(
        /^\[RIMU_ERR_VPS_INCOMPLETE\] Ordering VPS web-1\.example\.com: order \d+ was placed/,
      );
      const [oid] = await activeOids();
      expect(error.id).toBe(String(oid));
      expect(error.properties).toMatchObject({ orderOid: oid, domainName: "web-1.example.com" });
      expect(error.properties.__creationNonce).toBe(checked.inputs.__creationNonce);

      // The next `pulumi up`: check and update of the recorded order, which orders nothing new.
      testing.setReadTimeoutForTests(undefined);
      testing.forgetRun();
      const recorded = error.properties as never;
      const again = await impl.check(checked.inputs, inputs);
      expect(again.failures).toBeUndefined();
      const updated = await impl.update(error.id, recorded, again.inputs);
      expect(updated.outs.orderOid).toBe(oid);
      testing.forgetRun();
      const read = await impl.read(error.id, updated.outs as never);
      expect(read.id).toBe(String(oid));
      expect(await activeOids()).toEqual([oid]);
      await impl.delete(error.id, updated.outs as never);
      expect(await activeOids()).toEqual([]);
    },
  );
});
