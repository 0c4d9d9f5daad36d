/**
 * The `rimuhosting-bill` command as a user runs it (the built bin, dist/provider/bill/cli.js, in a process of its
 * own): a file or standard input, the thresholds and the quiet mode, one bill per stack with --out-dir, the exit
 * codes (0; 1 when a budget, a --fail-over limit or a mandatory policy fails, the bill still printed; 2 for input
 * or options that are wrong, with the message on stderr and no stack trace), and the native plugin's `bill`
 * command printing the same, from a checkout and from the launcher tarball (the release's executable loads the
 * same part bundle as a SEA asset).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { BILL_MARKER, QUIET_MARKER } from "../../provider/bill/markdown";
import { packPlugin } from "../../provider/native/pack";
import { expectHelpAtTerminal } from "../helpers/in-terminal";
import { scratchDir } from "../package/support/offline-project";
import { resized, vpsLog } from "../helpers/preview-log";

const REPO_ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(REPO_ROOT, "dist/provider/bill/cli.js");
const PLUGIN = path.join(REPO_ROOT, "bin/pulumi-resource-rimuhosting");

/** A preview that adds $10 a month to a stack of one $10 VPS. */
const previewText = (config: Record<string, string> = {}): string =>
  vpsLog(
    [
      { name: "web", op: "same", fee: 10, planned: 10 },
      { name: "api", op: "create", planned: 10 },
    ],
    config,
  );

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

const HOW = "make the file with `PULUMI_DEBUG_COMMANDS=true pulumi preview --event-log preview.events`";

