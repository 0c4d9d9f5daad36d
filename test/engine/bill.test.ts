// rimuhosting-bill on the event log of `pulumi preview --event-log`, through the real CLI against the emulator, on
// the native plugin in YAML: a run that creates one VPS, resizes one, replaces one (another data centre) and deletes
// one, beside one it leaves alone, each fee checked against the emulator (bill-preview.ts), at the budget and a cent
// over it. The plugin's `bill` subcommand prints the same bill. An explicit provider's budget argument judges its
// own VPS, and the stack config's budget the others; a VPS whose size is unknown in preview is ⚠️ not priced, never
// $0; a policy pack's findings come from the same event log; an adopted order counts from the fee it is billed now;
// the bill as JSON, and compared with another. The dynamic Vps's bill: bill-dynamic.test.ts.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_ACCOUNTS } from "../../emulator/index";
import type { Scenario } from "./e2e-support";
import {
  describeNative,
  orderOutsidePulumi,
  REPO_ROOT,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import { billTableRows as tableRows } from "../helpers/bill-table";
import { BILL } from "./budget-support";
import {
  AFTER,
  BEFORE,
  bill,
  billedNow,
  checkBill,
  quoted,
  recordTo,
  signedUsd,
  usd,
  type Fleet,
} from "./bill-preview";

jest.setTimeout(300_000);

const PACK = path.join(REPO_ROOT, "policy-pack");

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

  test("an explicit provider's budget argument judges its VPS; the stack config's budget the others", async () => {
    // The explicit provider serves another account (alice's), so its budget is its own and the stack config's
    // budget covers the default provider's VPSs alone: at their total exactly (and `deleted`'s), they pass, with alice's beside them.
    await s.stack.setConfigs({
      aliceKey: { value: `"${ALICE.apiKey}"`, secret: true },
      emulatorUrl: s.emulator.baseUrl,
    });
    const project = path.join(programDir, "Pulumi.yaml");
    const fleet = fs.readFileSync(project, "utf8");
    fs.writeFileSync(project, `${fleet.replace(/resources:\n/, `${TEAM_CONFIG}resources:\n`)}${TEAM}`);
    const rows = tableRows(bill((await recordTo(s, "plain.events")).file).stdout);
    const defaultTotal =
      Number(rows.get("Stack total")![2]!.slice(1)) -
      Number(rows.get("teamVps (provider team)")![2]!.slice(1));
    // `deleted` is still billed when the provider judges an order (checkBill says why), so it is in the budget.
    const deleted = billedNow(s, "deleted");
    const budget = defaultTotal + deleted;
    await s.stack.setConfig("rimuhosting:monthlyBudgetUsd", budget.toFixed(2));
    const { code, file } = await recordTo(s, "two-budgets.events");
    expect(code).toBe(0);
    const printed = bill(file);
    expect(printed).toMatchObject({ status: 0, stderr: "" });
    expect(printed.stdout).toContain(
      `**Budget (stack config): ✅ within.**\n- Monthly budget ${usd(budget)} (rimuhosting:monthlyBudgetUsd): this run takes the account (every active order its API key reaches, other stacks' too) from `,
    );
    expect(printed.stdout).toContain(
      ` to ${usd(budget)} a month while the VPS it deletes is still billed, within it ($0.00 to spare), and to ${usd(defaultTotal)} once it is deleted`,
    );
    expect(printed.stdout).toMatch(
      /\*\*Budget \(provider `team`\): ✅ within\.\*\*\n- Monthly budget \$100\.00 \(provider 'team': monthlyBudgetUsd\): this run takes the account \(every active order its API key reaches, other stacks' too\) from \$\d+\.\d\d to \$\d+\.\d\d a month, within it \(\$\d+\.\d\d to spare\)/,
    );
    await s.stack.removeConfig("rimuhosting:monthlyBudgetUsd");
  });

  test("a VPS whose size is not known in preview: ⚠️ not priced, and no $0 for it anywhere", async () => {
    // Its memory is another VPS's order number: an output, unknown until the update runs.
    const project = path.join(programDir, "Pulumi.yaml");
    fs.writeFileSync(
      project,
      `${fs.readFileSync(project, "utf8")}  replica:
    type: rimuhosting:Vps
    properties:
      domainName: replica.example.com
      dcLocation: DCDALLAS
      distro: deb12.64
      memoryMb: \${created.orderOid}
      diskSpaceMb: 20480
`,
    );
    const { code, file } = await recordTo(s, "unknown.events");
    expect(code).toBe(0);
    const printed = bill(file);
    expect(printed).toMatchObject({ status: 0, stderr: "" });
    const rows = tableRows(printed.stdout);
    expect(rows.get("replica")).toEqual([
      "create",
      "—",
      expect.stringMatching(/^⚠️ not priced \[\d\]$/),
      "⚠️",
    ]);
    expect(rows.get("⚠️ Not priced")?.[0]).toMatch(/^\d VPSs?: .*`replica`/);
    expect(printed.stdout).toMatch(
      /\[\d\] `replica`: not priced: memoryMb not known until the update runs\./,
    );
    expect(rows.get("Stack total")![2]).toMatch(/\+ ⚠️$/);
    expect(rows.get("Stack total")![3]).toBe("⚠️");
    const replicaLines = printed.stdout.split("\n").filter((line) => line.includes("replica"));
    expect(replicaLines.join("\n")).not.toMatch(/\$0(\.00)?\b/);
  });

  test("the policy pack's findings from the same event log: a mandatory one fails the bill", async () => {
    if (!fs.existsSync(path.join(PACK, "node_modules", "@pulumi", "policy")))
      throw new Error("the policy pack's dependencies are not installed: npm ci --prefix policy-pack");
    const config = path.join(s.workDir, "policy-config.json");
    fs.writeFileSync(config, JSON.stringify({ "allowed-data-centres": { dataCentres: ["DCDALLAS"] } }));
    const args = ["--policy-pack", path.join(PACK, "analyzer"), "--policy-pack-config", config];
    const { code, file } = await recordTo(s, "policy.events", args);
    expect(code).not.toBe(0);
    const printed = bill(file);
    expect(printed).toMatchObject({ status: 1, stderr: "" });
    expect(printed.stdout).toContain("**Policy pack `rimuhosting-guard` 0.1.0: ❌ 1 mandatory violation.**");
    expect(printed.stdout).toContain(
      '- ❌ `allowed-data-centres` (mandatory) on `replaced`: VPS "replaced" is in DCLONDON, which is not an allowed data centre (allowed: DCDALLAS).',
    );
  });

  test("an adopted order: from what it is billed now to its quote once changed to match the program", async () => {
    const oid = await orderOutsidePulumi(s, "adopted.example.com");
    const project = path.join(programDir, "Pulumi.yaml");
    fs.writeFileSync(
      project,
      `${fs.readFileSync(project, "utf8")}  adopted:
    type: rimuhosting:Vps
    properties:
      domainName: adopted.example.com
      dcLocation: DCDALLAS
      distro: deb12.64
      memoryMb: 2048
      diskSpaceMb: 20480
      adoptOrderOid: ${oid}
`,
    );
    const { code, file } = await recordTo(s, "adopt.events");
    expect(code).toBe(0);
    const [now, after] = [
      billedNow(s, "adopted"),
      await quoted(s, { memoryMb: 2048, dcLocation: "DCDALLAS" }),
    ];
    expect(after).not.toBe(now);
    expect(tableRows(bill(file).stdout).get("adopted")).toEqual([
      "adopt",
      usd(now),
      usd(after),
      signedUsd(after - now),
    ]);
  });

  // --format json and --compare-to, with no preview of their own: on the event logs the tests above recorded of
  // this stack, as a pull request's bill is compared with main's: preview.events (the fleet: "main"), plain.events
  // (the fleet and a VPS of the team provider: "the pull request") and unknown.events (and a VPS not priced).
  const recorded = (name: string) => path.join(s.workDir, name);
  const json = (file: string, extra: string[] = []) => {
    const { status, stdout, stderr } = spawnSync(
      process.execPath,
      [BILL, file, "--format", "json", ...extra],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    return JSON.parse(stdout) as BillData;
  };

  test("the JSON's figures are the Markdown's, VPS by VPS and in total", () => {
    for (const name of ["preview.events", "plain.events"]) {
      const data = json(recorded(name));
      const rows = tableRows(bill(recorded(name)).stdout);
      for (const v of data.vpss) {
        const label = v.provider === null ? v.name : `${v.name} (provider ${v.provider})`;
        expect([label, feeText(v.before), feeText(v.after)]).toEqual([
          label,
          ...rows.get(label)!.slice(1, 3),
        ]);
      }
      const total = rows.get("Stack total")!;
      expect([usd(data.totals.beforeCents / 100), usd(data.totals.afterCents / 100)]).toEqual(
        total.slice(1, 3),
      );
      expect(signedUsd(data.totals.changeCents / 100)).toBe(total[3]);
    }
  });

  test("a pull request against main's bill: the VPS it adds, at its quote; one not priced is named", () => {
    const main = path.join(s.workDir, "main.json");
    fs.writeFileSync(main, JSON.stringify(json(recorded("preview.events"))));
    const pr = json(recorded("plain.events"), ["--compare-to", main]);
    const team = pr.vpss.find((v) => v.name === "teamVps")!;
    expect(team.after).toEqual({ cents: expect.any(Number) });
    const teamCents = (team.after as { cents: number }).cents;
    const comparison = pr.comparison!;
    expect(comparison.vpss.filter((v) => v.changeCents !== 0)).toEqual([
      { name: "teamVps", urn: team.urn, baseline: null, current: team.after, changeCents: teamCents },
    ]);
    expect(comparison.totals).toEqual({
      baselineCents: json(recorded("preview.events")).totals.afterCents,
      currentCents: pr.totals.afterCents,
      changeCents: teamCents,
      notPriced: [],
    });
    const withUnknown = json(recorded("unknown.events"), ["--compare-to", main]).comparison!;
    expect(withUnknown.totals).toMatchObject({ changeCents: teamCents, notPriced: ["replica"] });
  });
});

type Fee = { cents: number } | { none: true } | { unknown: string };
interface BillData {
  vpss: { name: string; urn: string; provider: string | null; before: Fee; after: Fee }[];
  totals: { beforeCents: number; afterCents: number; changeCents: number };
  comparison: {
    vpss: { name: string; changeCents: number | null }[];
    totals: Record<string, unknown>;
  } | null;
}
const feeText = (fee: Fee): string => ("cents" in fee ? usd(fee.cents / 100) : "none" in fee ? "—" : "⚠️");

const ALICE = DEMO_ACCOUNTS.find((a) => a.name === "alice")!;
const TEAM_CONFIG = `config:\n  aliceKey:\n    type: string\n  emulatorUrl:\n    type: string\n`;
/** An explicit provider for alice's account, with a budget of its own, and one VPS it serves. */
const TEAM = `  team:
    type: pulumi:providers:rimuhosting
    properties:
      apiKey: \${aliceKey}
      baseUrl: \${emulatorUrl}
      monthlyBudgetUsd: 100
  teamVps:
    type: rimuhosting:Vps
    properties:
      domainName: team.example.com
      dcLocation: DCDALLAS
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
    options:
      provider: \${team}
`;
