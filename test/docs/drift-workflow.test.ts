/**
 * docs/ci.md's scheduled drift workflow, its two shell steps run as GitHub's runner runs them (bash -eo pipefail)
 * against the emulator, through the real CLI, with `gh` replaced by a local recorder of issues and `npx` running the
 * checkout's built command. An unchanged stack touches no issue; drift opens the stack's issue with the report; more
 * drift updates that one issue; the report's advice followed as written (`pulumi up --refresh`) repairs the VPS and
 * the next run closes the issue, but not while `pulumi preview --expect-no-changes` still finds a change (a program
 * that says other than the state: issue 65); another project's open issue for a stack of the same name is never touched (the
 * issue's key is the project and the stack, issue 57); a broken run (exit neither 0 nor 7) fails the job and touches
 * nothing. The steps run in a user's environment (support/user-env.ts): what the workflow and the runner set, the
 * harness's CLI settings (a file backend for the page's S3 bucket), the stand-ins first on PATH; nothing of this
 * test's own process.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { describeCliOnly } from "../engine/describe-cli";
import { offlineCliEnv } from "../engine/cli-stack";
import { startScenario, type Scenario } from "../engine/e2e-support";
import { REFRESH_PROGRAM_CONFIG } from "../engine/refresh-output";
import { DRIFT_MARKER } from "../../provider/drift/markdown";
import { recipe } from "./support/code-blocks";
import { writeNpxStandIn } from "./support/npx-stand-in";
import { userEnv } from "./support/user-env";
import { scratchDir } from "../package/support/offline-project";

jest.setTimeout(300_000);

interface Issue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
}

/** `gh issue list|create|edit|close` as the workflow calls them, on a JSON file of issues; each call is logged. */
const GH_RECORDER = `#!/usr/bin/env node
const fs = require("node:fs");
const file = process.env.GH_RECORDER;
const state = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : { issues: [], calls: [] };
const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
state.calls.push(args.map((arg) => (arg === flag("--body-file") ? "<body-file>" : arg)).join(" "));
const save = () => fs.writeFileSync(file, JSON.stringify(state));
if (process.env.GH_TOKEN !== "ghs_not-a-real-token") { save(); console.error("gh: not logged in"); process.exit(4); }
const [noun, verb] = args;
const find = () => state.issues.find((issue) => issue.number === Number(args[2]));
if (noun === "issue" && verb === "list") {
  const fields = flag("--json").split(",");
  const open = state.issues.filter((issue) => issue.state === flag("--state"));
  console.log(JSON.stringify(open.map((issue) => Object.fromEntries(fields.map((f) => [f, issue[f]])))));
} else if (noun === "issue" && verb === "create") {
  const number = state.issues.length + 1;
  state.issues.push({ number, title: flag("--title"), body: fs.readFileSync(flag("--body-file"), "utf8"), state: "open" });
  console.log("https://github.com/acme/infra/issues/" + number);
} else if (noun === "issue" && verb === "edit") {
  find().body = fs.readFileSync(flag("--body-file"), "utf8");
} else if (noun === "issue" && verb === "close") {
  find().state = "closed";
  find().closingComment = flag("--comment");
} else { save(); console.error("gh recorder: no such call: " + args.join(" ")); process.exit(1); }
save();
`;

/** The workflow's steps, by name: their shell scripts. */
function stepScript(name: string): string {
  const workflow = parse(recipe("docs/ci.md#drift-workflow")) as {
    jobs: { drift: { steps: { name?: string; run?: string }[] } };
  };
  const step = workflow.jobs.drift.steps.find((candidate) => candidate.name === name);
  if (!step?.run) throw new Error(`docs/ci.md's drift workflow has no step named '${name}'`);
  return step.run;
}

