/**
 * The `rimuhosting-drift` command as a user runs it (the built bin, dist/provider/drift/cli.js, in a process of its
 * own): a file or standard input, the exit codes (0 no drift; 1 drift, the report printed; 2 for input that is not a
 * refresh's JSON, the message on stderr without a stack trace), and the native plugin's `drift` command printing
 * the same from a checkout (bin/).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { DRIFT_MARKER } from "../../provider/drift/markdown";
import { expectHelpAtTerminal } from "../helpers/in-terminal";
import { scratchDir } from "../package/support/offline-project";
import { MOVED_LINE, refreshJson, unchangedStep } from "./support";

const REPO_ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(REPO_ROOT, "dist/provider/drift/cli.js");
const PLUGIN = path.join(REPO_ROOT, "bin/pulumi-resource-rimuhosting");

const scratch = scratchDir("drift-cli");
afterAll(() => scratch.cleanup());

function file(name: string, text: string): string {
  const at = path.join(scratch.dir, name);
  fs.writeFileSync(at, text);
  return at;
}

function run(args: string[], input?: string, command: "bin" | "plugin" = "bin") {
  const [exe, argv] = command === "bin" ? [process.execPath, [BIN, ...args]] : [PLUGIN, ["drift", ...args]];
  const { status, stdout, stderr } = spawnSync(exe, argv, { encoding: "utf8", input, timeout: 60_000 });
  return { status, stdout, stderr };
}

const CLEAN = refreshJson([unchangedStep("web")]);
const DRIFTED = refreshJson([unchangedStep("web")], [MOVED_LINE], { same: 1, update: 1 });

describe("rimuhosting-drift", () => {
  test("exit 0 without drift, 1 with it (the report printed), from a file or standard input", () => {
    const clean = run([file("clean.json", CLEAN)]);
    expect(clean).toMatchObject({ status: 0, stderr: "" });
    expect(clean.stdout).toMatch(/\*\*No drift\*\* in stack `prod`/);
    const drifted = run([], DRIFTED);
    expect(drifted).toMatchObject({ status: 1, stderr: "" });
    expect(drifted.stdout.startsWith(`${DRIFT_MARKER} shop/prod -->\n`)).toBe(true);
    expect(drifted.stdout).toContain("| web | primaryIp | 192.0.2.10 → 198.18.1.10 | none |");
  });

  test("exit 2 for input that is no refresh's JSON, a missing file or a wrong option; no stack trace", () => {
    const preview = run([file("preview.json", JSON.stringify({ steps: [{ op: "same", urn: "urn:x" }] }))]);
    expect(preview.status).toBe(2);
    expect(preview.stderr).toBe(
      `rimuhosting-drift: ${path.join(scratch.dir, "preview.json")} is a preview's JSON (nothing in it is refreshed), ` +
        "not a refresh's. The drift report reads what `pulumi refresh --preview-only --json` prints; make it with " +
        "`pulumi refresh --preview-only --json --stack <stack> > refresh.json`.\n",
    );
    expect(run([path.join(scratch.dir, "nope.json")])).toMatchObject({
      status: 2,
      stderr: `rimuhosting-drift: cannot read ${path.join(scratch.dir, "nope.json")}: there is no such file.\n`,
    });
    expect(run(["--out", "x"]).status).toBe(2);
    expect(run(["--help"])).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^Usage: rimuhosting-drift/),
    });
  });
});

describe("pulumi-resource-rimuhosting drift", () => {
  test("a checkout's bin/ prints what rimuhosting-drift prints, with the same exit codes", () => {
    for (const text of [CLEAN, DRIFTED]) {
      const at = file("either.json", text);
      expect(run([at], undefined, "plugin")).toEqual(run([at]));
    }
    const bad = run([], "[]", "plugin");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^pulumi-resource-rimuhosting drift: standard input is a JSON array/);
  });
});

test.each([
  ["rimuhosting-drift", process.execPath, [BIN]],
  ["pulumi-resource-rimuhosting drift", PLUGIN, ["drift"]],
])("%s with no file, at a terminal: says so with the help and exits 2, not waiting", (name, exe, args) =>
  expectHelpAtTerminal(name, exe, args, "\\[refresh\\.json\\]"),
);
