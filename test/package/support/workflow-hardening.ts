/**
 * What every GitHub Actions workflow of the repository holds to (.github/workflows/*.yml), checked on its text:
 * - every `run` step runs in bash with errexit and pipefail: a `defaults: run: shell: bash` block (GitHub runs
 *   `bash --noprofile --norc -eo pipefail {0}` for it), and no job or step choosing a shell without pipefail;
 * - every action is pinned by a full commit SHA (40 hex digits), with the release it is in a comment after it
 *   (`uses: owner/repo@<sha> # v1.2.3`), so a moved tag cannot change what runs;
 * - the workflow's default permissions are `contents: read`, and no job asks for `write-all`.
 * test/docs/workflows.test.ts runs it on each workflow, and shows each check failing on a workflow without it.
 */
import { parse } from "yaml";

interface Step {
  uses?: string;
  run?: string;
  shell?: string;
}
interface Job {
  uses?: string;
  permissions?: string | Record<string, string>;
  defaults?: { run?: { shell?: string } };
  steps?: Step[];
}
interface Workflow {
  permissions?: string | Record<string, string>;
  defaults?: { run?: { shell?: string } };
  jobs?: Record<string, Job>;
}

/** A shell GitHub runs with pipefail: its `bash` (the default only when no shell is named, so it is named). */
const withPipefail = (shell: string) => shell === "bash" || /\bpipefail\b/.test(shell);
const PINNED = /^[^@\s]+@[0-9a-f]{40}$/;
const VERSION_COMMENT = /#\s*v\d+(\.\d+)*\b/;

/** What is wrong with the workflow's text, one sentence each; [] when nothing is. */
export function hardeningProblems(text: string): string[] {
  const problems: string[] = [];
  const workflow = parse(text) as Workflow;
  const defaultShell = workflow.defaults?.run?.shell;
  if (defaultShell !== "bash") problems.push(`defaults.run.shell is ${defaultShell ?? "not set"}, not bash`);
  if (JSON.stringify(workflow.permissions) !== JSON.stringify({ contents: "read" }))
    problems.push("the workflow's default permissions are not contents: read only");
  for (const [name, job] of Object.entries(workflow.jobs ?? {})) {
    const jobShell = job.defaults?.run?.shell;
    if (jobShell !== undefined && !withPipefail(jobShell))
      problems.push(`${name}'s defaults.run.shell is ${jobShell}, without pipefail`);
    if (job.permissions === "write-all") problems.push(`${name} has permissions: write-all`);
    (job.steps ?? []).forEach((step, i) => {
      if (step.run !== undefined && step.shell !== undefined && !withPipefail(step.shell))
        problems.push(`${name}'s step ${i + 1} runs in ${step.shell}, without pipefail`);
    });
    const uses = [job.uses, ...(job.steps ?? []).map((step) => step.uses)];
    for (const action of uses) {
      if (action === undefined || action.startsWith("./")) continue;
      if (!PINNED.test(action)) problems.push(`${name} uses ${action}, not pinned to a 40-hex commit SHA`);
    }
  }
  // The version comment is on the `uses:` line itself (YAML drops comments, so the text is read).
  for (const line of text.split("\n")) {
    const uses = /^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/.exec(line);
    if (uses && !uses[1]!.startsWith("./") && !VERSION_COMMENT.test(uses[2]!))
      problems.push(`uses: ${uses[1]} has no "# v<version>" comment naming the release of its commit`);
  }
  return problems;
}
