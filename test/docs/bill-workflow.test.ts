/**
 * docs/ci.md's bill workflow, the whole job, as GitHub's runner runs it (support/workflow-job.ts): through the real
 * CLI against the emulator, posting to a stand-in for GitHub's API on 127.0.0.1 (support/github-stand-in.ts), in a
 * clean environment: what the workflow sets, the runner's GITHUB_* variables, and the harness's HARNESS_ENV
 * (support/user-env.ts), nothing of this test's own process. So a step that works only with a variable the page
 * does not set (PULUMI_DEBUG_COMMANDS for `--event-log`) fails here as it fails for users.
 *
 * Two stacks of one project. First a push to main: the main-bills job bills both as data (its artifact upload, a
 * `uses:` step, is this test's copy into a stand-in artifact store). Then a pull request: prod resizes its VPS,
 * staging creates one as on main; the bill job downloads main's bills with `gh` (a stand-in serving that store) and
 * each stack gets its bill, compared with main's, as one comment each.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { billTableRows } from "../helpers/bill-table";
import { DEMO_API_KEY } from "../../emulator/index";
import { CliStack, offlineCliEnv } from "../engine/cli-stack";
import { describeCliOnly } from "../engine/describe-cli";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { scratchDir } from "../package/support/offline-project";
import { REPO_ROOT } from "./support/code-blocks";
import {
  serveGitHubStandIn,
  STAND_IN_PR,
  STAND_IN_REPO,
  STAND_IN_TOKEN,
  type Comment,
} from "./support/github-stand-in";
import { writeNpxStandIn } from "./support/npx-stand-in";
import { userEnv } from "./support/user-env";
import { runWorkflowJob, type JobRun } from "./support/workflow-job";

jest.setTimeout(600_000);

const PROGRAM = path.join(REPO_ROOT, "test/engine/fixtures/bill");
const vps = (memoryMb: number) => ({ memoryMb, dcLocation: "DCDALLAS" });
/** The run of main whose artifact the stand-in serves. */
const MAIN_RUN = "4242";

/**
 * `gh run list|download` as the bill job calls them: the last successful run of main is MAIN_RUN, whose artifact
 * `bills-main` is the directory GH_ARTIFACTS/bills-main; each call is logged to GH_ARTIFACTS/calls.
 */
const GH_STAND_IN = `#!/usr/bin/env node
const fs = require("node:fs");
const path = require("node:path");
const store = process.env.GH_ARTIFACTS;
const args = process.argv.slice(2);
fs.appendFileSync(path.join(store, "calls"), args.join(" ") + "\\n");
if (process.env.GH_TOKEN !== "${STAND_IN_TOKEN}") { console.error("gh: not logged in"); process.exit(4); }
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
if (args[0] === "run" && args[1] === "list") {
  console.log(fs.existsSync(path.join(store, "bills-main")) ? "${MAIN_RUN}" : "");
} else if (args[0] === "run" && args[1] === "download" && args[2] === "${MAIN_RUN}" && flag("--name") === "bills-main") {
  fs.cpSync(path.join(store, "bills-main"), flag("--dir"), { recursive: true });
} else { console.error("gh stand-in: no such call: " + args.join(" ")); process.exit(1); }
`;

