/**
 * The plan the providers of one engine run share (provider/impl/account/shared-plan.ts; docs/cost.md, "Several
 * providers"; issue 64 case 6), across real processes as the engine starts them:
 *
 * - a program with the dynamic `Vps` and an explicit provider of the native plugin: the engine starts the dynamic
 *   host through `sh` (pulumi-resource-pulumi-nodejs is a shell script) and the native plugin itself, so their parents
 *   differ; both are given the engine's address, which keys the plan: each sees the other's checked fee;
 * - providers writing at once: every entry kept (each is one line appended in one write), none lost to another's write.
 *
 * The children load the compiled provider (dist/, `npm run build`), as the engine's processes do.
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { planDirectory } from "../../provider/impl/account/plan-files";

const DIST = path.resolve(__dirname, "../../dist");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "shared-plan-"));
const account = `account-${randomBytes(8).toString("hex")}`;
/** An engine address of this test's own (no engine listens there: the plan's key only). */
const engine = `127.0.0.1:${20000 + (randomBytes(2).readUInt16BE() % 40000)}`;
const planFile = path.join(
  planDirectory(),
  `pulumi-rimuhosting-plan-${createHash("sha256").update(`engine ${engine}\n${account}`).digest("hex").slice(0, 32)}.jsonl`,
);

/**
 * A provider process: records its VPSs' fees ($1 each) in the plan of `account`, then, with `waitFor`, reads the
 * plan until another provider's entries show (at most 10 s) and prints the fees it sees of others.
 */
const CHILD = `
const dist = process.env.PLAN_DIST;
const { RunContext } = require(dist + "/provider/impl/engine/run-context.js");
const { SharedPlan } = require(dist + "/provider/impl/account/shared-plan.js");
// The native plugin's run is given its engine's address; the dynamic host's is its first argument.
const plan = SharedPlan.forAccount(process.env.PLAN_ACCOUNT, new RunContext(undefined, { engine: process.env.PLAN_NATIVE }));
const names = JSON.parse(process.env.PLAN_NAMES);
for (const name of names) plan.record(name, { name, after: { cents: 100 } });
const until = Date.now() + 10000;
const poll = () => {
  const others = plan.others(new Set(names)).map((fee) => fee.name);
  if (process.env.PLAN_WAIT !== "1" || others.length > 0 || Date.now() > until) {
    console.log(JSON.stringify({ ppid: process.ppid, others }));
    // Alive until the test ends its input, as a provider lives for its whole run: a plan leaves out the entries of
    // a writer that has exited, so one that exited early would hide its entry from the other.
    if (process.env.PLAN_WAIT === "1") process.stdin.resume();
    return;
  }
  setTimeout(poll, 20);
};
poll();
`;

interface Answer {
  ppid: number;
  others: string[];
}

/**
 * Starts a provider; `dynamic`: as the dynamic-provider host, under `sh`, from a script at .../cmd/dynamic-provider/.
 * Its answer is its first line; with `wait` it then stays alive until `end()`, as a provider lives for its whole run.
 */
function provider(
  names: string[],
  front: "dynamic" | "native",
  wait: boolean,
  extraEnv: Record<string, string> = {},
): { answer: Promise<Answer>; end(): void } {
  const dir = path.join(scratch, front === "dynamic" ? "cmd/dynamic-provider" : `native-${names[0]}`);
  fs.mkdirSync(dir, { recursive: true });
  const script = path.join(dir, "index.js");
  fs.writeFileSync(script, CHILD);
  const env = {
    ...process.env,
    PLAN_DIST: DIST,
    PLAN_ACCOUNT: account,
    PLAN_NAMES: JSON.stringify(names),
    PLAN_WAIT: wait ? "1" : "0",
    ...(front === "native" ? { PLAN_NATIVE: engine } : {}),
    ...extraEnv,
  };
  // As pulumi-resource-pulumi-nodejs does: sh stays the parent of node (the `if` keeps it from exec'ing node).
  const child =
    front === "dynamic"
      ? spawn("sh", ["-c", 'if true; then node "$0" "$1"; fi', script, engine], { env })
      : spawn(process.execPath, [script, engine], { env });
  let out = "";
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const answer = new Promise<Answer>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(JSON.parse(out) as Answer);
    });
    child.on("close", (code) => reject(new Error(`provider exited ${code} before answering: ${err}`)));
  });
  if (!wait) child.stdin.end();
  return {
    answer,
    end: () => child.stdin.end(),
  };
}

afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(planFile, { force: true });
});

describe("the plan of one engine run, shared by its providers", () => {
  it("the dynamic Vps's host (under sh) and a native plugin (the engine's child) see each other's checks", async () => {
    const running = [provider(["web"], "dynamic", true), provider(["db"], "native", true)] as const;
    const [dynamic, native] = await Promise.all([running[0].answer, running[1].answer]).finally(() =>
      running.forEach((p) => p.end()),
    );
    expect(dynamic.ppid).not.toBe(native.ppid); // their parents differ, as under the engine
    expect({ dynamic: dynamic.others, native: native.others }).toEqual({ dynamic: ["db"], native: ["web"] });
  });

  it("providers writing at once: every entry is kept (one line appended per write)", async () => {
    fs.rmSync(planFile, { force: true });
    const names = (p: number) => Array.from({ length: 60 }, (_, i) => `p${p}-vps-${i}`);
    await Promise.all([0, 1, 2, 3].map((p) => provider(names(p), "native", false).answer));
    const lines = fs.readFileSync(planFile, "utf8").split("\n").filter(Boolean);
    const keys = new Set(lines.map((line) => (JSON.parse(line) as { key: string }).key));
    expect({ lines: lines.length, keys: keys.size }).toEqual({ lines: 240, keys: 240 });
  });

  it("is kept in a directory of the user's own in the temporary directory (0700), not loose in it", async () => {
    // A machine running many commands leaves thousands of plans: whatever lists the temporary directory (the pulumi
    // CLI, for a project in it) would read each one.
    const tmp = fs.mkdtempSync(path.join(scratch, "tmp-"));
    await provider(["solo"], "native", false, { TMPDIR: tmp }).answer;
    const kept = `pulumi-rimuhosting-plans-${process.getuid?.() ?? "user"}`;
    expect(fs.readdirSync(tmp)).toEqual([kept]);
    expect(fs.statSync(path.join(tmp, kept)).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.join(tmp, kept)).filter((f) => f.endsWith(".jsonl"))).toHaveLength(1);
  });
});