describe("rimuhosting-bill", () => {
  test("prints the bill of a file, and the same of standard input; exit 0 within the budget", () => {
    const within = file("within.events", previewText({ "rimuhosting:monthlyBudgetUsd": "20" }));
    const fromFile = run([within]);
    expect(fromFile.stderr).toBe("");
    expect(fromFile.status).toBe(0);
    expect(fromFile.stdout.startsWith(`${BILL_MARKER}: shop/prod -->\n`)).toBe(true);
    expect(fromFile.stdout).toContain("| **Stack total** | | **$10.00** | **$20.00** | **+$10.00** |");
    expect(fromFile.stdout).toContain("**Budget (stack config): ✅ within.**");
    expect(run([], fs.readFileSync(within, "utf8"))).toEqual(fromFile);
    expect(run(["-"], fs.readFileSync(within, "utf8"))).toEqual(fromFile);
  });

  test("over the budget: exit 1, the bill printed all the same; advisory enforcement warns, exit 0", () => {
    const over = run([file("over.events", previewText({ "rimuhosting:monthlyBudgetUsd": "19.99" }))]);
    expect(over).toMatchObject({ status: 1, stderr: "" });
    expect(over.stdout).toContain("**Budget (stack config): ❌ failed.**");
    expect(over.stdout).toContain("| **Stack total** | | **$10.00** | **$20.00** | **+$10.00** |");
    const warned = run([
      file(
        "warn.events",
        previewText({ "rimuhosting:monthlyBudgetUsd": "19.99", "rimuhosting:budgetEnforcement": "warn" }),
      ),
    ]);
    expect(warned.status).toBe(0);
    expect(warned.stdout).toContain("**Budget (stack config): ⚠️ warning.**");
  });

  test("thresholds by amount and by percentage: a failing one exits 1, a warning one 0", () => {
    const at = file("plain.events", previewText()); // $10.00 → $20.00: +$10.00, +100 %
    expect(run([at, "--fail-over", "10"]).status).toBe(0);
    const failed = run([at, "--fail-over", "9.99"]);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toContain(
      "**Thresholds: ❌ failed.**\n- The monthly change is over $9.99 a month (--fail-over 9.99).",
    );
    const warned = run([at, "--warn-over=50%", "--fail-over", "200%"]);
    expect(warned.status).toBe(0);
    expect(warned.stdout).toContain(
      "**Thresholds: ⚠️ warning.**\n- The monthly change is over 50 % (--warn-over 50%).",
    );
    for (const bad of ["1e3", "0x10", "", "-5", "ten"]) {
      const refused = run([at, "--fail-over", bad]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(
        `rimuhosting-bill: --fail-over ${JSON.stringify(bad)} is not a limit: give USD a month in digits (25, 7.50) or a percentage (10%).`,
      );
    }
  });

  test("quiet under a threshold: the markers and one line, unless something needs saying", () => {
    const small = file("small.events", vpsLog([resized(10, 10.5, 1024, 1024)]));
    const quiet = run([small, "--quiet-under", "1"]);
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).toBe(
      `${BILL_MARKER}: shop/prod -->\n${QUIET_MARKER}\nRimuHosting bill for stack \`prod\`: +$0.50 a month ▲ (+5 %), under $1.00 a month; nothing else to say.\n`,
    );
    expect(run([small, "--quiet-under", "5%"]).stdout).not.toContain(QUIET_MARKER);
    // A stack over its budget is always said in full, even when this run, keeping the total, passes.
    const warned = file(
      "small-warn.events",
      vpsLog([{ name: "web", op: "same", fee: 10, planned: 10 }], {
        "rimuhosting:monthlyBudgetUsd": "5",
        "rimuhosting:budgetEnforcement": "warn",
      }),
    );
    expect(run([warned, "--quiet-under", "1"]).stdout).not.toContain(QUIET_MARKER);
  });

  test("several stacks: one bill each in --out-dir, each with its stack's marker; the worst exit code", () => {
    const prod = file("prod.events", previewText());
    const staging = file(
      "staging.events",
      previewText({ "rimuhosting:monthlyBudgetUsd": "5" }).replace(
        /urn:pulumi:prod::/g,
        "urn:pulumi:staging::",
      ),
    );
    const out = path.join(scratch.dir, "bills");
    expect(run([prod, staging, "--out-dir", out])).toMatchObject({ status: 1, stdout: "", stderr: "" });
    expect(fs.readdirSync(out).sort()).toEqual(["shop.prod.md", "shop.staging.md"]);
    expect(fs.readFileSync(path.join(out, "shop.staging.md"), "utf8")).toMatch(
      /^<!-- rimuhosting-bill: shop\/staging -->\n/,
    );
    expect(fs.readFileSync(path.join(out, "shop.prod.md"), "utf8")).toMatch(
      /^<!-- rimuhosting-bill: shop\/prod -->\n/,
    );
    expect(run([prod, staging]).stderr).toContain(
      "2 files give one bill each: add --out-dir <dir> to write them",
    );
    expect(run([prod, prod, "--out-dir", out]).stderr).toBe(
      "rimuhosting-bill: two files are previews of stack shop/prod: give one per stack.\n",
    );
  });

  test("--stack: wrong combinations, and no `pulumi` to run, exit 2 naming what to change, no bill", () => {
    const events = file("plain.events", previewText());
    const refused = (args: string[], env?: NodeJS.ProcessEnv) => {
      const { status, stdout, stderr } = spawnSync(process.execPath, [BIN, ...args], {
        encoding: "utf8",
        env,
        timeout: 60_000,
      });
      expect({ status, stdout }).toEqual({ status: 2, stdout: "" });
      expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
      return stderr.split("\n")[0];
    };
    expect(refused(["--stack", "prod", events])).toBe(
      `rimuhosting-bill: give --stack or event-log files (${events}), not both: --stack runs the preview itself.`,
    );
    expect(refused(["--", "--policy-pack", "pack"])).toBe(
      "rimuhosting-bill: the flags after -- (--policy-pack pack) are for the preview that --stack runs: add --stack <stack>.",
    );
    expect(refused(["--stack", "prod", "--stack", "staging"])).toBe(
      "rimuhosting-bill: 2 stacks give one bill each: add --out-dir <dir> to write them.",
    );
    expect(refused(["--stack"])).toBe("rimuhosting-bill: --stack needs a value.");
    // A PATH with no `pulumi` on it (the bin itself is run by this Node.js, by its path).
    expect(refused(["--stack", "prod"], { PATH: scratch.dir })).toBe(
      "rimuhosting-bill: cannot run `pulumi` for --stack: it is not on PATH. Install the Pulumi CLI or put its " +
        "directory on PATH, then run this again.",
    );
  });

  test("input that is not a whole preview's event log: exit 2, what it is and how to make the right one", () => {
    const refused = (name: string, text: string) => {
      const result = run([file(name, text)]);
      expect(result).toMatchObject({ status: 2, stdout: "" });
      expect(result.stderr).toContain(HOW);
      return result.stderr;
    };
    expect(refused("display.txt", "Previewing update (prod):\n     Type  Name  Plan\n")).toBe(
      `rimuhosting-bill: ${path.join(scratch.dir, "display.txt")} is not JSON; it starts with: Previewing update (prod):. ` +
        "rimuhosting-bill reads the event log of a preview; run `rimuhosting-bill --stack <stack>` to have it run " +
        "the preview, or make the file with `PULUMI_DEBUG_COMMANDS=true pulumi preview --event-log preview.events` " +
        "(add your usual flags, such as --stack and --policy-pack; the CLI has --event-log only with that variable " +
        "set).\n",
    );
    const whole = previewText();
    const lines = whole.trimEnd().split("\n");
    expect(refused("cut.events", lines.slice(0, -2).join("\n"))).toContain(
      `cut.events is cut off: it has ${lines.length - 2} events and ends before the preview did (no summary event`,
    );
    expect(refused("cut-line.events", whole.slice(0, whole.length - 30))).toContain(
      `cut-line.events is cut off: line ${lines.length} of ${lines.length} is not a whole event`,
    );
    expect(refused("digest.json", JSON.stringify({ steps: [], changeSummary: {} }, null, 2))).toContain(
      "digest.json is what `pulumi preview --json` prints, which leaves out the policy packs' verdicts",
    );
    expect(
      refused("half.json", JSON.stringify({ steps: [], changeSummary: {} }, null, 2).slice(0, 12)),
    ).toContain("half.json is JSON that ends before it is complete");
    expect(refused("up.events", whole.replace('"isPreview":true', '"isPreview":false'))).toContain(
      "up.events is the event log of an update (`pulumi up`), not of a preview",
    );
    expect(refused("empty.events", "")).toContain("empty.events is empty.");
    const missing = run([path.join(scratch.dir, "nope.events")]);
    expect(missing).toMatchObject({
      status: 2,
      stderr: `rimuhosting-bill: cannot read ${path.join(scratch.dir, "nope.events")}: there is no such file.\n`,
    });
    expect(run(["--out", "x"]).stderr).toMatch(
      /^rimuhosting-bill: unknown option '--out'; `rimuhosting-bill --help` lists its options\.\n\nUsage: rimuhosting-bill \[options\] --stack/,
    );
    expect(run(["--help"])).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^Usage: rimuhosting-bill/),
    });
  });
});

