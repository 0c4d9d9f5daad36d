/**
 * The drift report's advice for a moved VPS is true for the programs `import-file` and `pulumi import` write (issue
 * 65, item 3), at L1 against the emulator: an account of varied shapes (test/helpers/account-shapes.ts) is imported
 * VPS by VPS (read() with no state, as `pulumi import`), and its program is what the CLI writes of the recorded
 * inputs. RimuHosting then moves some VPSs to another host (a new IP address). Followed as written, the advice
 * ("`pulumi refresh` records them") leaves each program up to date: after the refresh (read() with the state, the
 * engine recording what it returns) the next preview (check() of the program, diff() with the refreshed state)
 * plans no change, in YAML and with an SDK's defaults, so `pulumi preview --expect-no-changes` exits 0 and the next
 * `pulumi up` leaves each VPS on its new host with its new address. It cannot be so for a program naming the host:
 * import no longer writes one. Through the real CLI: test/engine/drift-advice.test.ts.
 */
import type { AboutOrder } from "../../contract/index";
import { DEMO_API_KEY } from "../../emulator/index";
import { createClient } from "../../provider/client/index";
import * as impl from "../../provider/impl/index";
import * as testing from "../../provider/impl/testing";
import { RECORDED_ORDER_KEY, VPS_FIELDS } from "../../provider/impl/fields/vps-fields";
import type { FieldRule } from "../../provider/impl/fields/vps-field-rules";
import { adviceFor } from "../../provider/drift/advice";
import { accountShapes, placeAccount } from "../helpers/account-shapes";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { stackConfig } from "../provider/support/impl-fixture";

jest.setTimeout(120_000);

const SEED = 65;
const VPS_COUNT = 16;

/** The defaults an SDK generated from the schema sends for an input the program leaves out: the table's. */
const SDK_DEFAULTS = Object.fromEntries(
  Object.entries(VPS_FIELDS)
    .map(([name, rule]) => [name, (rule as FieldRule).defaultValue] as const)
    .filter(([, value]) => value !== undefined),
);

/** The program `pulumi import` writes for the recorded inputs: without what the provider records for itself. */
function written(inputs: Record<string, unknown>): Record<string, unknown> {
  const { [RECORDED_ORDER_KEY]: _oid, __creationNonce: _nonce, ...program } = inputs;
  return program;
}

let emulator: TestEmulator | undefined;
afterAll(async () => {
  testing.resetConfiguration();
  await emulator?.close();
});

test("moved after an import: `pulumi refresh`, as the advice says, and the next preview plans nothing", async () => {
  emulator = await startTestEmulator({ timeScale: 0, seed: SEED });
  testing.resetConfiguration();
  await impl.configure({ config: stackConfig(emulator.baseUrl) });
  const byHand = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
  const shapes = accountShapes(SEED, VPS_COUNT);
  const oids = await placeAccount(emulator, shapes);

  // `pulumi import`: what it records, and the program it writes.
  const imported = [];
  for (const oid of oids) {
    testing.forgetRun();
    const read = await impl.read(String(oid), {});
    imported.push({ oid, inputs: read.inputs as Record<string, unknown>, props: read.props! });
  }
  expect(imported.filter(({ inputs }) => "hostServerOid" in written(inputs))).toEqual([]);

  // RimuHosting moves every other running VPS (a cancelled one's order takes no move).
  const moved = new Map<number, AboutOrder>();
  for (const [i, { oid }] of imported.entries()) {
    if (i % 2 === 1 || shapes[i]!.cancelAtPeriodEnd || shapes[i]!.dedicatedHost) continue;
    const before = (await byHand.getOrder(oid)).about_order;
    const after = (await byHand.moveVps(oid, { is_update_dns: false })).about_order;
    if (after.host_server_oid === before.host_server_oid) continue; // no other host in its data centre
    expect(after.allocated_ips?.primary_ip).not.toBe(before.allocated_ips?.primary_ip);
    moved.set(oid, after);
  }
  expect(moved.size).toBeGreaterThanOrEqual(4);
  // What the report advises for it: the words followed below.
  expect(adviceFor([{ vps: "web", property: "hostServerOid" }])[0]!.text).toMatch(
    /^The VPS keeps its new host and addresses: `pulumi refresh` records them/,
  );

  const planned: string[] = [];
  for (const [i, { oid, inputs, props }] of imported.entries()) {
    // `pulumi refresh`: the engine records the outputs and inputs read() returns.
    testing.forgetRun();
    const refreshed = await impl.read(String(oid), props);
    await impl.diffVps(String(oid), refreshed.props!, refreshed.inputs!); // the refresh's own diff
    const program = { ...written(inputs), creationScope: `adopted/dev/vps${i}`, __preview: true };
    for (const [language, news] of [
      ["YAML", program],
      ["an SDK", { ...SDK_DEFAULTS, ...program }],
    ] as const) {
      // The next preview (`pulumi preview --expect-no-changes`, and the plan of the next `pulumi up`).
      testing.forgetRun();
      const checked = await impl.check(refreshed.inputs!, news as impl.VpsInputs);
      const diff = await impl.diffVps(String(oid), refreshed.props!, checked.inputs);
      if ((checked.failures ?? []).length > 0 || diff.changes)
        planned.push(
          `${shapes[i]!.domainName}${moved.has(oid) ? " (moved)" : ""} in ${language}: ` +
            JSON.stringify({ failures: checked.failures, planned: diff.planned }),
        );
    }
    if (moved.has(oid))
      expect(refreshed.props).toMatchObject({
        hostServerOid: String(moved.get(oid)!.host_server_oid),
        primaryIp: moved.get(oid)!.allocated_ips?.primary_ip,
      });
  }
  expect(planned).toEqual([]);
});
