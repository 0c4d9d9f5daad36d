// A lost create through the real `pulumi` CLI: the order request's connection drops, so the provider cannot tell
// whether RimuHosting placed the order. It looks the order up by its creation token for its lookup window (about 50 s
// of backoff: this test's wall time), finds nothing, and records a *pending* resource (id `pending-<token>`) instead of
// failing plainly. RimuHosting then finishes the order late (placed here by hand with the same creation token and this
// state's nonce, as the service would have): `pulumi refresh` records the order's id, `pulumi up` orders nothing,
// `pulumi destroy` cancels it. The same flow is tested call by call in test/provider/impl/vps-create-once.test.ts.
//
// Real CLI only (skipped, with the reason in its name, without one): what is under test is what the engine records
// from the provider's init failure (the pending id and its properties) and does with it on the next commands.
import { CREATION_NONCE_KEY } from "../../provider/impl/lifecycle/creation-token";
import { describeCliOnly } from "./describe-cli";
import { liveOrders, startScenario, VPS_TYPE, vpsOps, type Scenario } from "./e2e-support";
import { checkpointOf } from "./kill-run";

jest.setTimeout(240_000);

describeCliOnly("a lost create", () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await startScenario("lifecycle");
  });
  afterAll(async () => s?.close());

  const vpsInState = async () =>
    (await checkpointOf(s)).deployment.resources?.find((r) => r.type === VPS_TYPE);

  test("recorded as pending; the late order is picked up by refresh and up, never ordered twice", async () => {
    s.emulator.injectFault({ route: "createVps", kind: "drop" });
    const failed = await s.stack.up().then(
      () => undefined,
      (e: unknown) => String(e),
    );
    expect(failed).toContain("RIMU_ERR_CREATE_OUTCOME_UNKNOWN");
    expect(liveOrders(s.emulator)).toEqual([]);
    const pending = await vpsInState();
    expect(pending?.id).toMatch(/^pending-/);
    const token = pending?.outputs?.__creationToken;
    const nonce = pending?.outputs?.__creationNonce;
    expect(typeof token).toBe("string");
    expect(typeof nonce).toBe("string");

    // RimuHosting finishes the lost order late: the same creation token and this state's nonce.
    const late = await s.client.createVps(
      {
        instantiation_options: { domain_name: "app.lifecycle.example.com", distro: "deb12.64" },
        dc_location: "DCDALLAS",
        pricing_plan_code: "MIRO1B",
        vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
        meta_data: [{ key_name: CREATION_NONCE_KEY, value: nonce as string }],
      },
      { creationToken: token as string },
    );
    const lateOid = late.about_order.order_oid;
    const mark = s.mark();

    await s.stack.refresh();
    expect((await vpsInState())?.id).toBe(String(lateOid));
    const r = await s.stack.up();
    expect(["same", "update"]).toContain(vpsOps(r).app);
    expect(r.outputs.orderOid).toBe(lateOid);
    expect(s.mutationsSince(mark)).toEqual([]); // nothing ordered, nothing changed
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([lateOid]);
    expect((await checkpointOf(s)).deployment.pending_operations ?? []).toEqual([]);

    expect(vpsOps(await s.stack.destroy())).toEqual({ app: "delete" });
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
