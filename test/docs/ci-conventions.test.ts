/**
 * Pulumi's CI conventions on every workflow docs/ci.md gives and the repository's own (support/ci-workflows.ts),
 * checked on their text: one pinning style (each action by a full commit SHA, its release in a comment, and one
 * commit per action across all of them); the Pulumi CLI pinned wherever an action installs it, at 3.227.0 or later
 * (the drift check's exit code 7) and the same version everywhere; the plugin cache (`~/.pulumi/plugins`, keyed on
 * the lock file) before every Pulumi step of docs/ci.md; and the OIDC variant (pulumi/auth-actions with
 * `id-token: write`, the API key from an ESC environment, no stored secret). actionlint: workflows.test.ts.
 */
import { parse } from "yaml";
import { codeBlocks } from "./support/code-blocks";
import { DOCS_WORKFLOWS, REPO_WORKFLOWS, workflowText } from "./support/ci-workflows";

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
}
interface Workflow {
  permissions?: Record<string, string>;
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>;
}

const ALL = [...DOCS_WORKFLOWS, ...REPO_WORKFLOWS];
const stepsOf = (where: string): Step[] =>
  Object.values((parse(workflowText(where)) as Workflow).jobs).flatMap((job) => job.steps ?? []);

/** `uses: owner/repo@ref # comment` lines of a workflow: action, ref, comment. */
const usesLines = (where: string) =>
  [...workflowText(where).matchAll(/uses: ([^@\s]+)@(\S+)(.*)$/gm)].map(([, action, ref, comment]) => ({
    action: action!,
    ref: ref!,
    comment: comment!,
  }));

/** The actions that install the Pulumi CLI, and the input each pins its version with. */
const CLI_VERSION_INPUT: Record<string, string> = {
  "pulumi/actions": "pulumi-version",
  "pulumi/esc-action": "version",
};
const actionOf = (step: Step) => step.uses?.split("@")[0];

/** [major, minor, patch] of "3.260.0". */
const semver = (text: string) => text.split(".").map(Number);
const atLeast = (v: number[], min: number[]) =>
  v[0]! !== min[0]! ? v[0]! > min[0]! : v[1]! !== min[1]! ? v[1]! > min[1]! : v[2]! >= min[2]!;

describe("the workflows follow Pulumi's CI conventions", () => {
  it("the list is every workflow docs/ci.md gives", () => {
    const withJobs = codeBlocks("docs/ci.md")
      .filter((b) => b.lang === "yaml" && /^jobs:/m.test(b.text))
      .map((b) => (b.marker?.kind === "recipe" ? `docs/ci.md#${b.marker.id}` : `docs/ci.md:${b.line}`));
    expect(withJobs.sort()).toEqual([...DOCS_WORKFLOWS].sort());
  });

  it.each(ALL)("%s pins each action by commit, with its version in a comment", (where) => {
    const uses = usesLines(where);
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses)
      expect(`${u.action}@${u.ref}${u.comment}`).toMatch(/@[0-9a-f]{40} # v\d+\.\d+\.\d+/);
  });

  it("one commit and one version per action, across every workflow", () => {
    const pins = new Map<string, Set<string>>();
    for (const where of ALL)
      for (const u of usesLines(where)) {
        const version = /# (v\d+\.\d+\.\d+)/.exec(u.comment)?.[1];
        pins.set(u.action, (pins.get(u.action) ?? new Set()).add(`${u.ref} ${version}`));
      }
    const differing = [...pins].filter(([, refs]) => refs.size > 1).map(([a, refs]) => `${a}: ${[...refs]}`);
    expect(differing).toEqual([]);
  });

  it.each(ALL)("%s pins the Pulumi CLI wherever an action installs it, at 3.227.0 or later", (where) => {
    for (const step of stepsOf(where)) {
      const input = CLI_VERSION_INPUT[actionOf(step) ?? ""];
      if (input === undefined) continue;
      const version = String(step.with?.[input] ?? "");
      expect({ action: step.uses, version }).toEqual({
        action: step.uses,
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      });
      expect(atLeast(semver(version), [3, 227, 0])).toBe(true);
    }
  });

  it("one CLI version across every workflow", () => {
    const versions = new Set(
      ALL.flatMap(stepsOf).flatMap((step) => {
        const input = CLI_VERSION_INPUT[actionOf(step) ?? ""];
        return input === undefined ? [] : [String(step.with?.[input])];
      }),
    );
    expect(versions.size).toBe(1);
  });

  it.each(DOCS_WORKFLOWS)(
    "%s caches ~/.pulumi/plugins, keyed on the lock file, before each job's Pulumi step",
    (where) => {
      const jobs = (parse(workflowText(where)) as Workflow).jobs;
      for (const [name, job] of Object.entries(jobs)) {
        const pulumiAt = job.steps.findIndex((s) => actionOf(s) === "pulumi/actions");
        // Only a job that runs a Pulumi command or a Pulumi step of its own loads plugins (test-fork: the emulator).
        const runsPulumi = job.steps.some(
          (s) =>
            (actionOf(s) === "pulumi/actions" && s.with?.command) ||
            /\b(pulumi|rimuhosting-bill) /.test(s.run ?? ""),
        );
        if (!runsPulumi) continue;
        const cacheAt = job.steps.findIndex(
          (s) =>
            actionOf(s) === "actions/cache" &&
            s.with?.path === "~/.pulumi/plugins" &&
            /hashFiles\('package-lock\.json'\)/.test(String(s.with?.key)),
        );
        expect({ job: name, cached: cacheAt >= 0 && cacheAt < pulumiAt }).toEqual({
          job: name,
          cached: true,
        });
      }
    },
  );

  it("the OIDC variant: id-token: write, pulumi/auth-actions, the API key from ESC, no stored secret", () => {
    const where = "docs/ci.md#oidc-workflow";
    const workflow = parse(workflowText(where)) as Workflow;
    expect(workflow.permissions).toEqual({ contents: "read", "id-token": "write" });
    expect(workflowText(where)).not.toMatch(/secrets\./);
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const actions = job.steps.map(actionOf);
      const [auth, esc, pulumi] = ["pulumi/auth-actions", "pulumi/esc-action", "pulumi/actions"].map((a) =>
        actions.indexOf(a),
      ) as [number, number, number];
      expect({ job: name, order: auth >= 0 && auth < esc && esc < pulumi }).toEqual({
        job: name,
        order: true,
      });
      expect(job.steps[esc]!.with).toMatchObject({
        environment: expect.stringMatching(/^[\w-]+\/[\w-]+\/[\w-]+$/),
        "export-environment-variables": "RIMUHOSTING_APIKEY",
      });
      expect(job.steps[auth]!.with).toMatchObject({ organization: expect.any(String) });
    }
  });
});
