// No false alarms (issue 41), for either front end (drift-fleet-native.test.ts, drift-fleet-dynamic.test.ts): an
// unchanged fleet of 20 VPSs refreshed with `pulumi refresh --preview-only --expect-no-changes --json` reports no
// drift each time (exit 0, and the drift report says so), through the real CLI: 10 times on the native plugin, once
// on the dynamic Vps (FleetFrontEnd.refreshes). Each condition the issue names is checked on top of those, on the
// same stack: after a VPS made outside Pulumi is brought in (`pulumi
// import`, or adoptOrderOid on the dynamic Vps), and on a state as the previous release (8881901) wrote it: inputs
// without the order oid this release records (`__orderOid`), in a preview-only refresh and a refresh that writes the
// state. The service's own conditions, the same for both front ends (the emulator restarted from its state file; the
// emulator listing orders, and the secondary IP addresses of the four VPSs that have three, in a new order on every
// call), on the native plugin's stack (FleetFrontEnd.serviceConditions).
import { afterAll, expect, test } from "@jest/globals";
import * as fs from "node:fs";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import type { Scenario } from "./e2e-support";
import { driftReport, pulumiRun } from "./drift-check";
import { orderOutsidePulumi } from "./native-programs";

export interface FleetFrontEnd {
  /** The Vps type in the state. */
  vpsType: string;
  /** Brings the order `oid`, placed outside Pulumi as legacy.example.com, into the stack as `legacy`. */
  bringIn(s: Scenario, oid: number): Promise<void>;
  /**
   * Whether this front end also checks the conditions that are the service's, not the front end's: the emulator
   * restarted from its state file, and listings in a new order on every call. Both front ends read the account through
   * the one core (provider/impl), so one front end through the CLI shows them (the native plugin's, the cheaper).
   */
  serviceConditions: boolean;
  /**
   * How many times the plain unchanged fleet is refreshed: the 10 on one front end (the native plugin's, the
   * cheaper), once on the other. A preview-only refresh writes nothing, so each of the 10 reads the same state
   * through the same core (provider/impl); what could vary between them (the service's listings, the engine) is the
   * same for both front ends, and once shows the dynamic Vps's wiring (CPU, issue 67).
   */
  refreshes: number;
}

/** Registers the tests on the scenario `scenario()` returns, whose emulator keeps its state in `stateFile()`. */
export function driftFleetTests(
  scenario: () => Scenario,
  stateFile: () => string,
  front: FleetFrontEnd,
): void {
  let restarted: TestEmulator | undefined;
  /** The checks of the plain unchanged fleet (front.refreshes), besides those of each condition. */
  const plain: { when: string; code: number | null; report: number }[] = [];

  /** The emulator again on the same port (the stack's baseUrl), from its state file. */
  async function restart(options: { shuffleListings?: boolean } = {}): Promise<void> {
    const s = scenario();
    const port = Number(new URL(s.emulator.baseUrl).port);
    await (restarted ?? s.emulator).close();
    restarted = await startTestEmulator({ timeScale: 0, stateFile: stateFile(), port, ...options });
  }

  async function check(when: string, counted?: typeof plain): Promise<void> {
    const run = await pulumiRun(
      scenario().stack.cli,
      "refresh",
      "--preview-only",
      "--expect-no-changes",
      "--json",
    );
    const report = await driftReport(run.stdout);
    counted?.push({ when, code: run.code, report: report.code });
    expect({ when, code: run.code, report: report.code, markdown: report.markdown }).toEqual({
      when,
      code: 0,
      report: 0,
      markdown: expect.stringContaining("**No drift**"),
    });
  }

  const times = front.refreshes === 1 ? "once" : `${front.refreshes} times`;
  test(`up, then the unchanged fleet refreshed ${times}: no drift each time`, async () => {
    const s = scenario();
    const up = await s.stack.up();
    const vps0 = Number(up.steps.find((step) => step.name === "vps0")?.id);
    expect((await s.client.getOrder(vps0)).about_order.allocated_ips?.secondary_ips).toHaveLength(3);
    for (let i = 1; i <= front.refreshes; i += 1) await check(`refresh ${i} of the unchanged fleet`, plain);
    expect(plain.filter((r) => r.code !== 0 || r.report !== 0)).toEqual([]);
    expect(plain).toHaveLength(front.refreshes);
  });

  test("a VPS made outside Pulumi, brought in", async () => {
    const s = scenario();
    await front.bringIn(s, await orderOutsidePulumi(s, "legacy.example.com"));
    await check("after bringing one in");
  });

  if (front.serviceConditions) {
    test("the emulator restarted from its state file", async () => {
      await restart();
      // Once: a preview-only refresh writes nothing, so a second one would see what this one saw.
      await check("after a restart");
    });

    test("the emulator listing orders and addresses in a new order on every call", async () => {
      await restart({ shuffleListings: true });
      await check("shuffled listings");
      await check("shuffled again");
    });
  }

  test("a state as the previous release wrote it: inputs without the recorded order oid", async () => {
    const s = scenario();
    const exported = JSON.parse(await s.stack.exportState()) as {
      deployment: { resources: { type: string; inputs?: Record<string, unknown> }[] };
    };
    // 8881901 recorded no order oid in the inputs (RECORDED_ORDER_KEY is this release's); its outputs were as now.
    // This release records it only once a VPS exists (an up's check, an import, a refresh that writes): here, the
    // VPS brought in, and on the dynamic Vps the 20 its up re-checked. None is left in the imported state.
    let older = 0;
    for (const resource of exported.deployment.resources)
      if (resource.type === front.vpsType && resource.inputs && "__orderOid" in resource.inputs) {
        delete resource.inputs.__orderOid;
        older += 1;
      }
    expect(older).toBeGreaterThan(0);
    const file = path.join(s.workDir, "previous-release-state.json");
    fs.writeFileSync(file, JSON.stringify(exported));
    await s.stack.cli.command("stack", "import", "--file", file);
    await check("the previous release's state");
    // A refresh that writes the state (and so records the order oid again) finds nothing either.
    const written = await pulumiRun(s.stack.cli, "refresh", "--yes", "--expect-no-changes");
    expect({ code: written.code, out: written.stdout + written.stderr }).toMatchObject({ code: 0 });
    await check("after a refresh that wrote it");
  });

  afterAll(async () => restarted?.close());
}