describeCliOnly("docs/ci.md's bill workflow, end to end", () => {
  const scratch = scratchDir("bill-workflow");
  const backendDir = path.join(scratch.dir, "backend");
  const bin = path.join(scratch.dir, "bin");
  const artifacts = path.join(scratch.dir, "artifacts");
  let emulator: TestEmulator;
  const stacks: Record<"prod" | "staging", CliStack | undefined> = { prod: undefined, staging: undefined };

  beforeAll(async () => {
    writeNpxStandIn(bin);
    fs.writeFileSync(path.join(bin, "gh"), GH_STAND_IN, { mode: 0o755 });
    fs.mkdirSync(artifacts);
    emulator = await startTestEmulator({ timeScale: 0 });
    // The key comes from the workflow's secret (RIMUHOSTING_APIKEY), as the page has it: not in the stacks' config.
    const create = (name: string, vpss: Record<string, unknown>) =>
      CliStack.create({
        programDir: PROGRAM,
        stackName: name,
        backendDir,
        config: { "rimuhosting:baseUrl": emulator.baseUrl, vpss: JSON.stringify(vpss) },
        env: { RIMUHOSTING_APIKEY: DEMO_API_KEY },
        // The workflow's jobs run on these stacks as a user's CI does: keyed by the passphrase it sets.
        keys: "passphrase",
      });
    stacks.prod = await create("prod", { web: vps(1024) });
    await stacks.prod.up();
    stacks.staging = await create("staging", { api: vps(1024) });
  });
  afterAll(async () => {
    // The job writes its bills beside the program, as in a checkout.
    for (const dir of ["bills", "bills-main"])
      fs.rmSync(path.join(PROGRAM, dir), { recursive: true, force: true });
    for (const stack of Object.values(stacks)) stack?.close();
    await emulator?.close();
    scratch.cleanup();
  });

  /** One job of the bill workflow, in the runner's environment (the same for both jobs). */
  function runJob(name: string, apiUrl: string) {
    // The harness's part: offlineCliEnv without the backend and passphrase, which the workflow sets itself.
    const {
      PULUMI_BACKEND_URL: backendUrl,
      PULUMI_CONFIG_PASSPHRASE: _,
      ...harness
    } = offlineCliEnv(backendDir);
    return runWorkflowJob("docs/ci.md#bill-workflow", name, {
      cwd: PROGRAM,
      scratch: scratch.dir,
      context: {
        secrets: {
          PULUMI_CONFIG_PASSPHRASE: "",
          RIMUHOSTING_APIKEY: DEMO_API_KEY,
          AWS_ACCESS_KEY_ID: "",
          AWS_SECRET_ACCESS_KEY: "",
        },
        github: { token: STAND_IN_TOKEN, event: { pull_request: { number: STAND_IN_PR } } },
      },
      runnerEnv: {
        ...userEnv("docs/ci.md", {}, harness, [bin]),
        // What GitHub's runner sets for every step.
        GITHUB_API_URL: apiUrl,
        GITHUB_REPOSITORY: STAND_IN_REPO,
        // Where the gh stand-in keeps main's artifact.
        GH_ARTIFACTS: artifacts,
      },
      // The page's S3 bucket: this test's file backend instead.
      replaceEnv: { PULUMI_BACKEND_URL: backendUrl! },
      // The stacks' names carry a random suffix, as every CliStack's (CliStack.create).
      editScript: (script) =>
        script.replace(/\bprod\b/g, stacks.prod!.name).replace(/\bstaging\b/g, stacks.staging!.name),
      skip: (step) =>
        step.run === "npm ci" ? "the program uses the checkout's package, built by the harness" : undefined,
    });
  }
  /** What each step did (and printed). */
  const describeRun = (job: JobRun) =>
    job.steps.map((s) => `${s.name}: ${s.how}${s.how === "ran" ? ` (exit ${s.code})\n${s.output}` : ""}`);

  test("each stack's bill is posted as its comment, and the job passes", async () => {
    const comments: Comment[] = [];
    const github = await serveGitHubStandIn(comments);
    try {
      // main's push: its bills as data, kept as the artifact (the upload is a `uses:` step: copied here).
      const main = await runJob("main-bills", github.apiUrl);
      expect(main.failed ? describeRun(main) : []).toEqual([]);
      fs.renameSync(path.join(PROGRAM, "bills-main"), path.join(artifacts, "bills-main"));
      expect(fs.readdirSync(path.join(artifacts, "bills-main")).sort()).toEqual(
        [stacks.prod!, stacks.staging!].map((stack) => `bill.${stack.name}.json`).sort(),
      );
      // The pull request: prod's VPS grows.
      await stacks.prod!.setConfig("vpss", { value: JSON.stringify({ web: vps(2048) }) });
      const job = await runJob("bill", github.apiUrl);
      // On failure, what each step did (and printed) is the message.
      expect(job.failed ? describeRun(job) : []).toEqual([]);
      expect(fs.readFileSync(path.join(artifacts, "calls"), "utf8")).toBe(
        "run list --workflow bill.yml --branch main --event push --status success --limit 1 --json databaseId " +
          `--jq .[0].databaseId // empty\nrun download ${MAIN_RUN} --name bills-main --dir bills-main\n`,
      );
      const marker = (stack: CliStack) => `<!-- rimuhosting-bill: bill/${stack.name} -->\n`;
      expect(comments.map((c) => c.body.split("\n")[0] + "\n")).toEqual(
        expect.arrayContaining([marker(stacks.prod!), marker(stacks.staging!)]),
      );
      expect(comments).toHaveLength(2);
      const body = (stack: CliStack) => comments.find((c) => c.body.startsWith(marker(stack)))!.body;
      expect(body(stacks.prod!)).toMatch(
        /\| `web` \| resize: memoryMb 1024 → 2048 \| \$\d+\.\d\d \| \$\d+\.\d\d \|/,
      );
      expect(body(stacks.staging!)).toMatch(/\| `api` \| create \| — \| \$\d+\.\d\d \|/);
      // Each compared with main's bill of its stack: prod's resize is the difference; staging's is none.
      const preview = body(stacks.prod!).split("**Against the baseline**")[0]!;
      const [, before, after, change] = billTableRows(preview).get("web")!;
      expect(body(stacks.prod!)).toContain(
        `**Against the baseline** (\`bills-main/bill.${stacks.prod!.name}.json\`): ${change} a month ▲.\n\n` +
          "| VPS | Baseline | This preview | Difference |\n| --- | ---: | ---: | ---: |\n" +
          `| \`web\` | ${before} | ${after} | ${change} |\n`,
      );
      expect(body(stacks.staging!)).toContain(
        `**Against the baseline** (\`bills-main/bill.${stacks.staging!.name}.json\`): no difference in the monthly fees.`,
      );
      for (const c of comments) expect(job.summary).toContain(c.body);
      // The failing step's condition did not hold: it is the last, and skipped.
      expect(job.steps.at(-1)!.how).toMatch(/^skipped: if: /);
      // Nothing was ordered: the bill comes from previews.
      expect(emulator.snapshot().filter((o) => !o.cancelled)).toHaveLength(1);
    } finally {
      await github.close();
    }
  });
});