describe("rimuhosting-bill --format json and --compare-to", () => {
  test("--format json prints the bill as data, with the Markdown's exit codes; --out-dir writes .json", () => {
    const within = file("data-within.events", previewText({ "rimuhosting:monthlyBudgetUsd": "20" }));
    const printed = run([within, "--format", "json"]);
    expect(printed).toMatchObject({ status: 0, stderr: "" });
    expect(JSON.parse(printed.stdout)).toMatchObject({
      format: "rimuhosting-bill",
      version: 1,
      project: "shop",
      stack: "prod",
      status: "pass",
      totals: { beforeCents: 1000, afterCents: 2000, changeCents: 1000, percent: 100, notPriced: [] },
      comparison: null,
    });
    const over = file("data-over.events", previewText({ "rimuhosting:monthlyBudgetUsd": "5" }));
    const failed = run([over, "--format=json"]);
    expect(failed.status).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ status: "fail", budgets: [{ status: "fail" }] });
    const out = path.join(scratch.dir, "data-bills");
    expect(run([within, "--format", "json", "--out-dir", out])).toMatchObject({ status: 0, stdout: "" });
    expect(fs.readFileSync(path.join(out, "shop.prod.json"), "utf8")).toBe(printed.stdout);
    expect(run([within, "--format", "yaml"])).toMatchObject({
      status: 2,
      stdout: "",
      stderr: expect.stringMatching(
        /^rimuhosting-bill: --format "yaml" is not a format: give markdown or json\.\n\nUsage: /,
      ),
    });
  });

  test("--compare-to a file or a directory of main's bills: the difference in the Markdown and in the JSON", () => {
    const main = file("main.events", vpsLog([{ name: "web", op: "same", fee: 10, planned: 10 }]));
    const mainDir = path.join(scratch.dir, "bills-main");
    expect(run([main, "--format", "json", "--out-dir", mainDir]).status).toBe(0);
    const baseline = path.join(mainDir, "shop.prod.json");
    const pr = file("pr.events", previewText());
    const markdown = run([pr, "--compare-to", baseline]);
    expect(markdown).toMatchObject({ status: 0, stderr: "" });
    expect(markdown.stdout).toContain(`**Against the baseline** (\`${baseline}\`): +$10.00 a month ▲.`);
    expect(markdown.stdout).toContain("| `api` | — | $10.00 | +$10.00 |");
    const fromDir = JSON.parse(run([pr, "--compare-to", mainDir, "--format", "json"]).stdout);
    expect(fromDir.comparison).toMatchObject({
      source: baseline,
      totals: { baselineCents: 1000, currentCents: 2000, changeCents: 1000, notPriced: [] },
    });
    // A directory without the stack's bill (a new stack): said, not failed.
    const staging = file(
      "staging.events",
      previewText().replace(/urn:pulumi:prod::/g, "urn:pulumi:staging::"),
    );
    expect(run([staging, "--compare-to", mainDir]).stdout).toContain(
      `**Against the baseline** (\`${mainDir}\`): not compared: no bill of stack shop/staging there (shop.staging.json): a new stack, or its bill was not made.`,
    );
    // A file of another stack, or none: exit 2 naming the file and what to give.
    expect(run([staging, "--compare-to", baseline])).toEqual({
      status: 2,
      stdout: "",
      stderr: `rimuhosting-bill: --compare-to: no bill of stack shop/staging among ${baseline} (shop/prod): give the JSON bill of the same stack.\n`,
    });
    expect(run([pr, "--compare-to", path.join(scratch.dir, "nope.json")])).toEqual({
      status: 2,
      stdout: "",
      stderr: `rimuhosting-bill: --compare-to ${path.join(scratch.dir, "nope.json")}: cannot read it: there is no such file or directory.\n`,
    });
    expect(run([pr, "--compare-to", pr]).stderr).toBe(
      `rimuhosting-bill: --compare-to ${pr} is not JSON: give the JSON bill of the same stack that \`rimuhosting-bill --format json\` wrote (docs/ci.md keeps main's as an artifact).\n`,
    );
  });
});

