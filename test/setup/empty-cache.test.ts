/**
 * The set-up on a machine that never ran it: scripts/java-host.sh and scripts/language-hosts.sh, each on an empty
 * cache root of its own (PULUMI_RIMU_CACHE), as their first run. Go's and Maven's own caches (~/go, ~/.m2) may be
 * warm: the hosts are linked again from Go's build cache, and java-host.sh runs Maven as a first run does (its stamp
 * is kept in the cache root), which is what wrote to its standard output. Each script's standard output is read as .ci/run reads it (`$(… | tail -n 1)`) and as
 * tools/pulumi-on-path.ts reads it (printedDir): both must give a plain absolute directory that exists, and each
 * language host in it must run. On a fresh machine Maven's first fill wrote terminal resets (ESC[0m, no newline) on
 * java-host.sh's standard output, so the line it printed last named a directory that did not exist, and
 * language-hosts.sh linked pulumi-language-java there (issue 89); a second run on the same cache root prints a
 * clean line, so only a first run shows it.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { printedDir } from "../../tools/pulumi-on-path";
import { describeCliOnly } from "../engine/describe-cli";
import { scratchDir } from "../package/support/offline-project";

const REPO = path.resolve(__dirname, "..", "..");
// A first run links four hosts and the SDK generator from Go's build cache, makes a Python virtual environment and
// runs Maven four times: minutes on 2 cores (the limit is scaled by the machine's load, test/helpers/time-scale.js).
jest.setTimeout(20 * 60_000);

const scratch = scratchDir("empty-cache");
afterAll(() => scratch.cleanup());

interface ScriptRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs scripts/<name> with PULUMI_RIMU_CACHE a new empty directory; resolves with what it wrote, apart. */
function firstRun(name: string): Promise<ScriptRun> {
  const cache = fs.mkdtempSync(path.join(scratch.dir, `${name}-`));
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [path.join(REPO, "scripts", name)], {
      cwd: REPO,
      env: { ...process.env, PULUMI_RIMU_CACHE: cache },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** The directory as .ci/run reads it: `hosts="$(scripts/language-hosts.sh | tail -n 1)"`. */
function readByCiRun(stdout: string): string {
  return spawnSync("bash", ["-c", 'dir="$(tail -n 1)"; printf %s "$dir"'], {
    input: stdout,
    encoding: "utf8",
  }).stdout;
}

/** Whether `dir` is an absolute path with no control character (what a tool's output in front of it would add). */
const isPlain = (dir: string | undefined) =>
  dir !== undefined && dir.startsWith("/") && [...dir].every((c) => c >= " " && c !== "\x7f");

/** `dir` with its bytes shown: control characters as \x.. escapes, so a failure shows what spoiled it. */
const shown = (dir: string | undefined) => JSON.stringify(dir);

/** What a caller of the script would put on PATH, both ways; fails, with the script's stderr, unless it is plain. */
function printedDirectories(name: string, run: ScriptRun): string {
  // Its standard error's end in the failure when it failed (what it refused, and why).
  const said = run.status === 0 ? "(exit 0)" : run.stderr.slice(-2000);
  expect({ script: name, status: run.status, said }).toEqual({ script: name, status: 0, said: "(exit 0)" });
  const byCiRun = readByCiRun(run.stdout);
  const byPulumiOnPath = printedDir(run.stdout);
  for (const dir of [byCiRun, byPulumiOnPath]) {
    expect({ script: name, dir: shown(dir), plain: isPlain(dir) }).toEqual({
      script: name,
      dir: shown(dir),
      plain: true,
    });
    expect({
      script: name,
      dir,
      isDirectory: fs.statSync(dir!, { throwIfNoEntry: false })?.isDirectory(),
    }).toEqual({ script: name, dir, isDirectory: true });
  }
  expect(byPulumiOnPath).toBe(byCiRun);
  return byCiRun;
}

/**
 * What the host at `file` does when asked for --help: each of these hosts (Go's flag package) prints "Usage of
 * <the path it was started by>:" and exits 0. A broken link or a file that cannot be executed fails to start
 * (ENOENT, EACCES, said in `error`); a broken binary dies of a signal.
 */
function helpOf(file: string): { host: string; error?: string; status: number | null; usage: boolean } {
  const host = path.basename(file);
  const run = spawnSync(file, ["--help"], {
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 10_000,
    encoding: "utf8",
  });
  const usage = `${run.stdout ?? ""}${run.stderr ?? ""}`.includes(`Usage of ${file}:`);
  return { host, ...(run.error && { error: run.error.message }), status: run.status, usage };
}

const HOSTS = ["yaml", "go", "python", "java"].map((language) => `pulumi-language-${language}`);

// language-hosts.sh matches the hosts to the `pulumi` on PATH; with CI=true a missing CLI fails instead of skipping.
describeCliOnly("the set-up scripts' first run on an empty cache root", () => {
  test("java-host.sh prints a plain existing directory whose pulumi-language-java runs", async () => {
    const dir = printedDirectories("java-host.sh", await firstRun("java-host.sh"));
    expect(helpOf(path.join(dir, "pulumi-language-java"))).toEqual({
      host: "pulumi-language-java",
      status: 0,
      usage: true,
    });
  });

  test("language-hosts.sh prints a plain existing directory where every language host runs", async () => {
    const dir = printedDirectories("language-hosts.sh", await firstRun("language-hosts.sh"));
    const onPath = fs.readdirSync(dir).filter((name) => name.startsWith("pulumi-language-"));
    expect(onPath).toEqual(expect.arrayContaining(HOSTS));
    // Every host in the directory runs (the Python host's runner, -exec, is a script the host starts with python3).
    const hosts = onPath.filter((name) => !name.endsWith("-exec"));
    expect(hosts.map((name) => helpOf(path.join(dir, name)))).toEqual(
      hosts.map((host) => ({ host, status: 0, usage: true })),
    );
  });
});
