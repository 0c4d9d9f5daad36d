/**
 * docs/ci.md's bill workflow and docs/cost.md's example bill. The step that posts the bills, one comment per stack,
 * is run as GitHub runs it (bash -eo pipefail, with curl and jq) against a stand-in for the three calls it makes to
 * GitHub's REST API, on 127.0.0.1: list a pull request's comments (100 a page), create one, update one. Each stack's
 * first bill posts its comment; later ones update that same comment, found by the stack's hidden first line on
 * whatever page it is; a quiet bill updates a comment but starts none; comments of people, even one quoting a
 * marker, are never touched. The way docs/ci.md finds the plugin is run on a plugin folder as Pulumi leaves it.
 * The example bill in docs/cost.md is the one the code renders for its preview, word for word.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { billOf } from "../../provider/bill/bill";
import { parsePreviewLog } from "../../provider/bill/event-log";
import { judgeThresholds } from "../../provider/bill/judge";
import { billDocument, renderJson } from "../../provider/bill/bill-json";
import { compareBills, parseBaseline } from "../../provider/bill/compare";
import { changeOf, QUIET_MARKER, renderBill } from "../../provider/bill/markdown";
import { outcomeOf } from "../../provider/bill/outcome";
import {
  accountLine,
  diagnostic,
  policy,
  previewLog,
  resized,
  vpsLog,
  vpsStep,
} from "../helpers/preview-log";
import { recipe } from "./support/code-blocks";
import {
  serveGitHubStandIn,
  STAND_IN_PR,
  STAND_IN_REPO,
  STAND_IN_TOKEN,
  type Comment,
} from "./support/github-stand-in";
import { scratchDir } from "../package/support/offline-project";
import { userEnv } from "./support/user-env";

const REPO = STAND_IN_REPO;
const PR = STAND_IN_PR;
const TOKEN = STAND_IN_TOKEN;

/** The workflow's step that posts the comment: its shell script. */
function postStep(): string {
  const workflow = parse(recipe("docs/ci.md#bill-workflow")) as {
    jobs: { bill: { steps: { name?: string; run?: string }[] } };
  };
  const name = "Post each stack's bill, or update its comment";
  const step = workflow.jobs.bill.steps.find((s) => s.name === name);
  if (!step?.run) throw new Error(`docs/ci.md's bill workflow has no step named '${name}'`);
  return step.run;
}

/** Runs the step in `dir` (holding bills/) as GitHub's runner would, against the stand-in. */
function runStep(dir: string, apiUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", postStep()], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        GITHUB_API_URL: apiUrl,
        GITHUB_REPOSITORY: REPO,
        GITHUB_TOKEN: TOKEN,
        PR: String(PR),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

const PROD = "<!-- rimuhosting-bill: shop/prod -->";
const STAGING = "<!-- rimuhosting-bill: shop/staging -->";

describe("docs/ci.md's bill workflow: the comments", () => {
  const scratch = scratchDir("bill-comment");
  afterAll(() => scratch.cleanup());
  const bills = path.join(scratch.dir, "bills");
  /** Writes the bills of this run: file name → body. */
  const writeBills = (files: Record<string, string>) => {
    fs.rmSync(bills, { recursive: true, force: true });
    fs.mkdirSync(bills);
    for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(bills, name), body);
  };
  const serve = serveGitHubStandIn;
  const bot = (id: number, body: string): Comment => ({
    id,
    body,
    user: { login: "github-actions[bot]", type: "Bot" },
  });

  test("one comment per stack, posted once, then updated in place on a later page; people's untouched", async () => {
    // 150 comments of people first (the bills land on page 2), one of them quoting a marker.
    const comments: Comment[] = Array.from({ length: 150 }, (_, i) => ({
      id: i + 1,
      body: i === 42 ? `${PROD}\nI copied the bill here.` : `comment ${i + 1}`,
      user: { login: "someone", type: "User" },
    }));
    const { close, requests, apiUrl } = await serve(comments);
    try {
      const [prod, staging] = [`${PROD}\n### prod\n\n| a | \`b\` | "c" |\n`, `${STAGING}\n### staging\n`];
      writeBills({ "shop.prod.md": prod, "shop.staging.md": staging });
      expect(await runStep(scratch.dir, apiUrl)).toEqual({ code: 0, output: "" });
      const posted = () => comments.filter((c) => c.user.type === "Bot");
      expect(posted()).toEqual([bot(1000, prod), bot(1001, staging)]);

      requests.length = 0;
      const [prod2, staging2] = [
        `${PROD}\n### prod, after another push\n`,
        `${STAGING}\n### staging, again\n`,
      ];
      writeBills({ "shop.prod.md": prod2, "shop.staging.md": staging2 });
      expect(await runStep(scratch.dir, apiUrl)).toEqual({ code: 0, output: "" });
      expect(posted()).toEqual([bot(1000, prod2), bot(1001, staging2)]);
      expect(requests.filter((r) => !r.startsWith("GET"))).toEqual([
        `PATCH /repos/${REPO}/issues/comments/1000`,
        `PATCH /repos/${REPO}/issues/comments/1001`,
      ]);
      expect(comments[42]!.body).toBe(`${PROD}\nI copied the bill here.`);
      expect(comments).toHaveLength(152);
    } finally {
      await close();
    }
  });

  test("a quiet bill updates its stack's comment, and starts none", async () => {
    const comments: Comment[] = [bot(7, `${PROD}\n### prod, before\n`)];
    const { close, requests, apiUrl } = await serve(comments);
    try {
      const quiet = (marker: string) => `${marker}\n${QUIET_MARKER}\nRimuHosting bill: quiet.\n`;
      writeBills({ "shop.prod.md": quiet(PROD), "shop.staging.md": quiet(STAGING) });
      expect(await runStep(scratch.dir, apiUrl)).toEqual({ code: 0, output: "" });
      expect(comments).toEqual([bot(7, quiet(PROD))]);
      expect(requests.filter((r) => !r.startsWith("GET"))).toEqual([
        `PATCH /repos/${REPO}/issues/comments/7`,
      ]);
    } finally {
      await close();
    }
  });

  test("a refused call fails the step (curl -f), instead of passing with no comment", async () => {
    const { close, apiUrl } = await serve([]);
    try {
      writeBills({ "shop.prod.md": `${PROD}\n` });
      const run = await runStep(scratch.dir, apiUrl.replace(/:(\d+)$/, ":$1/wrong"));
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(/404/);
    } finally {
      await close();
    }
  });

  test("the plugin is found in Pulumi's plugin folder: a directory, the newest version, never a .lock file", () => {
    const home = path.join(scratch.dir, "pulumi-home");
    for (const dir of [
      "resource-rimuhosting-v0.9.0",
      "resource-rimuhosting-v0.10.0",
      "resource-other-v9.0.0",
    ])
      fs.mkdirSync(path.join(home, "plugins", dir), { recursive: true });
    for (const file of ["resource-rimuhosting-v0.10.0.lock", "resource-rimuhosting-v0.9.0.lock"])
      fs.writeFileSync(path.join(home, "plugins", file), "");
    const found = spawnSync(
      "bash",
      ["--noprofile", "--norc", "-eo", "pipefail", "-c", `${recipe("docs/ci.md#plugin-path")}echo "$plugin"`],
      {
        env: userEnv("docs/ci.md", {}, { PULUMI_HOME: home, HOME: scratch.dir }),
        encoding: "utf8",
      },
    );
    expect(found.stderr).toBe("");
    expect(found.stdout).toBe(`${home}/plugins/resource-rimuhosting-v0.10.0/pulumi-resource-rimuhosting\n`);
  });
});

