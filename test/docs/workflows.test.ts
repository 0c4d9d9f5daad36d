/**
 * The GitHub Actions workflows pass actionlint: this repository's (.github/workflows/*.yml) and the one
 * docs/ci.md gives users. actionlint checks the workflow syntax, the `${{ }}` expressions and their contexts, job
 * dependencies, `concurrency`, and the inputs of the well-known actions. It is built from the Go module proxy by
 * scripts/actionlint.sh (cached outside the clone, by version); this test runs that script, so it never skips
 * (.ci/run runs it first, so that the one-time build is not inside a test's time).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, recipe } from "./support/code-blocks";
import { scratchDir } from "../package/support/offline-project";

jest.setTimeout(600_000); // a first build of actionlint takes a minute or two

const scratch = scratchDir("workflows");
let actionlint: string;

beforeAll(() => {
  const printed = execFileSync(path.join(REPO_ROOT, "scripts/actionlint.sh"), { encoding: "utf8" });
  actionlint = printed.trim().split("\n").pop()!;
});
afterAll(() => scratch.cleanup());

/** actionlint's findings for one workflow file ("" when it has none), and its exit code. */
function lint(file: string): { status: number | null; findings: string } {
  // -shellcheck= / -pyflakes=: only actionlint's own checks, the same on every machine.
  const result = spawnSync(actionlint, ["-no-color", "-shellcheck=", "-pyflakes=", file], {
    encoding: "utf8",
  });
  return { status: result.status, findings: `${result.stdout}${result.stderr}` };
}

/** docs/ci.md's workflow, as a workflow file (actionlint reads workflows from .github/workflows). */
function docsWorkflow(text = recipe("docs/ci.md#workflow")): string {
  const dir = path.join(scratch.dir, "user-repo", ".github", "workflows");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "infra.yml");
  fs.writeFileSync(file, text);
  return file;
}

describe("the GitHub Actions workflows", () => {
  it.each(fs.readdirSync(path.join(REPO_ROOT, ".github/workflows")))("%s passes actionlint", (name) => {
    expect(lint(path.join(REPO_ROOT, ".github/workflows", name))).toEqual({ status: 0, findings: "" });
  });

  it("docs/ci.md's workflow passes actionlint", () => {
    expect(lint(docsWorkflow())).toEqual({ status: 0, findings: "" });
  });

  it("docs/ci.md's workflow previews same-repository pull requests, tests forks, and queues `up`", () => {
    const text = recipe("docs/ci.md#workflow");
    expect(text).toMatch(/head\.repo\.full_name == github\.repository/);
    expect(text).toMatch(/head\.repo\.full_name != github\.repository/);
    expect(text).toMatch(/concurrency:\s*\n\s*group: pulumi-up-\S+\s*\n\s*cancel-in-progress: false/);
    expect(text).toMatch(/PULUMI_CONFIG_PASSPHRASE: \$\{\{ secrets\.PULUMI_CONFIG_PASSPHRASE \}\}/);
  });

  it("actionlint catches a broken workflow (so a pass means something)", () => {
    // A job's `if` cannot read secrets (GitHub refuses the workflow): the mistake a fork-aware workflow invites.
    const broken = recipe("docs/ci.md#workflow").replace(
      "if: github.event_name == 'push'",
      "if: secrets.RIMUHOSTING_APIKEY != ''",
    );
    const { status, findings } = lint(docsWorkflow(broken));
    expect(status).toBe(1);
    expect(findings).toMatch(/secrets/);
  });
});