describeCliOnly("docs/ci.md's drift workflow, its steps against the emulator", () => {
  const scratch = scratchDir("drift-workflow");
  const bin = path.join(scratch.dir, "bin");
  const recorder = path.join(scratch.dir, "gh.json");
  let s: Scenario;
  let oid = 0;

  /** Another project's open issue for a stack of the same name (issue 57): no run of this stack may touch it. */
  const otherProjects = (stack: string): Issue => ({
    number: 1,
    title: `Drift in stack blog/${stack}`,
    body: `<!-- rimuhosting-drift blog/${stack} -->\r\n**Drift in stack \`${stack}\` of project \`blog\`**…`,
    state: "open",
  });

  beforeAll(async () => {
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, "gh"), GH_RECORDER, { mode: 0o755 });
    writeNpxStandIn(bin);
    s = await startScenario("drift-workflow", {
      programDir: path.join(__dirname, "..", "engine", "fixtures", "refresh"),
      config: REFRESH_PROGRAM_CONFIG,
      // The page's steps run on this stack in a user's environment: keyed by the passphrase, as a user's stack is.
      keys: "passphrase",
    });
    const up = await s.stack.up();
    oid = Number(up.steps.find((step) => step.name === "web")?.id);
    // GitHub hands bodies back with \r\n line ends; the workflow's key matches either.
    fs.writeFileSync(recorder, JSON.stringify({ issues: [otherProjects(s.stack.cli.name)], calls: [] }));
  });
  afterAll(async () => {
    for (const file of ["refresh.json", "drift.md", "preview.txt", "still.md"])
      fs.rmSync(path.join(s.stack.cli.programDir, file), { force: true });
    await s?.close();
    scratch.cleanup();
  });

  /**
   * One bash step, in the program's directory, in a user's environment: `stepEnv` (the step's `env:`) and the
   * runner's GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, which the page's steps name; the harness's CLI settings, its file
   * backend in place of the page's bucket; the stand-ins first on PATH, the recorder's file for `gh`.
   */
  function runStep(
    script: string,
    stepEnv: Record<string, string>,
  ): Promise<{ code: number | null; output: string }> {
    const harness = offlineCliEnv(path.join(s.workDir, "backend"));
    const env = userEnv(
      "docs/ci.md",
      {
        GITHUB_OUTPUT: path.join(scratch.dir, "output"),
        GITHUB_STEP_SUMMARY: path.join(scratch.dir, "summary.md"),
        ...stepEnv,
      },
      harness,
      [bin],
    );
    return new Promise((resolve, reject) => {
      const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
        cwd: s.stack.cli.programDir,
        env: { ...env, GH_RECORDER: recorder },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, output }));
    });
  }

  /** Both steps, as one scheduled run: the refresh's exit code, the issue step's result, the calls to gh. */
  async function scheduledRun(stack = s.stack.cli.name) {
    fs.writeFileSync(path.join(scratch.dir, "output"), "");
    const refresh = await runStep(stepScript("Refresh as a preview"), { STACK: stack });
    expect(refresh.code).toBe(0); // the step itself never fails: the next one judges the exit code
    const exit = /exit=(\d+)/.exec(fs.readFileSync(path.join(scratch.dir, "output"), "utf8"))![1]!;
    const before = fs.existsSync(recorder)
      ? (JSON.parse(fs.readFileSync(recorder, "utf8")) as { calls: string[] }).calls.length
      : 0;
    const report = await runStep(stepScript("Open, update or close the stack's drift issue"), {
      STACK: stack,
      REFRESH_EXIT: exit,
      GH_TOKEN: "ghs_not-a-real-token",
    });
    const recorded = fs.existsSync(recorder)
      ? (JSON.parse(fs.readFileSync(recorder, "utf8")) as { issues: Issue[]; calls: string[] })
      : { issues: [], calls: [] };
    return { exit, report, issues: recorded.issues, calls: recorded.calls.slice(before) };
  }

  /** The stack as the report names it: the fixture's project and the stack. */
  const stackKey = () => `refresh/${s.stack.cli.name}`;
  const title = () => `Drift in stack ${stackKey()}`;
  const LIST = "issue list --state open --limit 200 --json number,body";

  test("an unchanged stack: exit 0, no issue", async () => {
    const run = await scheduledRun();
    expect(run).toMatchObject({ exit: "0", report: { code: 0 } });
    expect(run.issues).toEqual([otherProjects(s.stack.cli.name)]);
    expect(run.calls).toEqual([LIST]);
  });

  test("a resize outside Pulumi: exit 7, the stack's own issue opened, not another project's updated", async () => {
    await s.client.changeParameters(oid, { memory_mb: 2048 });
    const run = await scheduledRun();
    expect(run).toMatchObject({ exit: "7", report: { code: 0 } });
    expect(run.calls.slice(1)).toEqual([`issue create --title ${title()} --body-file <body-file>`]);
    expect(run.issues).toHaveLength(2);
    expect(run.issues[0]).toEqual(otherProjects(s.stack.cli.name));
    expect(run.issues[1]).toMatchObject({ number: 2, title: title(), state: "open" });
    expect(run.issues[1]!.body.startsWith(`${DRIFT_MARKER} ${stackKey()} -->\n`)).toBe(true);
    expect(run.issues[1]!.body).toContain("| web (refresh.example.com) | memoryMb | 1024 → 2048 | +$");
  });

  test("more drift on the next run: the same issue updated, no second one", async () => {
    await s.client.setRunningState(oid, "NOTRUNNING");
    const run = await scheduledRun();
    expect(run).toMatchObject({ exit: "7", report: { code: 0 } });
    expect(run.calls.slice(1)).toEqual(["issue edit 2 --body-file <body-file>"]);
    expect(run.issues).toHaveLength(2);
    expect(run.issues[1]!.body).toContain(
      "| web (refresh.example.com) | runningState | RUNNING → NOTRUNNING | none |",
    );
  });

  test("the report's advice followed as written: the next run finds no drift and closes only this issue", async () => {
    const before = JSON.parse(fs.readFileSync(recorder, "utf8")) as { issues: Issue[] };
    // Each kind's advice, as the issue says it: here every one names `pulumi up --refresh` first.
    const advice = before.issues[1]!.body.split("\n").filter((line) => line.startsWith("- **"));
    expect(advice).toEqual([
      expect.stringMatching(/^- \*\*Resized\*\* \(web\): `pulumi up --refresh` resizes it back/),
      expect.stringMatching(
        /^- \*\*Stopped or started\*\* \(web\): `pulumi up --refresh` starts or stops it/,
      ),
    ]);
    const command = /`(pulumi [^`]+)`/.exec(advice[0]!)![1]!.split(" ").slice(1);
    await s.stack.cli.command(...command, "--yes");
    // The VPS is as the state says, but the program says another size: the issue stays open, saying so.
    await s.stack.setConfig("memoryMb", "2048");
    const differs = await scheduledRun();
    expect(differs).toMatchObject({ exit: "0", report: { code: 0 } });
    expect(differs.calls.slice(1)).toEqual(["issue edit 2 --body-file <body-file>"]);
    expect(differs.issues[1]).toMatchObject({ state: "open" });
    expect(differs.issues[1]!.body).toContain(
      `${DRIFT_MARKER} ${stackKey()} -->\n**No drift left in stack ${stackKey()}, but the program still differs`,
    );
    await s.stack.setConfig("memoryMb", REFRESH_PROGRAM_CONFIG.memoryMb);
    const run = await scheduledRun();
    expect(run).toMatchObject({ exit: "0", report: { code: 0 } });
    expect(run.calls.slice(1)).toEqual([
      `issue close 2 --comment No drift in stack ${stackKey()} any more: closed by the drift workflow.`,
    ]);
    expect(run.issues[1]).toMatchObject({ state: "closed" });
    expect(run.issues[0]).toEqual(otherProjects(s.stack.cli.name));
    // Repaired, not accepted: the VPS is as the program says again.
    const order = (await s.client.getOrder(oid)).about_order;
    expect([order.vps_parameters?.memory_mb, order.running_state]).toEqual([1024, "RUNNING"]);
  });

  test("a broken run (no such stack): the job fails, saying so, and no issue is touched", async () => {
    const run = await scheduledRun("no-such-stack");
    expect(run.exit).not.toMatch(/^(0|7)$/);
    expect(run.report.code).toBe(1);
    expect(run.report.output).toContain(
      `::error::pulumi refresh failed (exit ${run.exit}): a broken run, not drift`,
    );
    expect(run.calls).toEqual([]);
  });
});