/**
 * The plugin at `plugin` prints what the npm bin prints, with the same exit codes, from a file or stdin. `whole`:
 * every form (the checkout's bin/); otherwise one bill of each format and one refusal, enough to show that the plugin
 * at `plugin` runs the bill from its own bundle: the forms are the same code (the launcher tarball; CPU, issue 67).
 */
function sameAsBin(plugin: string, whole: boolean): void {
  const events = [
    ["within.events", previewText({ "rimuhosting:monthlyBudgetUsd": "20" })],
    ["over.events", previewText({ "rimuhosting:monthlyBudgetUsd": "5" })],
  ] as const;
  for (const [i, [name, text]] of events.entries()) {
    const at = file(name, text);
    const fromBin = run([at]);
    if (whole || i === 1) expect(run([at], undefined, "plugin", plugin)).toEqual(fromBin);
    if (whole || i === 0)
      expect(run([at, "--format", "json"], undefined, "plugin", plugin)).toEqual(
        run([at, "--format", "json"]),
      );
    if (whole) expect(run([], text, "plugin", plugin)).toEqual(fromBin);
  }
  if (whole)
    expect(
      run(
        ["within.events"].map((n) => path.join(scratch.dir, n)),
        undefined,
        "plugin",
        plugin,
      ).status,
    ).toBe(0);
  const bad = run([file("bad.events", "[]")], undefined, "plugin", plugin);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/^pulumi-resource-rimuhosting bill: .*bad\.events is a JSON array/);
}

describe("pulumi-resource-rimuhosting bill", () => {
  test("a checkout's bin/ prints what rimuhosting-bill prints, with the same exit codes", () => {
    sameAsBin(PLUGIN, true);
  });

  test("the launcher tarball (npm run plugin:pack) runs it from its own bundle beside the plugin's", async () => {
    const dir = path.join(scratch.dir, "launcher");
    fs.mkdirSync(dir);
    const tarball = await packPlugin(dir);
    execFileSync("tar", ["-xzf", tarball, "-C", dir]);
    expect(fs.existsSync(path.join(dir, "bill.js"))).toBe(true);
    sameAsBin(path.join(dir, "pulumi-resource-rimuhosting"), false);
  });
});

test.each([
  ["rimuhosting-bill", process.execPath, [BIN]],
  ["pulumi-resource-rimuhosting bill", PLUGIN, ["bill"]],
])("%s with no file, at a terminal: says so with the help and exits 2, not waiting", (name, exe, args) =>
  expectHelpAtTerminal(name, exe, args, "\\[options\\]"),
);
