// rimuhosting-bill on what `pulumi preview --json --show-sames` prints, through the real CLI against the emulator,
// on both front ends (the dynamic Vps in TypeScript, the native plugin in YAML): a run that creates one VPS,
// resizes one, replaces one (another data centre) and deletes one, beside one it leaves alone. Each fee the bill
// prints is checked against the emulator itself: before, what the emulator bills the order now; after, its own
// quote (R16) for the VPS as the program now declares it. The plugin's `bill` subcommand prints the same bill.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { amountUsd } from "../../provider/wire-mapping/values";
import type { CliStack } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";
import { startScenario, type Scenario } from "./e2e-support";
import {
  describeNative,
  PLUGIN_DIR,
  REPO_ROOT,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import { billTableRows as tableRows } from "../helpers/bill-table";

jest.setTimeout(300_000);

const BILL = path.join(REPO_ROOT, "dist/provider/bill/cli.js");
const PLUGIN = path.join(PLUGIN_DIR, "pulumi-resource-rimuhosting");

type Fleet = Record<string, { memoryMb: number; dcLocation: "DCDALLAS" | "DCLONDON" }>;
const DALLAS_1G = { memoryMb: 1024, dcLocation: "DCDALLAS" } as const;
/** Before: four VPSs in Dallas. After: one resized, one moved to London (a replacement), one gone, one new. */
const BEFORE: Fleet = { resized: DALLAS_1G, replaced: DALLAS_1G, deleted: DALLAS_1G, kept: DALLAS_1G };
const AFTER: Fleet = {
  resized: { memoryMb: 2048, dcLocation: "DCDALLAS" },
  replaced: { memoryMb: 1024, dcLocation: "DCLONDON" },
  kept: DALLAS_1G,
  created: DALLAS_1G,
};

/** What `pulumi preview --json --show-sames` printed on stdout, and its exit code (a failed preview prints JSON too). */
function recordPreview(cli: CliStack): Promise<{ code: number | null; json: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "pulumi",
      ["preview", "--json", "--show-sames", "--stack", cli.name, "--non-interactive"],
      { cwd: cli.programDir, env: cli.commandEnv(), stdio: ["ignore", "pipe", "ignore"] },
    );
    let json = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (json += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, json }));
  });
}

/** The bill's Markdown and exit code, from the npm bin or the plugin's subcommand, of a file or of stdin. */
function bill(
  file: string,
  how: "bin" | "plugin" | "bin-stdin" = "bin",
): { status: number | null; stdout: string; stderr: string } {
  const [command, args, input] =
    how === "plugin"
      ? [PLUGIN, ["bill", file], undefined]
      : how === "bin-stdin"
        ? [process.execPath, [BILL], fs.readFileSync(file)]
        : [process.execPath, [BILL, file], undefined];
  const { status, stdout, stderr } = spawnSync(command, args, { encoding: "utf8", input, timeout: 60_000 });
  return { status, stdout, stderr };
}

const usd = (amount: number): string => `$${amount.toFixed(2)}`;
const signedUsd = (amount: number): string =>
  Math.round(amount * 100) === 0 ? "±$0.00" : `${amount > 0 ? "+" : "-"}${usd(Math.abs(amount))}`;

/** The emulator's own quote (R16) for a VPS declared as in the fleet (the program's disk, no plan: the default). */
async function quoted(s: Scenario, vps: Fleet[string]): Promise<number> {
  const answer = await s.client.quoteNewVm({
    dc_location: vps.dcLocation,
    vps_parameters: { memory_mb: vps.memoryMb, disk_space_mb: 20480 },
  });
  const fee = amountUsd(answer.monthly_recurring_amt);
  if (fee === undefined) throw new Error(`the emulator quoted no USD amount: ${JSON.stringify(answer)}`);
  return fee;
}

/** What the emulator bills now for the order of the VPS called `name` (its domain is `<name>.example.com`). */
function billedNow(s: Scenario, name: string): number {
  const order = s.emulator.snapshot().find((o) => o.domainName === `${name}.example.com` && !o.cancelled);
  if (!order) throw new Error(`no live order for ${name}`);
  return order.monthlyFeeUsd;
}

/** Records the preview into `<workDir>/<name>`, checking that it ordered or changed nothing. */
async function recordTo(s: Scenario, name: string): Promise<{ code: number | null; file: string }> {
  const mark = s.mark();
  const recorded = await recordPreview(s.stack.cli);
  expect(s.mutationsSince(mark)).toEqual([]);
  const file = path.join(s.workDir, name);
  fs.writeFileSync(file, recorded.json);
  return { code: recorded.code, file };
}

/**
 * Records the preview of the change from BEFORE to AFTER (already applied to the program) and checks the bill
 * against the emulator. Returns the recorded file.
 */