/** The preview of docs/cost.md's example: a resize beside an unchanged VPS, a budget, an advisory finding. */
const EXAMPLE = previewLog(
  { "rimuhosting:monthlyBudgetUsd": "60" },
  [
    vpsStep(resized(10, 16)),
    vpsStep({ name: "db", op: "same", fee: 30, planned: 30 }),
    diagnostic("info", "web: resize 1024 → 2048 MB: $10.00 → $16.00 a month (+$6.00)", "web"),
    // The provider's line of the account's totals: another stack's $10.00 order is on the account too.
    accountLine("web", { before: 50, after: 56, count: 2, budget: 60 }),
    policy(
      "max-memory-mb",
      "advisory",
      'VPS "web" has 2048 MB of memory (memoryMb), over the limit of 1024 MB.',
      "web",
    ),
  ],
  { packs: true },
);

describe("docs/cost.md's example bill", () => {
  test("is the bill the code renders for its preview, with --warn-over 10%", () => {
    const bill = billOf(parsePreviewLog(EXAMPLE, "example.events"));
    const thresholds = judgeThresholds(changeOf(bill), { warn: [{ percent: 10 }], fail: [] });
    expect(recipe("docs/cost.md#bill-example")).toBe(renderBill(bill, { thresholds }));
  });

  test("as data, compared with main's bill, is what the code renders; its comparison's Markdown too", () => {
    const bill = billOf(parsePreviewLog(EXAMPLE, "example.events"));
    const limits = { warn: [{ percent: 10 }], fail: [], quiet: [] };
    // Main's bill: the same stack, `web` not yet resized.
    const mainLog = vpsLog([
      { name: "web", op: "same", fee: 10, planned: 10, old: { memoryMb: 1024 } },
      { name: "db", op: "same", fee: 30, planned: 30 },
    ]);
    const main = billOf(parsePreviewLog(mainLog, "main.events"));
    const baseline = parseBaseline(
      renderJson(billDocument(main, outcomeOf(main, limits))),
      "bills-main/shop.prod.json",
    );
    const comparison = compareBills(bill, baseline);
    // As data: the page's JSON (laid out by Prettier) holds what the code renders.
    expect(JSON.parse(recipe("docs/cost.md#bill-json-example"))).toEqual(
      JSON.parse(renderJson(billDocument(bill, outcomeOf(bill, limits), comparison))),
    );
    expect(renderBill(bill, { comparison })).toContain(recipe("docs/cost.md#compare-example"));
  });
});
