// A read of the backend's states that meets the engine's own write (provider/impl/ownership/backend-states.ts, issue
// 92): the CLI's file backend rewrites a file's `.attrs` sidecar in place (truncated, then written) before each save,
// and a `pulumi stack ls --all --json` at that moment fails with `error: EOF` (a destroy's sweep failed once in ~18
// so). Through the real CLI on a file backend: a stand-in `pulumi` first on PATH empties the checkpoint's sidecar
// for the first command and puts it back once that command ended (the write finishing), as the engine's save does;
// the states are read, the listing read again. A sidecar left empty (a save torn by a kill) is read a bounded number
// of times and said unread, with the CLI's words.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readBackendStates } from "../../provider/impl/ownership/backend-states";
import { findPulumiCli, offlineCliEnv } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";

jest.setTimeout(120_000);

describeCliOnly("a read of the backend that meets the engine's write", () => {
  let base = "";
  let project = "";
  let env: NodeJS.ProcessEnv = {};
  let sidecar = "";
  let calls = "";

  beforeAll(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "torn-read-"));
    project = path.join(base, "shop");
    fs.mkdirSync(project);
    fs.mkdirSync(path.join(base, "backend"));
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
    const real = findPulumiCli().path!;
    env = { ...process.env, ...offlineCliEnv(path.join(base, "backend")) };
    execFileSync(real, ["stack", "init", "dev"], { cwd: project, env, stdio: "ignore" });
    sidecar = path.join(base, "backend", ".pulumi", "stacks", "shop", "dev.json.attrs");
    expect(fs.statSync(sidecar).size).toBeGreaterThan(0);
    // The stand-in: each call noted; the first runs the real CLI with the sidecar emptied, then puts it back.
    calls = path.join(base, "calls");
    const bin = path.join(base, "bin");
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, "pulumi"),
      `#!/bin/sh
echo "$*" >> "${calls}"
if [ -f "${base}/tear-first" ]; then
  rm "${base}/tear-first"
  cp "${sidecar}" "${base}/kept" && : > "${sidecar}"
  "${real}" "$@"; status=$?
  cp "${base}/kept" "${sidecar}"
  exit $status
fi
exec "${real}" "$@"
`,
      { mode: 0o755 },
    );
    env.PATH = `${bin}${path.delimiter}${env.PATH ?? ""}`;
  });
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  test("the listing met a sidecar being written: read again, the states read", async () => {
    fs.writeFileSync(path.join(base, "tear-first"), "");
    fs.rmSync(calls, { force: true });
    const states = await readBackendStates({ cwd: project, env, always: "dev" });
    expect(states).toEqual({ stacks: [{ stack: "dev", resources: [], pending: [] }] });
    expect(fs.readFileSync(calls, "utf8").split("\n").filter(Boolean)).toEqual([
      "stack ls --all --json",
      "stack ls --all --json",
      "stack export --stack dev",
    ]);
  });

  test("a sidecar left empty (a save torn by a kill): read three times, then unread with the CLI's words", async () => {
    const kept = fs.readFileSync(sidecar);
    fs.writeFileSync(sidecar, "");
    fs.rmSync(calls, { force: true });
    try {
      const states = await readBackendStates({ cwd: project, env, always: "dev" });
      expect(states).toEqual({ stacks: [], unread: "`pulumi stack ls --all --json` failed: error: EOF" });
      expect(fs.readFileSync(calls, "utf8").split("\n").filter(Boolean)).toHaveLength(3);
    } finally {
      fs.writeFileSync(sidecar, kept);
    }
  });
});