async function checkBill(s: Scenario): Promise<string> {
  const { code, file } = await recordTo(s, "preview.json");
  expect(code).toBe(0);

  const printed = bill(file);
  expect(printed.stderr).toBe("");
  expect(printed.status).toBe(0);
  const rows = tableRows(printed.stdout);

  const before = {
    resized: billedNow(s, "resized"),
    replaced: billedNow(s, "replaced"),
    deleted: billedNow(s, "deleted"),
    kept: billedNow(s, "kept"),
  };
  const after = {
    resized: await quoted(s, AFTER.resized!),
    replaced: await quoted(s, AFTER.replaced!),
    created: await quoted(s, AFTER.created!),
  };
  // The quotes differ from the fees billed now, so a fee copied from the wrong place cannot pass.
  expect(after.resized).not.toBe(before.resized);
  expect(after.replaced).not.toBe(before.replaced);

  expect(rows.get("resized")).toEqual([
    "resize: memoryMb 1024 → 2048",
    usd(before.resized),
    usd(after.resized),
    signedUsd(after.resized - before.resized),
  ]);
  expect(rows.get("replaced")).toEqual([
    "replace: dcLocation DCDALLAS → DCLONDON",
    usd(before.replaced),
    usd(after.replaced),
    signedUsd(after.replaced - before.replaced),
  ]);
  expect(rows.get("deleted")).toEqual(["delete", usd(before.deleted), "—", signedUsd(-before.deleted)]);
  expect(rows.get("created")).toEqual(["create", "—", usd(after.created), signedUsd(after.created)]);
  expect(rows.get("1 unchanged VPS")).toEqual(["", usd(before.kept), usd(before.kept), "±$0.00"]);
  const totalBefore = before.resized + before.replaced + before.deleted + before.kept;
  const totalAfter = after.resized + after.replaced + after.created + before.kept;
  expect(rows.get("Stack total")).toEqual([
    "",
    usd(totalBefore),
    usd(totalAfter),
    signedUsd(totalAfter - totalBefore),
  ]);
  expect(printed.stdout).toContain(
    `This run cancels \`replaced\` (replaced, ${usd(before.replaced)} a month), \`deleted\` (deleted, ${usd(before.deleted)} a month)`,
  );
  expect(printed.stdout).toMatch(/\*\*Budget: no budget set\.\*\*/);

  // The budget: the stack config in the preview's JSON. At the run's total and increase exactly, it passes…
  const growth = after.resized - before.resized + (after.replaced - before.replaced) + after.created;
  await s.stack.setConfig("rimuhosting:monthlyBudgetUsd", totalAfter.toFixed(2));
  await s.stack.setConfig("rimuhosting:maxMonthlyIncreaseUsd", growth.toFixed(2));
  const within = await recordTo(s, "within.json");
  expect(within.code).toBe(0);
  const passed = bill(within.file);
  expect(passed.status).toBe(0);
  expect(passed.stdout).toContain("**Budget: ✅ within the budget.**");
  expect(passed.stdout).toContain(
    `the stack's VPSs cost ${usd(totalAfter)} a month after this run, within it ($0.00 to spare)`,
  );
  // …and a cent less fails the preview, whose JSON the bill still reads: exit 1, the provider's words quoted.
  await s.stack.setConfig("rimuhosting:monthlyBudgetUsd", (totalAfter - 0.01).toFixed(2));
  const over = await recordTo(s, "over.json");
  expect(over.code).not.toBe(0);
  const failed = bill(over.file);
  expect(failed.stderr).toBe("");
  expect(failed.status).toBe(1);
  expect(failed.stdout).toContain("**Budget: ❌ over the budget.**");
  expect(failed.stdout).toContain("**The preview failed on the budget** (below)");
  expect(failed.stdout).toMatch(/The provider's verdict in the preview:\n\n```text\n.*\[RIMU_ERR_BUDGET\]/);
  await s.stack.removeConfig("rimuhosting:monthlyBudgetUsd");
  await s.stack.removeConfig("rimuhosting:maxMonthlyIncreaseUsd");
  return file;
}

describeCliOnly("rimuhosting-bill on a preview of the dynamic Vps", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startScenario("bill", {
      programDir: path.join(REPO_ROOT, "test/engine/fixtures/bill"),
      config: { vpss: JSON.stringify(BEFORE) },
    });
    await s.stack.up();
  });
  afterAll(async () => s?.close());

  test("a create, a resize, a replacement and a delete, priced as the emulator quotes them", async () => {
    await s.stack.setConfig("vpss", JSON.stringify(AFTER));
    const file = await checkBill(s);
    // Standard input gives the same bill as the file.
    const fromFile = bill(file);
    expect(bill(file, "bin-stdin")).toEqual(fromFile);
  });
});

/** The YAML program of a fleet: the same VPSs as the TypeScript fixture, written out. */
function yamlFleet(fleet: Fleet): string {
  const resources = Object.entries(fleet).map(
    ([name, vps]) =>
      `  ${name}:\n    type: rimuhosting:Vps\n    properties:\n      domainName: ${name}.example.com\n` +
      `      dcLocation: ${vps.dcLocation}\n      distro: deb12.64\n      memoryMb: ${vps.memoryMb}\n` +
      `      diskSpaceMb: 20480\n`,
  );
  return `resources:\n${resources.join("")}`;
}

describeNative("yaml", "rimuhosting-bill on a preview of the native plugin", () => {
  let s: Scenario;
  let programDir: string;
  beforeAll(async () => {
    programDir = writeYamlProgram("bill", yamlFleet(BEFORE));
    s = await startNativeScenario(programDir);
    await s.stack.up();
  });
  afterAll(async () => s?.close());

  test("a create, a resize, a replacement and a delete, priced as the emulator quotes them", async () => {
    const project = path.join(programDir, "Pulumi.yaml");
    fs.writeFileSync(
      project,
      fs.readFileSync(project, "utf8").replace(/resources:\n[\s\S]*$/, yamlFleet(AFTER)),
    );
    const file = await checkBill(s);
    // The plugin's subcommand, for users without Node's npm package, prints the same bill.
    expect(bill(file, "plugin")).toEqual(bill(file));
  });
});
