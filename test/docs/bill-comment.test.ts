/**
 * The step of docs/ci.md's bill workflow that posts the bill as one pull-request comment, run as GitHub runs it
 * (bash -eo pipefail, with curl and jq) against a stand-in for the three calls it makes to GitHub's REST API, on
 * 127.0.0.1: list a pull request's comments (100 a page), create one, update one. The first run posts the
 * comment; later runs update that same comment, found by its hidden first line on whatever page it is; comments
 * of people, even one quoting the marker, are never touched.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { parse } from "yaml";
import { BILL_MARKER } from "../../provider/bill/markdown";
import { recipe } from "./support/code-blocks";
import { scratchDir } from "../package/support/offline-project";

interface Comment {
  id: number;
  body: string;
  user: { login: string; type: "User" | "Bot" };
}

const REPO = "acme/infra";
const PR = 7;
const TOKEN = "ghs_not-a-real-token";

/** GitHub's comment endpoints for one pull request, in memory; every request's method and path is kept. */
function gitHubStandIn(comments: Comment[]) {
  const requests: string[] = [];
  let nextId = 1000;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const url = new URL(req.url!, "http://localhost");
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return reply(401, { message: "Bad credentials" });
      const list = `/repos/${REPO}/issues/${PR}/comments`;
      const one = new RegExp(`^/repos/${REPO}/issues/comments/(\\d+)$`).exec(url.pathname);
      if (req.method === "GET" && url.pathname === list) {
        const perPage = Number(url.searchParams.get("per_page") ?? 30);
        const page = Number(url.searchParams.get("page") ?? 1);
        return reply(200, comments.slice((page - 1) * perPage, page * perPage));
      }
      if (req.method === "POST" && url.pathname === list) {
        const created: Comment = {
          id: nextId++,
          body: (JSON.parse(body) as { body: string }).body,
          user: { login: "github-actions[bot]", type: "Bot" },
        };
        comments.push(created);
        return reply(201, created);
      }
      if (req.method === "PATCH" && one) {
        const found = comments.find((c) => c.id === Number(one[1]));
        if (!found) return reply(404, { message: "Not Found" });
        found.body = (JSON.parse(body) as { body: string }).body;
        return reply(200, found);
      }
      reply(404, { message: "Not Found" });
    });
  });
  return { server, requests };
}

/** The workflow's step that posts the comment: its shell script. */
function postStep(): string {
  const workflow = parse(recipe("docs/ci.md#bill-workflow")) as {
    jobs: { bill: { steps: { name?: string; run?: string }[] } };
  };
  const step = workflow.jobs.bill.steps.find((s) => s.name === "Post the bill, or update its comment");
  if (!step?.run)
    throw new Error("docs/ci.md's bill workflow has no step named 'Post the bill, or update its comment'");
  return step.run;
}

/** Runs the step in `dir` (holding bill.md) as GitHub's runner would, against the stand-in. */
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

describe("docs/ci.md's bill workflow: the comment", () => {
  const scratch = scratchDir("bill-comment");
  afterAll(() => scratch.cleanup());

  test("posted once, then updated in place on a later page; people's comments untouched", async () => {
    // 150 comments of people first (the bill's lands on page 2), one of them quoting the marker.
    const comments: Comment[] = Array.from({ length: 150 }, (_, i) => ({
      id: i + 1,
      body: i === 42 ? `${BILL_MARKER}\nI copied the bill here.` : `comment ${i + 1}`,
      user: { login: "someone", type: "User" },
    }));
    const { server, requests } = gitHubStandIn(comments);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = `${BILL_MARKER}\n### RimuHosting bill\n\n| a | \`b\` | "c" |\n`;
      fs.writeFileSync(path.join(scratch.dir, "bill.md"), first);
      expect(await runStep(scratch.dir, apiUrl)).toEqual({ code: 0, output: "" });
      const bills = () => comments.filter((c) => c.user.type === "Bot");
      expect(bills()).toEqual([
        { id: 1000, body: first, user: { login: "github-actions[bot]", type: "Bot" } },
      ]);
      expect(requests.filter((r) => !r.startsWith("GET"))).toEqual([
        `POST /repos/${REPO}/issues/${PR}/comments`,
      ]);

      requests.length = 0;
      const second = `${BILL_MARKER}\n### RimuHosting bill, after another push\n`;
      fs.writeFileSync(path.join(scratch.dir, "bill.md"), second);
      expect(await runStep(scratch.dir, apiUrl)).toEqual({ code: 0, output: "" });
      expect(bills()).toEqual([
        { id: 1000, body: second, user: { login: "github-actions[bot]", type: "Bot" } },
      ]);
      expect(requests).toEqual([
        `GET /repos/${REPO}/issues/${PR}/comments?per_page=100&page=1`,
        `GET /repos/${REPO}/issues/${PR}/comments?per_page=100&page=2`,
        `PATCH /repos/${REPO}/issues/comments/1000`,
      ]);
      expect(comments[42]!.body).toBe(`${BILL_MARKER}\nI copied the bill here.`);
      expect(comments).toHaveLength(151);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("a refused call fails the step (curl -f), instead of passing with no comment", async () => {
    const { server } = gitHubStandIn([]);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      fs.writeFileSync(path.join(scratch.dir, "bill.md"), `${BILL_MARKER}\n`);
      const run = await runStep(scratch.dir, apiUrl.replace(/:(\d+)$/, ":$1/wrong"));
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(/404/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
