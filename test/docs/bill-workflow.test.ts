/**
 * docs/ci.md's bill workflow, the whole job, as GitHub's runner runs it (support/workflow-job.ts): through the real
 * CLI against the emulator, posting to a stand-in for GitHub's API on 127.0.0.1 (support/github-stand-in.ts), in a
 * clean environment: what the workflow sets, the runner's GITHUB_* variables, and the harness's HARNESS_ENV
 * (support/user-env.ts), nothing of this test's own process. So a step that works only with a variable the page
 * does not set (PULUMI_DEBUG_COMMANDS for `--event-log`) fails here as it fails for users.
 *
 * Two stacks of one project: prod resizes its VPS, staging creates one. Each gets its bill, as one comment each.
 */
import * as fs from "node:fs";
import * as path from "node:path";
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
import { runWorkflowJob } from "./support/workflow-job";

jest.setTimeout(600_000);

const PROGRAM = path.join(REPO_ROOT, "test/engine/fixtures/bill");
const vps = (memoryMb: number) => ({ memoryMb, dcLocation: "DCDALLAS" });

describeCliOnly("docs/ci.md's bill workflow, end to end", () => {
  const scratch = scratchDir("bill-workflow");
  const backendDir = path.join(scratch.dir, "backend");
  const bin = path.join(scratch.dir, "bin");
  let emulator: TestEmulator;
  const stacks: Record<"prod" | "staging", CliStack | undefined> = { prod: undefined, staging: undefined };

  beforeAll(async () => {
    writeNpxStandIn(bin);
    emulator = await startTestEmulator({ timeScale: 0 });
    // The key comes from the workflow's secret (RIMUHOSTING_APIKEY), as the page has it: not in the stacks' config.
    const create = (name: string, vpss: Record<string, unknown>) =>
      CliStack.create({
        programDir: PROGRAM,
        stackName: name,
        backendDir,
        config: { "rimuhosting:baseUrl": emulator.baseUrl, vpss: JSON.stringify(vpss) },
        env: { RIMUHOSTING_APIKEY: DEMO_API_KEY },
      });
    stacks.prod = await create("prod", { web: vps(1024) });
    await stacks.prod.up();
    await stacks.prod.setConfig("vpss", { value: JSON.stringify({ web: vps(2048) }) });
    stacks.staging = await create("staging", { api: vps(1024) });
  });
  afterAll(async () => {
    // The job writes its bills beside the program, as in a checkout.
    fs.rmSync(path.join(PROGRAM, "bills"), { recursive: true, force: true });
    for (const stack of Object.values(stacks)) stack?.close();
    await emulator?.close();
    scratch.cleanup();
  });

  test("each stack's bill is posted as its comment, and the job passes", async () => {
    const comments: Comment[] = [];
    const github = await serveGitHubStandIn(comments);
    try {
      // The harness's part: offlineCliEnv without the backend and passphrase, which the workflow sets itself.
      const {
        PULUMI_BACKEND_URL: backendUrl,
        PULUMI_CONFIG_PASSPHRASE: _,
        ...harness
      } = offlineCliEnv(backendDir);
      const job = await runWorkflowJob("docs/ci.md#bill-workflow", "bill", {
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
          GITHUB_API_URL: github.apiUrl,
          GITHUB_REPOSITORY: STAND_IN_REPO,
        },
        // The page's S3 bucket: this test's file backend instead.
        replaceEnv: { PULUMI_BACKEND_URL: backendUrl! },
        // The stacks' names carry a random suffix, as every CliStack's (CliStack.create).
        editScript: (script) =>
          script.replace(/\bprod\b/g, stacks.prod!.name).replace(/\bstaging\b/g, stacks.staging!.name),
        skip: (step) =>
          step.run === "npm ci" ? "the program uses the checkout's package, built by the harness" : undefined,
      });
      const ran = job.steps.map(
        (s) => `${s.name}: ${s.how}${s.how === "ran" ? ` (exit ${s.code})\n${s.output}` : ""}`,
      );
      // On failure, what each step did (and printed) is the message.
      expect(job.failed ? ran : []).toEqual([]);
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
