/**
 * I1 on the native plugin (docs/cost.md, "What a budget limits, and when"): the real plugin process
 * (dist/provider/native/main.js) driven over gRPC as the engine drives `pulumi preview` and `pulumi up`, one plugin
 * process (one engine address) per engine run, against the emulator. Its Check is not told which phase it is in; the
 * update checks a create before the shrink its preview counted (the money model's seed 6464, case 19, through the
 * CLI: test/engine/money-model-cli-yaml.test.ts). The create passes in the update, without `dependsOn`, once the
 * shrink is checked; a preview that checks the create and not the shrink fails, ordering nothing.
 */
import * as pulumi from "@pulumi/pulumi";
import { DEMO_API_KEY } from "../../emulator/index";
import { ProviderRpcError } from "../helpers/provider-client";
import { rejectionOf, until } from "../helpers/promises";
import { useEmulator } from "../helpers/use-emulator";
import { startNativePlugin, vpsUrn, type NativePlugin } from "./plugin-client";

const emulator = useEmulator({ seed: 6464 });
const secret = (value: unknown) => ({
  [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig,
  value,
});

const PROJECT = "native-i1";
const vps = (name: string, memoryMb: number) => ({
  domainName: `${name}.native-i1.example.com`,
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  memoryMb,
});
const DB = vpsUrn("db", PROJECT);
const WEB = vpsUrn("web", PROJECT);

const started: NativePlugin[] = [];
/** One engine run: a plugin process of its own (the engine's address is the run), with the stack's budget. */
async function engineRun(config: Record<string, unknown> = {}): Promise<NativePlugin> {
  const plugin = await startNativePlugin({ env: { RIMUHOSTING_APIKEY: "", RIMUHOSTING_BASEURL: "" } });
  started.push(plugin);
  await plugin.configure({ apiKey: secret(DEMO_API_KEY), baseUrl: emulator().baseUrl, ...config });
  return plugin;
}
afterAll(async () => {
  await Promise.all(started.map((plugin) => plugin.close()));
});

const activeOrders = () =>
  emulator()
    .snapshot()
    .filter((order) => !order.cancelled);
const money = (n: number) => `$${n.toFixed(2)}`;

describe("the native plugin keeps I1 without dependsOn: a create checked before its shrink (L3)", () => {
  it("passes in the update once the shrink is checked; fails in a preview without it; refuses at Check what no shrink can fix", async () => {
    // db billed at 2 GB; a budget of two 1 GB VPSs: web fits only once db shrinks to 1 GB.
    const setUp = await engineRun();
    const db = await setUp.check(DB, {}, vps("db", 2048));
    const dbCreated = await setUp.create(DB, db.inputs);
    const fee = (await setUp.check(WEB, {}, vps("web", 1024))).inputs.plannedMonthlyFeeUsd as number;
    const budget = { monthlyBudgetUsd: String(2 * fee) };
    const billed = activeOrders().reduce((sum, order) => sum + order.monthlyFeeUsd, 0);
    expect(billed).toBeGreaterThan(fee);

    /** The preview of `pulumi up` in the program's order: db's shrink, then web. */
    const previewInOrder = async () => {
      const run = await engineRun(budget);
      const shrink = await run.check(DB, db.inputs, vps("db", 1024));
      const create = await run.check(WEB, {}, vps("web", 1024));
      expect([...shrink.failures, ...create.failures]).toEqual([]);
      await run.update(dbCreated.id, DB, dbCreated.properties, shrink.inputs, { preview: true });
      await run.create(WEB, create.inputs, { preview: true });
    };
    await previewInOrder();

    // A preview that checks web and never db's shrink: over, and no check of this run can know it, so the create's
    // preview call refuses with the budget's words, naming web; nothing is ordered.
    const partial = await engineRun(budget);
    const alone = await partial.check(WEB, {}, vps("web", 1024));
    expect(alone.failures).toEqual([]);
    const refused = await rejectionOf(partial.create(WEB, alone.inputs, { preview: true }), ProviderRpcError);
    expect(refused.details).toContain(
      `[RIMU_ERR_BUDGET] this run takes the account's monthly fees (every active order on it, with the changes of ` +
        `the 1 VPS checked so far) from ${money(billed)} to ${money(billed + fee)}, over the monthly budget of ` +
        `${money(2 * fee)} (rimuhosting:monthlyBudgetUsd)`,
    );
    expect(refused.details).toContain("Adding the most: web +");
    expect(refused.details).toContain("Nothing was ordered or changed. See docs/cost.md.");
    expect(activeOrders()).toHaveLength(1);

    // `pulumi up`: its preview passes, then its update checks web before db, and creates web just after its check.
    await previewInOrder();
    const update = await engineRun(budget);
    const web = await update.check(WEB, {}, vps("web", 1024));
    expect(web.failures).toEqual([]);
    const requests = emulator().requestLog().length;
    const creating = update.create(WEB, web.inputs);
    // The create's guard has read the account (it is judging, and waits for db's check).
    await until("the create's listing", () =>
      emulator()
        .requestLog()
        .slice(requests)
        .some((r) => r.route === "listOrders"),
    );
    const shrink = await update.check(DB, db.inputs, vps("db", 1024));
    expect(shrink.failures).toEqual([]);
    const created = await creating;
    await update.update(dbCreated.id, DB, dbCreated.properties, shrink.inputs);
    expect(
      activeOrders()
        .map((order) => String(order.orderOid))
        .sort(),
    ).toEqual([dbCreated.id, created.id].sort());
    const after = activeOrders().reduce((sum, order) => sum + order.monthlyFeeUsd, 0);
    expect(after).toBeCloseTo(2 * fee, 2);

    // One VPS that no shrink of its stack's preview could make fit is still refused at its Check, in any phase.
    const other = await engineRun(budget);
    const over = await other.check(vpsUrn("web", PROJECT, "other"), {}, vps("extra", 1024));
    expect(over.failures.map((f) => f.reason)).toEqual([
      expect.stringMatching(
        /^\[RIMU_ERR_BUDGET\] this run takes the account's monthly fees .* over the monthly budget/,
      ),
    ]);
  });
});
