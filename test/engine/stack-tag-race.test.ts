// The stack's own tag set by two runs at once (provider/impl/ownership/stack-identity.ts, "Who sets the tag"): two
// processes of one machine, as the two providers of a stack's first `pulumi up` are, each read the identity of a
// stack that has no tag yet, to mark an order. Each holds open the window between reading no tag and setting one
// (readStackIdentity's beforeTagSet) in the order that lost the race before the machine's lock: B has read no tag
// when A sets its own, and B sets its own after A read A's back. Both must mark with one value, the backend's; so
// must two runs' first orders, which set the tag beside their records (backend-reader.ts: setOrderTags), and both
// records stay. And a read to judge (a check, a preview's too) never sets the tag: `pulumi preview` takes no update
// lock, so it may run on another machine beside an `up`. Through the real CLI on a file backend; the reads run from
// dist/.
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { offlineCliEnv } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";
import { scaledMs } from "../helpers/deadlines";
import { RUN_TAG_PREFIX } from "../../provider/impl/ownership/run-records";
import { readStackIdentity, STACK_TAG } from "../../provider/impl/ownership/stack-identity";

jest.setTimeout(120_000);

const BUILT = path.resolve(__dirname, "../../dist/provider/impl/ownership");

/**
 * One process: the identity of stack `dev`, read to mark (`identity`: stack-identity.ts) or set with the run `me`'s
 * record (`order-tags`: a run's first order, backend-reader.ts: setOrderTags); its window held open until `waitFor`
 * exists (or `waitMs`), after writing `<me>.at-set`; the identity printed and written to `<me>.done`.
 */
const READER = `
const fs = require("node:fs");
const path = require("node:path");
const [built, how, me, waitFor, waitMs] = process.argv.slice(1);
const beforeTagSet = async () => {
  fs.writeFileSync(me + ".at-set", "");
  const until = Date.now() + Number(waitMs);
  while (!fs.existsSync(waitFor) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
};
const scope = { project: "shop", stack: "dev" };
const id = path.basename(me).padEnd(16, "0");
const record = { id, record: { at: Date.now(), checkpoints: true }, finishedRead: Promise.resolve([]) };
const read = how === "identity"
  ? require(built + "/stack-identity.js").readStackIdentity(scope, { beforeTagSet }, "mark")
  : require(built + "/backend-reader.js").setOrderTags(scope, record, { beforeTagSet }).then((both) => both.identity);
read.then((identity) => {
  fs.writeFileSync(me + ".done", JSON.stringify(identity));
  process.stdout.write(JSON.stringify(identity));
});
`;

describeCliOnly("a stack's tag read by two processes at once", () => {
  let base = "";
  let project = "";
  let env: NodeJS.ProcessEnv = {};
  const pulumi = (...args: string[]) =>
    execFileSync("pulumi", args, { cwd: project, env, encoding: "utf8", stdio: "pipe" });
  const tags = () => JSON.parse(pulumi("stack", "tag", "ls", "--json")) as Record<string, string>;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "stack-tag-race-"));
    project = path.join(base, "shop");
    const backend = path.join(base, "backend");
    fs.mkdirSync(project);
    fs.mkdirSync(backend);
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
    env = { ...process.env, ...offlineCliEnv(backend) };
    pulumi("stack", "init", "dev");
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const reader = (how: "identity" | "order-tags", me: string, waitFor: string, waitMs: number) =>
    new Promise<string>((done, fail) =>
      execFile(
        process.execPath,
        ["-e", READER, BUILT, how, path.join(base, me), path.join(base, waitFor), String(waitMs)],
        { cwd: project, env, encoding: "utf8" },
        (error, stdout, stderr) => (error ? fail(new Error(`${me}: ${stderr}`)) : done(stdout)),
      ),
    );

  test.each(["identity", "order-tags"] as const)(
    "to mark (%s): the second finds the first's tag and sets none; both mark with the one the backend keeps",
    async (how) => {
      // Without the lock, A waits only until B has read no tag, and B until A has its mark: two marks. With it, the
      // first holder waits its full window (the other waits on the lock, never reaching its own) and then sets.
      const window = scaledMs(2_500);
      const [a, b] = await Promise.all([
        reader(how, "a", "b.at-set", window),
        reader(how, "b", "a.done", window),
      ]);
      const marks = [a, b].map((out) => JSON.parse(out) as { mark?: string; unread?: string });
      expect(marks[0]).toEqual({ mark: expect.stringMatching(/^id3-[0-9a-f]{32}$/) });
      expect(marks[1]).toEqual(marks[0]);
      // One of them set the tag; the other found it set when it held the lock, and never reached the window.
      expect(["a", "b"].filter((me) => fs.existsSync(path.join(base, `${me}.at-set`)))).toHaveLength(1);
      const kept = await readStackIdentity({ project: "shop", stack: "dev" }, { cwd: project, env });
      expect(kept).toEqual(marks[0]);
      // Set with the stack's tag, each run's record is kept: each `tag set` rewrote the whole tags file, under the lock.
      const records = Object.keys(tags()).filter((name) => name.startsWith(RUN_TAG_PREFIX));
      const runs = how === "order-tags" ? ["a", "b"] : [];
      expect(records.sort()).toEqual(runs.map((me) => `${RUN_TAG_PREFIX}${me.padEnd(16, "0")}`));
    },
  );

  test("to judge: a stack without the tag has none yet, and the read leaves it without one", async () => {
    const judged = await readStackIdentity({ project: "shop", stack: "dev" }, { cwd: project, env }, "judge");
    expect(judged).toEqual({
      none: true,
      unread: `its tag ${STACK_TAG} is not set yet, so no run has marked an order with its identity`,
    });
    expect(tags()[STACK_TAG]).toBeUndefined();
  });
});
