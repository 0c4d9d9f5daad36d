// A run record read against a long history (provider/impl/ownership/run-records.ts): whether the run it names
// finished is told by the stack's operations, and the CLI's `pulumi stack history --json` lists only the newest 10
// unless told otherwise. A run that finished 11 operations ago must still read as finished (its VPS left the state on
// purpose: never cancelled), and a record written now counts every operation before it. Through the real CLI on a
// file backend, a program with no resource.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  readRunRecords,
  runFinished,
  RUN_TAG_PREFIX,
  writeRunRecord,
} from "../../provider/impl/ownership/run-records";
import { findPulumiCli, offlineCliEnv } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";

jest.setTimeout(180_000);

describeCliOnly("run records against a history of more than 10 operations", () => {
  let base = "";
  let project = "";
  let env: NodeJS.ProcessEnv = {};
  const scope = { project: "shop", stack: "dev" };
  const pulumi = (...args: string[]) =>
    execFileSync(findPulumiCli().path!, args, { cwd: project, env, encoding: "utf8" });

  beforeAll(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "run-history-"));
    project = path.join(base, "shop");
    fs.mkdirSync(project);
    fs.mkdirSync(path.join(base, "backend"));
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: shop\nruntime: yaml\noutputs:\n  n: 1\n");
    env = { ...process.env, ...offlineCliEnv(path.join(base, "backend")) };
    pulumi("stack", "init", "dev");
  });
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  test("a run that finished 12 operations ago reads as finished; a record written now counts all 12", async () => {
    pulumi("up", "--yes", "--skip-preview");
    // The first operation's run: its record written during it (its start, no operation before it).
    const [first] = JSON.parse(pulumi("stack", "history", "--json")) as { startTime: string }[];
    pulumi("stack", "tag", "set", `${RUN_TAG_PREFIX}first`, `${Date.parse(first!.startTime)} skip 0`);
    for (let i = 0; i < 11; i++) pulumi("up", "--yes", "--skip-preview");
    const records = await readRunRecords(scope, { cwd: project, env });
    if ("unread" in records) throw new Error(records.unread);
    expect(records.finished).toHaveLength(12);
    expect(runFinished(records, records.runs.get("first")!)).toBe(true);
    const written = await writeRunRecord(
      scope,
      "now",
      { at: Date.now(), checkpoints: false },
      "run-history",
      {
        cwd: project,
        env,
      },
    );
    expect(written).toEqual({ written: true });
    const tags = JSON.parse(pulumi("stack", "tag", "ls", "--json")) as Record<string, string>;
    expect(tags[`${RUN_TAG_PREFIX}now`]).toMatch(/^\d+ skip 12$/);
  });
});
