/**
 * Runs one job of a workflow the docs give, as GitHub's runner runs it, on this machine: each `run:` step in order
 * with `bash --noprofile --norc -eo pipefail`, in the environment the workflow and the step set (and nothing the
 * test's own process has), `${{ … }}` filled from the test's secrets and event and the steps' outputs, a step's
 * `if:` judged on those outputs, and every step after a failed one skipped (GitHub's implied `success()`).
 * `uses:` steps install the runner's tools (checkout, Node.js, the Pulumi CLI): the test's PATH has them instead.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { recipe } from "./code-blocks";

export interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}

export interface JobContext {
  /** `${{ secrets.NAME }}`. */
  secrets: Record<string, string>;
  /** `${{ github.… }}`: `github.token`, `github.event.…`. */
  github: Record<string, unknown>;
}

export interface JobOptions {
  cwd: string;
  /** Where GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are written. */
  scratch: string;
  context: JobContext;
  /**
   * What the runner and this machine give every step, besides what the workflow sets: PATH, HOME, GITHUB_API_URL…
   * (the caller's list, see user-env.ts).
   */
  runnerEnv: Record<string, string>;
  /** Workflow-level `env:` values the test replaces (a backend URL of its own), each said by the caller. */
  replaceEnv?: Record<string, string>;
  /** A change the test makes to each step's script (stack names of its own), said by the caller. */
  editScript?: (script: string) => string;
  /** `run:` steps the test does not run, and why (`npm ci`: the harness installed the project). */
  skip?: (step: Step) => string | undefined;
}

export interface StepRun {
  name: string;
  /** "ran", "skipped: <why>". */
  how: string;
  code?: number | null;
  output?: string;
}

export interface JobRun {
  steps: StepRun[];
  /** Whether the job failed (a step exited other than 0). */
  failed: boolean;
  /** What the steps wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
}

/** `a.b.c` of `context`; a name the test did not give fails the test, saying which. */
function lookup(expression: string, context: Record<string, unknown>): string {
  let value: unknown = context;
  for (const part of expression.trim().split(".")) {
    if (value === null || typeof value !== "object" || !(part in value))
      throw new Error(`the workflow reads \${{ ${expression.trim()} }}, which the test does not give`);
    value = (value as Record<string, unknown>)[part];
  }
  return String(value);
}

const fill = (text: string, context: Record<string, unknown>): string =>
  text.replace(/\$\{\{([^}]*)\}\}/g, (_, expression: string) => lookup(expression, context));

/** A step's `if:`: comparisons of outputs with `!=` or `==`, joined by `||`; anything else fails the test. */
function holds(condition: string, context: Record<string, unknown>): boolean {
  return condition.split("||").some((clause) => {
    const m = /^\s*([\w.-]+)\s*(!=|==)\s*'([^']*)'\s*$/.exec(clause);
    if (!m) throw new Error(`the test cannot judge the step condition '${condition}'`);
    return (lookup(m[1]!, context) === m[3]) === (m[2] === "==");
  });
}

/** `jobs.<job>` of the workflow in the docs block `recipeAddress`, run step by step. */
export async function runWorkflowJob(
  recipeAddress: string,
  job: string,
  options: JobOptions,
): Promise<JobRun> {
  const workflow = parse(recipe(recipeAddress)) as {
    env?: Record<string, string>;
    jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
  };
  const steps = workflow.jobs[job]?.steps;
  if (!steps) throw new Error(`${recipeAddress} has no job ${job}`);
  const outputs: Record<string, { outputs: Record<string, string> }> = {};
  const context = (): Record<string, unknown> => ({ ...options.context, steps: outputs });
  const workflowEnv = { ...workflow.env, ...workflow.jobs[job]!.env, ...options.replaceEnv };
  const summaryFile = path.join(options.scratch, "step-summary.md");
  fs.writeFileSync(summaryFile, "");
  const runs: StepRun[] = [];
  let failed = false;
  for (const [index, step] of steps.entries()) {
    const name = step.name ?? step.run?.split("\n")[0] ?? step.uses ?? `step ${index + 1}`;
    const skipped = step.uses
      ? "the runner's tools: on the test's PATH"
      : failed
        ? "an earlier step failed"
        : (options.skip?.(step) ??
          (step.if !== undefined && !holds(step.if, context()) ? `if: ${step.if}` : undefined));
    if (skipped !== undefined) {
      runs.push({ name, how: `skipped: ${skipped}` });
      continue;
    }
    const outputFile = path.join(options.scratch, `output-${index}`);
    fs.writeFileSync(outputFile, "");
    const env: Record<string, string> = { ...options.runnerEnv };
    for (const [key, value] of Object.entries({ ...workflowEnv, ...step.env }))
      env[key] = fill(String(value), context());
    env.GITHUB_OUTPUT = outputFile;
    env.GITHUB_STEP_SUMMARY = summaryFile;
    const script = (options.editScript ?? ((text: string) => text))(fill(step.run!, context()));
    const { code, output } = await bash(script, options.cwd, env);
    runs.push({ name, how: "ran", code, output });
    if (step.id) {
      const lines = fs.readFileSync(outputFile, "utf8").split("\n");
      outputs[step.id] = {
        outputs: Object.fromEntries(lines.filter((l) => l.includes("=")).map((l) => l.split(/=(.*)/s, 2))),
      };
    }
    if (code !== 0) failed = true;
  }
  return { steps: runs, failed, summary: fs.readFileSync(summaryFile, "utf8") };
}

/** GitHub's `shell: bash`, in `cwd`, with exactly `env`. */
function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}
