/**
 * scripts/lib/printed-dir.sh, through which every set-up script prints the directory (or file) its caller puts on
 * PATH: sourced by a stand-in set-up script, it prints a plain existing path alone on its line, and refuses, with the
 * script's name and the path, and an exit that stops the script, a path a tool's output spoiled (Maven's ESC[0m in
 * front, issue 89), one that is not absolute, a directory that is missing or lacks an executable it must hold.
 * host_runs, the check language-hosts.sh and .ci/run make of each language host, is false for a broken link.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { scratchDir } from "../package/support/offline-project";

const LIB = path.resolve(__dirname, "..", "..", "scripts", "lib", "printed-dir.sh");
const scratch = scratchDir("printed-dir");
afterAll(() => scratch.cleanup());

// What Maven wrote on a fresh machine's first fill, with no newline, in front of java-host.sh's directory.
const RESETS = "\x1b[0m".repeat(4);

const bin = path.join(scratch.dir, "bin");
const script = path.join(scratch.dir, "fake-setup.sh");

/** An executable file at bin/<name> running `body` with sh. */
function executable(name: string, body: string): string {
  const file = path.join(bin, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

beforeAll(() => {
  fs.mkdirSync(bin);
  executable("pulumi-language-yaml", 'echo "Usage of pulumi-language-yaml:" >&2; exit 2');
  executable("pulumi-language-go", 'echo "Usage of pulumi-language-go:" >&2; exit 0');
  fs.writeFileSync(path.join(bin, "not-executable"), "#!/bin/sh\n", { mode: 0o644 });
  fs.symlinkSync(path.join(scratch.dir, "nowhere", "pulumi-language-java"), path.join(bin, "broken-link"));
  executable("dies-of-a-signal", "kill -SEGV $$");
  // A stand-in set-up script: sources the library, runs the function its arguments name, then says it went on.
  fs.writeFileSync(
    script,
    `#!/usr/bin/env bash\nset -euo pipefail\n. ${JSON.stringify(LIB)}\n"$@"\necho "the script went on"\n`,
    { mode: 0o755 },
  );
});

/** The stand-in set-up script run with `args`: its exit status, standard output and standard error apart. */
function setUp(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(script, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** How bash's `printf %q` writes `text` (what the messages show of a path holding control characters). */
function quoted(text: string): string {
  return spawnSync("bash", ["-c", 'printf %q "$1"', "quote", text], { encoding: "utf8" }).stdout;
}

describe("print_checked_dir", () => {
  it("prints a plain existing directory holding its executables alone on its line", () => {
    expect(setUp("print_checked_dir", bin, "pulumi-language-yaml", "pulumi-language-go")).toEqual({
      status: 0,
      stdout: `${bin}\nthe script went on\n`,
      stderr: "",
    });
  });

  it("refuses a path with a tool's terminal resets in front, naming it, and stops the script", () => {
    const spoiled = `${RESETS}${bin}`;
    const run = setUp("print_checked_dir", spoiled, "pulumi-language-yaml");
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(quoted(spoiled)).toContain("\\E[0m");
    expect(run.stderr).toBe(
      `fake-setup: refusing to print ${quoted(spoiled)}: it holds control characters (a tool's output?)\n`,
    );
  });

  it("refuses a path that is not absolute", () => {
    const run = setUp("print_checked_dir", "bin", "pulumi-language-yaml");
    expect(run).toMatchObject({ status: 1, stdout: "" });
    expect(run.stderr).toBe("fake-setup: refusing to print bin: not an absolute path\n");
  });

  it("refuses a directory that does not exist", () => {
    const missing = path.join(scratch.dir, "missing", "bin");
    const run = setUp("print_checked_dir", missing, "pulumi-language-yaml");
    expect(run).toMatchObject({ status: 1, stdout: "" });
    expect(run.stderr).toBe(`fake-setup: refusing to print ${missing}: no such directory\n`);
  });

  it.each([
    ["missing", "pulumi-language-java"],
    ["not executable", "not-executable"],
    ["a broken link", "broken-link"],
  ])("refuses a directory whose executable is %s, naming both", (_what, name) => {
    const run = setUp("print_checked_dir", bin, "pulumi-language-yaml", name);
    expect(run).toMatchObject({ status: 1, stdout: "" });
    expect(run.stderr).toBe(
      `fake-setup: refusing to print ${bin}: ${name} is missing there or not executable\n`,
    );
  });
});

describe("print_checked_file", () => {
  it("prints a plain executable file alone on its line", () => {
    const file = path.join(bin, "pulumi-language-go");
    expect(setUp("print_checked_file", file)).toEqual({
      status: 0,
      stdout: `${file}\nthe script went on\n`,
      stderr: "",
    });
  });

  it.each([
    ["missing", path.join(bin, "pulumi")],
    ["not executable", path.join(bin, "not-executable")],
  ])("refuses a file that is %s, naming it", (_what, file) => {
    const run = setUp("print_checked_file", file);
    expect(run).toMatchObject({ status: 1, stdout: "" });
    expect(run.stderr).toBe(`fake-setup: refusing to print ${file}: no such executable file\n`);
  });

  it("refuses a file with terminal resets in front", () => {
    const spoiled = `${RESETS}${path.join(bin, "pulumi-language-go")}`;
    const run = setUp("print_checked_file", spoiled);
    expect(run).toMatchObject({ status: 1, stdout: "" });
    expect(run.stderr).toContain(`refusing to print ${quoted(spoiled)}: it holds control characters`);
  });
});

describe("host_runs", () => {
  const runs = (name: string) => setUp("host_runs", path.join(bin, name)).status === 0;

  it("is true for a host that prints its usage and exits, 0 or 2 (Go's flag package)", () => {
    expect(runs("pulumi-language-go")).toBe(true);
    expect(runs("pulumi-language-yaml")).toBe(true);
  });

  it("is false for a broken link, a file that is not executable, a missing one, one killed by a signal", () => {
    expect(runs("broken-link")).toBe(false);
    expect(runs("not-executable")).toBe(false);
    expect(runs("pulumi-language-java")).toBe(false);
    expect(runs("dies-of-a-signal")).toBe(false);
  });
});
