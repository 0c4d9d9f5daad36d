// `npm test` without the pulumi CLI on PATH skips nothing silently (issue 28): its jest step (tools/test-with-cli.ts)
// gets the CLI and the language hosts the way `npm run demo` gets the CLI (the scripts that build them, whose caches
// make a second run take seconds), or fails saying the one command that gets them. Run on the built copy, as
// `npm test` runs it, with a PATH that has node and the system's tools but no pulumi, no hosts (and, for the failure,
// no Go either).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findPulumiCli } from "../engine/cli-stack";
import { REPO_ROOT } from "../engine/native-programs";
import { findLanguageHosts } from "../../tools/release/language-hosts";

jest.setTimeout(900_000); // a cold cache builds the CLI and the hosts (CI warms it first, in .ci/run)

const WRAPPER = path.join(REPO_ROOT, "dist/tools/test-with-cli.js");
const BARE_PATH = [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter);
/** Where `go` is (the scripts build with it; .ci/run has it on PATH). */
const GO_DIR = (process.env.PATH ?? "")
  .split(path.delimiter)
  .find((dir) => dir !== "" && fs.existsSync(path.join(dir, "go")));

function npmTestJest(args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(process.execPath, [WRAPPER, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("npm test's jest step without pulumi on PATH", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "npm-test-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  // Needs Go to build the tools (or to find them in its cache); skipped without it, the reason in its name, but never
  // on CI, which builds them with Go before the tests.
  if (!GO_DIR && process.env.CI === "true") throw new Error("CI=true, but there is no `go` on PATH");
  (GO_DIR ? it : it.skip)(
    "builds (or takes from the cache) the CLI and the hosts, and runs jest with them on PATH" +
      (GO_DIR ? "" : " (skipped: no `go` on PATH)"),
    () => {
      const env = { PATH: [BARE_PATH, GO_DIR].join(path.delimiter), CI: "" };
      expect(findPulumiCli(env).path).toBeUndefined();
      expect(findLanguageHosts(env).hosts).toBeUndefined();
      // A one-file jest project that looks for what the end-to-end tests need.
      fs.writeFileSync(
        path.join(dir, "probe.test.js"),
        'test("on PATH", () => { require("node:child_process").execSync("command -v pulumi pulumi-language-yaml pulumi-language-go pulumi-language-python"); });\n',
      );
      const config = JSON.stringify({ rootDir: dir, testMatch: ["**/probe.test.js"], transform: {} });
      const { status, output } = npmTestJest(["--config", config], env);
      expect(output).toMatch(
        /npm test: no `pulumi` binary on PATH.*Building the pulumi CLI with scripts\/pulumi-cli\.sh/,
      );
      expect(output).toMatch(
        /Building the YAML, Go and Python language hosts with scripts\/language-hosts\.sh/,
      );
      expect(output).toMatch(/Tests:\s+1 passed, 1 total/);
      expect(status).toBe(0);
    },
  );

  it("fails, with the command that gets the CLI, when it cannot be built (no Go)", () => {
    const env = { PATH: BARE_PATH, PULUMI_RIMU_CACHE: path.join(dir, "empty-cache"), CI: "" };
    const { status, output } = npmTestJest(["--listTests"], env);
    expect(status).toBe(1);
    expect(output).toMatch(/Go is not installed/);
    expect(output).toContain('export PATH="$(scripts/pulumi-cli.sh | tail -n 1):$PATH"');
    expect(output).not.toMatch(/\.test\.ts/); // jest never ran
  });
});
