/**
 * The `rimuhosting-bill` command as a user runs it (the built bin, dist/provider/bill/cli.js, in a process of its
 * own): a file or standard input, the exit codes (0; 1 when the budget's verdict fails, the bill still printed;
 * 2 for input that is not a preview's JSON, with the message on stderr and no stack trace), and the native
 * plugin's `bill` command printing the same, from a checkout and from the launcher tarball (the release's
 * executable loads the same part bundle as a SEA asset).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { BILL_MARKER } from "../../provider/bill/markdown";
import { packPlugin } from "../../provider/native/pack";
import { scratchDir } from "../package/support/offline-project";

const REPO_ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(REPO_ROOT, "dist/provider/bill/cli.js");
const PLUGIN = path.join(REPO_ROOT, "bin/pulumi-resource-rimuhosting");

const urn = (name: string) => `urn:pulumi:prod::shop::rimuhosting:index:Vps::${name}`;
/** A preview that adds $10 a month to a stack of one $10 VPS (both listed: --show-sames). */
function previewJson(config: Record<string, string> = {}): string {
  return JSON.stringify({
    config,
    steps: [
      {
        op: "same",
        urn: urn("web"),
        oldState: { urn: urn("web"), type: "rimuhosting:index:Vps", outputs: { monthlyFeeUsd: 10 } },
        newState: { urn: urn("web"), type: "rimuhosting:index:Vps", inputs: { plannedMonthlyFeeUsd: 10 } },
      },
      {
        op: "create",
        urn: urn("api"),
        newState: { urn: urn("api"), type: "rimuhosting:index:Vps", inputs: { plannedMonthlyFeeUsd: 10 } },
      },
    ],
    changeSummary: { same: 1, create: 1 },
  });
}

jest.setTimeout(180_000); // the launcher tarball's bundles

const scratch = scratchDir("bill-cli");
afterAll(() => scratch.cleanup());

function file(name: string, text: string): string {
  const at = path.join(scratch.dir, name);
  fs.writeFileSync(at, text);
  return at;
}

/** Runs the npm bin, or `<plugin> bill` (default: the checkout's bin/ launcher). */
function run(args: string[], input?: string, command: "bin" | "plugin" = "bin", plugin = PLUGIN) {
  const [exe, argv] = command === "bin" ? [process.execPath, [BIN, ...args]] : [plugin, ["bill", ...args]];
  const { status, stdout, stderr } = spawnSync(exe, argv, { encoding: "utf8", input, timeout: 60_000 });
  return { status, stdout, stderr };
}

describe("rimuhosting-bill", () => {
  test("prints the bill of a file, and the same of standard input; exit 0 within the budget", () => {
    const within = file("within.json", previewJson({ "rimuhosting:monthlyBudgetUsd": "20" }));
    const fromFile = run([within]);
    expect(fromFile.stderr).toBe("");
    expect(fromFile.status).toBe(0);
    expect(fromFile.stdout.startsWith(`${BILL_MARKER}\n`)).toBe(true);
    expect(fromFile.stdout).toContain("| **Stack total** | | **$10.00** | **$20.00** | **+$10.00** |");
    expect(fromFile.stdout).toContain("**Budget: ✅ within the budget.**");
    expect(run([], fs.readFileSync(within, "utf8"))).toEqual(fromFile);
    expect(run(["-"], fs.readFileSync(within, "utf8"))).toEqual(fromFile);
  });

  test("over the budget: exit 1, the bill printed all the same", () => {
    const over = run([file("over.json", previewJson({ "rimuhosting:monthlyBudgetUsd": "19.99" }))]);
    expect(over.status).toBe(1);
    expect(over.stderr).toBe("");
    expect(over.stdout).toContain("**Budget: ❌ over the budget.**");
    expect(over.stdout).toContain("| **Stack total** | | **$10.00** | **$20.00** | **+$10.00** |");
    // Advisory enforcement: the same verdict as a warning, exit 0.
    const warned = run([
      file(
        "warn.json",
        previewJson({ "rimuhosting:monthlyBudgetUsd": "19.99", "rimuhosting:budgetEnforcement": "warn" }),
      ),
    ]);
    expect(warned.status).toBe(0);
    expect(warned.stdout).toContain("**Budget: ⚠️ over the budget (advisory: the run may go ahead).**");
  });

  test("input that is not a preview's JSON: exit 2, what it is and how to make the right one, no stack", () => {
    const display = run([file("display.txt", "Previewing update (prod):\n     Type  Name  Plan\n")]);
    expect(display.status).toBe(2);
    expect(display.stdout).toBe("");
    expect(display.stderr).toBe(
      `rimuhosting-bill: ${path.join(scratch.dir, "display.txt")} is not JSON; it starts with: Previewing update (prod):. ` +
        "rimuhosting-bill reads what `pulumi preview --json` prints; make it with " +
        "`pulumi preview --json --show-sames > preview.json` (--show-sames lets the bill add up the whole stack).\n",
    );
    const missing = run([path.join(scratch.dir, "nope.json")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(
      `rimuhosting-bill: cannot read ${path.join(scratch.dir, "nope.json")}: there is no such file.\n`,
    );
    const option = run(["--out", "x"]);
    expect(option.status).toBe(2);
    expect(option.stderr).toMatch(
      /^rimuhosting-bill: unknown option --out\n\nUsage: rimuhosting-bill \[preview\.json\]/,
    );
    expect(run(["--help"])).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^Usage: rimuhosting-bill/),
    });
  });
});

/** The plugin at `plugin` prints what the npm bin prints, with the same exit codes, from a file or stdin. */
function sameAsBin(plugin: string): void {
  for (const [name, text] of [
    ["within.json", previewJson({ "rimuhosting:monthlyBudgetUsd": "20" })],
    ["over.json", previewJson({ "rimuhosting:monthlyBudgetUsd": "5" })],
  ] as const) {
    const at = file(name, text);
    const fromPlugin = run([at], undefined, "plugin", plugin);
    expect(fromPlugin).toEqual(run([at]));
    expect(run([], text, "plugin", plugin)).toEqual(fromPlugin);
  }
  expect(
    run(
      ["within.json"].map((n) => path.join(scratch.dir, n)),
      undefined,
      "plugin",
      plugin,
    ).status,
  ).toBe(0);
  const bad = run([file("bad.json", "[]")], undefined, "plugin", plugin);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/^pulumi-resource-rimuhosting bill: .*bad\.json is a JSON array/);
}

describe("pulumi-resource-rimuhosting bill", () => {
  test("a checkout's bin/ prints what rimuhosting-bill prints, with the same exit codes", () => {
    sameAsBin(PLUGIN);
  });

  test("the launcher tarball (npm run plugin:pack) runs it from its own bundle beside the plugin's", async () => {
    const dir = path.join(scratch.dir, "launcher");
    fs.mkdirSync(dir);
    const tarball = await packPlugin(dir);
    execFileSync("tar", ["-xzf", tarball, "-C", dir]);
    expect(fs.existsSync(path.join(dir, "bill.js"))).toBe(true);
    sameAsBin(path.join(dir, "pulumi-resource-rimuhosting"));
  });
});
