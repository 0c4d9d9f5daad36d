/**
 * The `pulumi` reads a run's first order waits for (provider/impl/ownership/new-order-marks.ts): the stack's identity
 * (`pulumi stack tag ls`) and the run's record, which counts the stack's finished operations (`pulumi stack history`)
 * before its tag is set. The history is read beside the identity, not after it: the first order waits one read less.
 * Through a stand-in `pulumi` that takes 300 ms a command and keeps the stack's tags in a file.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RunContext } from "../../../provider/impl/engine/run-context";
import { stackMarks } from "../../../provider/impl/ownership/new-order-marks";
import { RUN_RECORD_KEY, STACK_IDENTITY_KEY, STACK_TOKEN_KEY } from "../../../provider/client/metadata-keys";
import type { AccountView } from "../../../provider/impl/account/account-view";
import { noteOrderingOn } from "../../../provider/impl/ownership/record-pruning";
import { RUN_TAG_PREFIX } from "../../../provider/impl/ownership/run-records";
import { STACK_TAG, stackIdentityMark } from "../../../provider/impl/ownership/stack-identity";

/** The stand-in: logs each command's start and end (epoch ms), answers tag ls, tag set and history. */
const STAND_IN = `#!/usr/bin/env node
const fs = require("fs");
const [log, tags] = [process.env.STAND_IN_LOG, process.env.STAND_IN_TAGS];
const what = process.argv.slice(2, 4).join(" ") + (process.argv[4] === "ls" || process.argv[4] === "set" ? " " + process.argv[4] : "");
fs.appendFileSync(log, JSON.stringify({ what, at: Date.now(), end: false }) + "\\n");
setTimeout(() => {
  const held = fs.existsSync(tags) ? JSON.parse(fs.readFileSync(tags, "utf8")) : { "rimuhosting:instance": "0f1e2d3c" };
  if (what === "stack tag set") fs.writeFileSync(tags, JSON.stringify({ ...held, [process.argv[5]]: process.argv[6] }));
  else if (what === "stack tag ls") process.stdout.write(JSON.stringify(held));
  else if (what === "stack history") process.stdout.write("[]");
  else { process.stderr.write("not asked: " + process.argv.slice(2).join(" ")); process.exitCode = 1; }
  fs.appendFileSync(log, JSON.stringify({ what, at: Date.now(), end: true }) + "\\n");
}, 300);
`;

let dir: string;
const saved = { cwd: process.cwd(), path: process.env.PATH, log: process.env.STAND_IN_LOG };
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "marks-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
  fs.mkdirSync(path.join(dir, "bin"));
  fs.writeFileSync(path.join(dir, "bin", "pulumi"), STAND_IN, { mode: 0o755 });
  process.env.PATH = `${path.join(dir, "bin")}:${saved.path}`;
  process.env.STAND_IN_LOG = path.join(dir, "log");
  process.env.STAND_IN_TAGS = path.join(dir, "tags.json");
  process.chdir(dir);
});
afterEach(() => {
  process.chdir(saved.cwd);
  process.env.PATH = saved.path;
  delete process.env.STAND_IN_LOG;
  delete process.env.STAND_IN_TAGS;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The stand-in's log: each command's start and end. */
type Logged = { what: string; at: number; end: boolean };
const standInLog = (): Logged[] =>
  fs
    .readFileSync(path.join(dir, "log"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Logged);
/** When `what` first started (or ended). */
const first = (log: Logged[], what: string, end: boolean) =>
  log.find((e) => e.what === what && e.end === end)!.at;

it("a run's first order reads the stack's history beside its identity, and carries both marks", async () => {
  const said: string[] = [];
  const run = new RunContext("marks test", { engine: "127.0.0.1:1", log: (line) => said.push(line) });
  const marks = await stackMarks(run, "shop/dev/web", "web.example.com");
  expect(said).toEqual([]);
  expect(marks.map((m) => m.key_name)).toEqual([STACK_TOKEN_KEY, STACK_IDENTITY_KEY, RUN_RECORD_KEY]);
  const log = standInLog();
  // The history's read began before the identity's first tag ls ended.
  expect(first(log, "stack history", false)).toBeLessThan(first(log, "stack tag ls", true));
  expect(
    log
      .filter((e) => !e.end)
      .map((e) => e.what)
      .sort(),
  ).toEqual(["stack history", "stack tag ls", "stack tag ls", "stack tag set"].sort());
});

it("a stack's first order sets its tag and the run's record under one lock, read back once", async () => {
  // A stack with no tags yet: its tag is set before its first order, beside the run's record. The run names the
  // account it orders on, which shows no order: pruning (record-pruning.ts) has nothing to remove and runs no CLI.
  fs.writeFileSync(path.join(dir, "tags.json"), "{}");
  const run = new RunContext("marks test", { engine: "127.0.0.1:1", log: () => undefined });
  const account = { accountKey: "an account", activeOrders: () => Promise.resolve([]) };
  noteOrderingOn(run, account as unknown as AccountView);
  const marks = await stackMarks(run, "shop/dev/web", "web.example.com");
  expect(marks.map((m) => m.key_name)).toEqual([STACK_TOKEN_KEY, STACK_IDENTITY_KEY, RUN_RECORD_KEY]);
  const log = standInLog();
  // One read of the tags, the stack's tag and the record set, one read back; the history read beside the first.
  const started = log.filter((e) => !e.end).map((e) => e.what);
  expect([...started.slice(0, 2).sort(), ...started.slice(2)]).toEqual([
    ...["stack history", "stack tag ls"],
    ...["stack tag set", "stack tag set", "stack tag ls"],
  ]);
  expect(first(log, "stack history", false)).toBeLessThan(first(log, "stack tag ls", true));
  const tags = JSON.parse(fs.readFileSync(path.join(dir, "tags.json"), "utf8")) as Record<string, string>;
  const identity = marks.find((m) => m.key_name === STACK_IDENTITY_KEY)!.value;
  expect(identity).toBe(stackIdentityMark({ project: "shop", stack: "dev", stackTag: tags[STACK_TAG]! }));
  const record = marks.find((m) => m.key_name === RUN_RECORD_KEY)!.value;
  expect(tags[`${RUN_TAG_PREFIX}${record}`]).toMatch(/^\d+ (cp|skip) 0 acct-[0-9a-f]{12}$/);
});
