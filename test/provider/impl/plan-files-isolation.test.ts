/**
 * The in-process fixture's account is its own: a previewed plan another test file left for an emulator at 127.0.0.1
 * and the port this fixture's emulator got again (plan files are named by the account's base URL and read for a
 * day) is not this account's. Before each fixture had an address of its own, such a leftover shrink of shop/prod made
 * the budget leave a refusal to a preview step (order-guard.test.ts failed so in CI).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { previewedPlanFile } from "../../../provider/impl/account/plan-files";
import { DEMO_API_KEY, useImplFixture } from "../support/impl-fixture";
import { guardSteps } from "../support/guard-steps";

const fixture = useImplFixture();
const { configure, vps } = guardSteps(fixture);

/** Plants, as another test file's preview left it, a shrink of shop/prod/db on the account at `baseUrl`. */
function plantLeftover(baseUrl: string): string {
  const account = createHash("sha256").update(`${baseUrl}\n${DEMO_API_KEY}`).digest("hex");
  const file = previewedPlanFile(account, "shop/prod");
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const fee = { name: "db", nowCents: 2000, after: { cents: 500 } };
  const line = {
    key: "shop/prod/db",
    preview: "0123456789abcdef",
    writer: "4194305/gone",
    at: Date.now() - 60_000,
    fee,
  };
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  return file;
}

it("a previewed shrink left for 127.0.0.1 at this emulator's port is no plan of this account's", async () => {
  const checked = await impl.check({}, { ...vps("web-1"), __preview: true });
  testing.forgetRun();
  const fee = checked.inputs.plannedMonthlyFeeUsd as number;
  await configure({ monthlyBudgetUsd: String(2.5 * fee) });
  const file = plantLeftover(`http://127.0.0.1:${fixture().emulator.port}/r`);
  try {
    const nativeCheck = (name: string) =>
      impl.checkVps({}, vps(name, { __preview: true }), { mayApply: true });
    for (const name of ["web-1", "web-2"]) {
      const { inputs, failures } = await nativeCheck(name);
      expect(failures).toEqual([]);
      const { __preview: _flag, ...toCreate } = inputs;
      await impl.create(toCreate);
    }
    // Over the budget with web-3, and no shrink of this account's planned: refused at its check.
    expect((await nativeCheck("web-3")).failures.map((f) => f.reason)).toEqual([
      expect.stringContaining("before it, this run ordered web-1 and web-2"),
    ]);
  } finally {
    fs.rmSync(file, { force: true });
  }
});
