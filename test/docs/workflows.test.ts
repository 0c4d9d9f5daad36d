/**
 * The GitHub Actions workflows pass actionlint: this repository's (.github/workflows/*.yml) and every one
 * docs/ci.md gives users (support/ci-workflows.ts; their pins, CLI version and caches: ci-conventions.test.ts).
 * actionlint checks the workflow syntax, the `${{ }}` expressions and their contexts, job dependencies,
 * `concurrency`, and the inputs of the well-known actions. It is built from the Go module proxy by
 * scripts/actionlint.sh (cached outside the clone, by version); this test runs that script, so it never skips
 * (.ci/run runs it first, so that the one-time build is not inside a test's time).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, recipe } from "./support/code-blocks";
import { DOCS_WORKFLOWS } from "./support/ci-workflows";
import { scratchDir } from "../package/support/offline-project";
import { hardeningProblems } from "../package/support/workflow-hardening";
import { parse } from "yaml";

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
function docsWorkflow(text = recipe("docs/ci.md#workflow"), name = "infra.yml"): string {
  const dir = path.join(scratch.dir, "user-repo", ".github", "workflows");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe("the GitHub Actions workflows", () => {
  it.each(fs.readdirSync(path.join(REPO_ROOT, ".github/workflows")))("%s passes actionlint", (name) => {
    expect(lint(path.join(REPO_ROOT, ".github/workflows", name))).toEqual({ status: 0, findings: "" });
  });

  it.each(DOCS_WORKFLOWS)("%s passes actionlint", (address) => {
    expect(lint(docsWorkflow(recipe(address), `${address.split("#")[1]}.yml`))).toEqual({
      status: 0,
      findings: "",
    });
  });

  it("docs/ci.md's workflow previews same-repository pull requests, tests forks, and queues `up`", () => {
    const text = recipe("docs/ci.md#workflow");
    expect(text).toMatch(/head\.repo\.full_name == github\.repository/);
    expect(text).toMatch(/head\.repo\.full_name != github\.repository/);
    expect(text).toMatch(/concurrency:\s*\n\s*group: pulumi-up-\S+\s*\n\s*cancel-in-progress: false/);
    expect(text).toMatch(/PULUMI_CONFIG_PASSPHRASE: \$\{\{ secrets\.PULUMI_CONFIG_PASSPHRASE \}\}/);
  });

  it("docs/ci.md's workflow with the PostgreSQL `env:` in place of its own passes actionlint", () => {
    // The `env:` names the CA's file by `github.workspace`: a context GitHub allows at a workflow's top level.
    const workflow = recipe("docs/ci.md#workflow");
    const withPostgres = workflow.replace(/^env:\n(?: {2}.*\n)+/m, recipe("docs/ci.md#postgres-env"));
    expect(withPostgres).not.toBe(workflow);
    expect(lint(docsWorkflow(withPostgres, "postgres.yml"))).toEqual({ status: 0, findings: "" });
  });

  it("docs/ci.md's `up` jobs end with the cleanup step: killed-orders after a failed or cancelled `up`", () => {
    // The step's script runs through the real CLI in test/engine/backends-postgres.test.ts (team-backend-scenarios).
    const lastSteps = ["docs/ci.md#workflow", "docs/ci.md#oidc-workflow"].map((address) => {
      const up = (parse(recipe(address)) as { jobs: { up: { steps: { if?: string; run?: string }[] } } }).jobs
        .up;
      return up.steps.at(-1)!;
    });
    for (const step of lastSteps) {
      expect(step.if).toBe("failure() || cancelled()");
      expect(step.run).toContain('npx rimuhosting-killed-orders --yes --no-run-in-progress --stack "$STACK"');
    }
    expect(lastSteps[1]!.run).toBe(lastSteps[0]!.run);
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

const WORKFLOWS = fs.readdirSync(path.join(REPO_ROOT, ".github/workflows"));
const workflowText = (name: string) =>
  fs.readFileSync(path.join(REPO_ROOT, ".github/workflows", name), "utf8");

describe("the workflows are hardened", () => {
  it("there are the release and the CI workflow", () => {
    expect(WORKFLOWS.sort()).toEqual(["ci.yml", "release.yml"]);
  });

  it.each(WORKFLOWS)(
    "%s: bash with pipefail for every run, every action pinned to a commit SHA with its release named, contents: read by default",
    (name) => {
      expect(hardeningProblems(workflowText(name))).toEqual([]);
    },
  );

  const release = workflowText("release.yml");
  it.each([
    [
      "no defaults block",
      "defaults:\n  run:\n    shell: bash",
      "",
      /defaults\.run\.shell is not set, not bash/,
    ],
    [
      "a step in sh",
      "        run: node scripts/release-files.js pypi dist/pypi",
      "        shell: sh\n        run: node scripts/release-files.js pypi dist/pypi",
      /step \d+ runs in sh, without pipefail/,
    ],
    [
      "an action pinned by tag",
      "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1",
      "actions/checkout@v7 # v7.0.1",
      /uses actions\/checkout@v7, not pinned/,
    ],
    [
      "a SHA without its release",
      "actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae # v5.0.5",
      "actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae",
      /actions\/cache@27d5ce7f.* has no "# v<version>" comment/,
    ],
    [
      "write-all for every job",
      "permissions:\n  contents: read\n",
      "permissions: write-all\n",
      /default permissions are not contents: read only/,
    ],
  ])("names what is wrong with %s", (_what, from, to, problem) => {
    expect(release).toContain(from);
    expect(hardeningProblems(release.replace(from, to))).toEqual(
      expect.arrayContaining([expect.stringMatching(problem)]),
    );
  });
  /** The fixed start of each actions/cache key of a workflow (what comes before its first `${{ }}`). */
  const cacheKeys = (text: string): string[] =>
    [...text.matchAll(/^\s+key: ([^\s$]+)/gm)].map((m) => m[1]!).filter((key) => key.length > 0);

  it("the release restores no cache the CI workflow saves: their tools caches have keys of their own", () => {
    const ci = cacheKeys(workflowText("ci.yml"));
    const released = cacheKeys(release);
    expect(ci.length).toBeGreaterThan(0);
    expect(released.length).toBeGreaterThan(0);
    expect(
      released.filter((key) => ci.some((other) => other.startsWith(key) || key.startsWith(other))),
    ).toEqual([]);
  });
});
