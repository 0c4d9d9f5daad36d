/**
 * An imported VPS's program equals the live VPS in every language (issue 57, item 1), at L1: `pulumi import` records
 * the inputs read() returns with no recorded state, and writes them as the program; the next preview checks that
 * program and diffs it with the outputs read() recorded. An SDK (TypeScript, Python, Go) sends the schema's default
 * of every input the program leaves out (ipCount 1, diskSpace2Mb 0, allowReinstall false); YAML sends what is
 * written. So for every VPS, of accounts of varied shapes (test/helpers/account-shapes.ts, five seeds of 30 VPSs each,
 * ordered in the emulator over real HTTP), both programs must check without failure and diff with no change. Through
 * the real CLI: test/engine/adopt.test.ts (YAML) and test/engine/drift-advice.test.ts (TypeScript, Python, Go).
 */
import type { AboutOrder } from "../../../contract/index";
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { RECORDED_ORDER_KEY, VPS_FIELDS } from "../../../provider/impl/fields/vps-fields";
import type { FieldRule } from "../../../provider/impl/fields/vps-field-rules";
import { accountShapes, placeAccount, SHAPE_DATA_CENTRES } from "../../helpers/account-shapes";
import { startTestEmulator, type TestEmulator } from "../../helpers/start-emulator";
import { stackConfig } from "../support/impl-fixture";

jest.setTimeout(120_000);

/** The seeds of the accounts tried: each gives 30 VPSs of every shape (the first ~20 one shape each, then mixed). */
const SEEDS = [1, 2, 3, 57, 2026];
const VPS_COUNT = 30;

/** The defaults an SDK generated from the schema sends for an input the program leaves out: the table's. */
const SDK_DEFAULTS = Object.fromEntries(
  Object.entries(VPS_FIELDS)
    .map(([name, rule]) => [name, (rule as FieldRule).defaultValue] as const)
    .filter(([, value]) => value !== undefined),
);

let emulator: TestEmulator | undefined;
afterEach(async () => {
  testing.resetConfiguration();
  await emulator?.close();
  emulator = undefined;
});

/** The program `pulumi import` writes for the recorded inputs: without what the provider records for itself. */
function written(inputs: Record<string, unknown>): Record<string, unknown> {
  const { [RECORDED_ORDER_KEY]: _oid, __creationNonce: _nonce, ...program } = inputs;
  return program;
}

describe.each(SEEDS)("an account of %i's shapes, imported VPS by VPS", (seed) => {
  test(`${VPS_COUNT} VPSs: the written program checks and diffs with no change, with and without SDK defaults`, async () => {
    emulator = await startTestEmulator({ timeScale: 0, seed });
    testing.resetConfiguration();
    await impl.configure({ config: stackConfig(emulator.baseUrl) });
    const shapes = accountShapes(seed, VPS_COUNT);
    const oids = await placeAccount(emulator, shapes);
    // The account really is varied: each data centre, several IPs, a second disk, a stopped VPS.
    const orders = (
      await emulator.api<{ get_orders_response: { about_orders: AboutOrder[] } }>("GET", "/orders")
    ).body.get_orders_response.about_orders;
    expect(new Set(orders.map((o) => o.location?.data_center_location_code))).toEqual(
      new Set(SHAPE_DATA_CENTRES),
    );
    expect(orders.some((o) => (o.allocated_ips?.secondary_ips ?? []).length > 0)).toBe(true);
    expect(orders.some((o) => (o.vps_parameters?.disk_space_2_mb ?? 0) > 0)).toBe(true);
    expect(orders.some((o) => o.running_state === "NOTRUNNING")).toBe(true);

    const differences: string[] = [];
    for (const [i, oid] of oids.entries()) {
      const shape = shapes[i]!;
      const read = await impl.read(String(oid), {});
      const recorded = read.inputs as Record<string, unknown>;
      const props = read.props!;
      if (recorded.ipCount !== shape.ipCount)
        differences.push(
          `${shape.domainName}: ipCount recorded ${String(recorded.ipCount)}, has ${shape.ipCount}`,
        );
      const program = { ...written(recorded), creationScope: `adopted/dev/vps${i}`, __preview: true };
      for (const [language, news] of [
        ["YAML", program],
        ["an SDK", { ...SDK_DEFAULTS, ...program }],
      ] as const) {
        testing.forgetRun();
        const checked = await impl.check(recorded as impl.VpsInputs, news as impl.VpsInputs);
        const diff = await impl.diffVps(String(oid), props, checked.inputs);
        const failures = (checked.failures ?? []).map((f) => f.reason);
        if (failures.length > 0 || diff.changes)
          differences.push(
            `${shape.domainName} (${JSON.stringify(shape)}) in ${language}: ` +
              `${failures.join("; ")} ${JSON.stringify({ replaces: diff.replaces, planned: diff.planned })}`,
          );
      }
    }
    expect(differences).toEqual([]);
  });
});
