// The emulator's date moved past a scheduled cancellation, through the real CLI (docs/vps.md#refresh-and-drift): a
// VPS RimuHosting will cancel at the end of its billing period runs until then, and the check of the stack passes;
// once the date is past it, `pulumi refresh --preview-only --expect-no-changes` reports the VPS gone (exit 7) and
// `pulumi up --refresh` orders a new one, on a new IP address. One program, four CLI runs.
import * as path from "node:path";
import { controlApi } from "../helpers/control-api";
import { pulumiRun } from "./drift-check";
import { describeCliOnly } from "./describe-cli";
import { startScenario, type Scenario } from "./e2e-support";
import { REFRESH_PROGRAM_CONFIG } from "./refresh-output";

jest.setTimeout(240_000);

describeCliOnly("the emulator's date moved past a scheduled cancellation", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startScenario("calendar", {
      programDir: path.join(__dirname, "fixtures", "refresh"),
      config: REFRESH_PROGRAM_CONFIG,
      emulator: { control: true },
    });
  });
  afterAll(async () => s?.close());

  test("refresh reports the VPS gone once the date passes its cancellation, and up --refresh orders a new one", async () => {
    const up = await s.stack.up();
    const first = Number(up.steps.find((step) => step.name === "web")!.id);
    const cancelled = await s.client.cancelOrder(first);
    const day = cancelled.about_order!.billing_info!.cancellation_date!.ms_since_epoch;
    // Recorded by a refresh, the scheduled cancellation is no drift: the VPS runs until then.
    expect((await pulumiRun(s.stack.cli, "refresh", "--yes")).code).toBe(0);
    const before = await pulumiRun(s.stack.cli, "refresh", "--preview-only", "--expect-no-changes");
    expect({ code: before.code, out: before.stdout + before.stderr }).toMatchObject({ code: 0 });

    const moved = await controlApi(s.emulator.baseUrl)("POST", "/time/advance", {
      now: new Date(day + 86_400_000).toISOString(),
    });
    expect(moved.body).toMatchObject({ ordersEnded: [first] });

    const check = await pulumiRun(s.stack.cli, "refresh", "--preview-only", "--expect-no-changes");
    expect(check.code).toBe(7);
    expect(check.stdout + check.stderr).toContain(
      `web: changed outside Pulumi: order ${first} refresh.example.com → gone (cancelled or removed).`,
    );

    const again = await pulumiRun(s.stack.cli, "up", "--refresh", "--yes");
    expect({ code: again.code, out: again.stdout + again.stderr }).toMatchObject({ code: 0 });
    const orders = s.emulator.snapshot().filter((order) => order.domainName === "refresh.example.com");
    expect(orders.map(({ orderOid, active }) => ({ old: orderOid === first, active }))).toEqual([
      { old: true, active: false },
      { old: false, active: true },
    ]);
    // A new VPS, as the preview's warning says: a new IP address (the emulator reused the old one, issue 82).
    expect(orders[1]!.ips[0]).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(orders[1]!.ips[0]).not.toBe(orders[0]!.ips[0]);
  });
});
