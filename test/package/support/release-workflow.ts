/**
 * The facts of the release workflow (.github/workflows/release.yml) that the release depends on, checked on its
 * parsed YAML: what triggers it, that nothing is published before the tests and the build passed, that the files it
 * attaches and publishes are the ones `npm run release:build` wrote (as scripts/release-files.js reads them), the
 * two tags, and the permissions each job holds. actionlint (test/docs/workflows.test.ts) checks the syntax.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { REPO_ROOT } from "./offline-project";

export const RELEASE_WORKFLOW = path.join(REPO_ROOT, ".github/workflows/release.yml");
/** Where `npm run release:build` writes the release, and where scripts/release-files.js reads it by default. */
export const RELEASE_DIR = "dist/release";

export interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  environment?: string | { name?: string };
  steps?: Step[];
}
interface Workflow {
  on?: Record<string, unknown>;
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  jobs?: Record<string, Job>;
}

export const readReleaseWorkflow = (): string => fs.readFileSync(RELEASE_WORKFLOW, "utf8");

/** The job's step that names `name` (starts with it), or undefined. */
export function stepNamed(text: string, name: string): Step | undefined {
  const jobs = (parse(text) as Workflow).jobs ?? {};
  return Object.values(jobs)
    .flatMap((job) => job.steps ?? [])
    .find((step) => step.name?.startsWith(name));
}

const normalDir = (dir: unknown) => String(dir).replace(/^\.\//, "").replace(/\/+$/, "");

/** What is wrong with the release workflow's text, one sentence each; [] when nothing is. */
export function releaseWorkflowProblems(text: string): string[] {
  const problems: string[] = [];
  const workflow = parse(text) as Workflow;
  const jobs = workflow.jobs ?? {};
  const entries = Object.entries(jobs);
  const runs = (job: Job) => (job.steps ?? []).map((step) => step.run ?? "").join("\n");
  const uses = (job: Job, action: string) =>
    (job.steps ?? []).filter((s) => s.uses?.startsWith(`${action}@`));
  const stepRunning = (job: Job, pattern: RegExp) => (job.steps ?? []).find((s) => pattern.test(s.run ?? ""));
  const jobThat = (what: string, test: (job: Job) => boolean): [string, Job] | undefined => {
    const found = entries.filter(([, job]) => test(job));
    if (found.length !== 1) problems.push(`${found.length} jobs ${what}, not one`);
    return found[0];
  };
  const needsOf = (name: string, seen = new Set<string>()): Set<string> => {
    const needs = jobs[name]?.needs ?? [];
    for (const need of typeof needs === "string" ? [needs] : needs) {
      if (!seen.has(need)) needsOf(need, seen.add(need));
    }
    return seen;
  };
  const idToken = (job: Job) => job.permissions?.["id-token"] === "write";
  const environment = (job: Job) =>
    typeof job.environment === "string" ? job.environment : job.environment?.name;

  // Triggers: a pushed tag vX.Y.Z, or a run by hand.
  const tags = (workflow.on?.push as { tags?: string[] } | undefined)?.tags;
  if (JSON.stringify(tags) !== JSON.stringify(["v*"]))
    problems.push(`on.push.tags is ${JSON.stringify(tags)}, not ["v*"]`);
  if (!workflow.on || !("workflow_dispatch" in workflow.on))
    problems.push("it cannot be run by hand (workflow_dispatch)");
  if (JSON.stringify(workflow.permissions) !== JSON.stringify({ contents: "read" })) {
    problems.push("the workflow's default permissions are not contents: read only");
  }

  // The build: the tests, then release:build, checked, handed on as one artifact.
  const build = jobThat("run .ci/run", (job) => /(^|\s)\.ci\/run\s*$/m.test(runs(job)));
  if (build) {
    const [name, job] = build;
    const script = runs(job);
    const at = (pattern: RegExp) => script.search(pattern);
    if (at(/npm run release:build\b/) < at(/\.ci\/run/))
      problems.push(`${name} does not run npm run release:build after .ci/run`);
    if (at(/node scripts\/release-files\.js check\b/) < at(/npm run release:build\b/)) {
      problems.push(`${name} does not check the release (release-files.js check) after building it`);
    }
    if (
      at(/scripts\/node-from-nodejs-org\.sh\b/) < 0 ||
      at(/scripts\/node-from-nodejs-org\.sh\b/) > at(/npm run release:build\b/)
    )
      problems.push(
        `${name} does not take Node from nodejs.org (node-from-nodejs-org.sh) before release:build`,
      );
    const building = stepRunning(job, /npm run release:build\b/);
    if (!/\$\{\{\s*runner\.temp\s*\}\}\/node-from-nodejs-org/.test(building?.env?.RELEASE_NODE_CACHE ?? ""))
      problems.push(`${name} does not build with the Node of nodejs.org (RELEASE_NODE_CACHE)`);
    const upload = uses(job, "actions/upload-artifact");
    if (upload.length !== 1 || normalDir(upload[0]!.with?.path) !== RELEASE_DIR) {
      problems.push(
        `${name} does not upload ${RELEASE_DIR}, where release:build writes, as its one artifact`,
      );
    }
  }

  // Signing: a job of its own after the build, the key in its signing step's environment and nowhere else, then
  // the signed release checked as a user checks it.
  const KEY = /\$\{\{\s*secrets\.RELEASE_SIGNING_KEY\s*\}\}/;
  const SIGNING = /node dist\/tools\/release\/sign\.js dist\/release\/SHA256SUMS\b/;
  const sign = jobThat("sign SHA256SUMS (sign.js)", (job) => SIGNING.test(runs(job)));
  if (sign) {
    const [name, job] = sign;
    const signing = stepRunning(job, SIGNING);
    if (!KEY.test(signing?.env?.RELEASE_SIGNING_KEY ?? ""))
      problems.push(`${name} does not give sign.js the signing key (RELEASE_SIGNING_KEY)`);
    const script = runs(job);
    const verifiedAt = script.search(/scripts\/verify-release\.sh --dir dist\/release\b/);
    if (verifiedAt < script.search(SIGNING))
      problems.push(`${name} does not verify the signed release (verify-release.sh --dir) after signing it`);
    if (/\bsudo\b/.test(script)) problems.push(`${name} runs something as root beside the key`);
    if (build && !needsOf(name).has(build[0])) problems.push(`${name} does not wait for ${build[0]}`);
  }
  const holdsKey = (env: Record<string, string> | undefined) =>
    Object.values(env ?? {}).some((v) => KEY.test(v));
  if (holdsKey(workflow.env)) problems.push("the workflow has the release key in its environment");
  for (const [name, job] of entries) {
    if (holdsKey(job.env))
      problems.push(`${name} has the release key in its environment (only the signing step may)`);
    for (const step of job.steps ?? [])
      if (holdsKey(step.env) && !(sign?.[0] === name && SIGNING.test(step.run ?? "")))
        problems.push(`${name} has the release key in its environment (only the signing step may)`);
  }

  // Every job that gets the release's files gets them where release-files.js reads them (the macOS and Windows
  // executables the build job takes in are not the release's files).
  for (const [name, job] of entries) {
    for (const download of uses(job, "actions/download-artifact")) {
      if (String(download.with?.pattern ?? "").startsWith("native-executables-")) continue;
      if (normalDir(download.with?.path) !== RELEASE_DIR)
        problems.push(`${name} downloads the release elsewhere than ${RELEASE_DIR}`);
    }
  }

  // Build provenance: an attestation of every file SHA256SUMS lists, before anything is published.
  const attest = jobThat(
    "use actions/attest-build-provenance",
    (job) => uses(job, "actions/attest-build-provenance").length > 0,
  );
  if (attest) {
    const [name, job] = attest;
    const action = uses(job, "actions/attest-build-provenance")[0]!;
    if (normalDir(action.with?.["subject-checksums"]) !== `${RELEASE_DIR}/SHA256SUMS`)
      problems.push(`${name} does not attest every file of SHA256SUMS (subject-checksums)`);
    if (!idToken(job) || job.permissions?.attestations !== "write")
      problems.push(`${name} lacks id-token: write and attestations: write`);
  }

  // Publishing: the GitHub release, npm, PyPI. Each only after the build passed, each rerunnable.
  const github = jobThat("run gh release upload", (job) => /gh release upload\b/.test(runs(job)));
  if (github) {
    const [name, job] = github;
    const script = runs(job);
    if (!/mapfile -t files < <\(node scripts\/release-files\.js github\)/.test(script)) {
      problems.push(`${name} does not attach the files release-files.js github lists`);
    }
    if (!/gh release upload "\$TAG" "\$\{files\[@\]\}" --clobber/.test(script)) {
      problems.push(`${name} does not attach them with --clobber (a rerun replaces them)`);
    }
    if (!/if ! gh release view "\$TAG"/.test(script))
      problems.push(`${name} creates the release even when it exists`);
    if (!/for tag in "\$TAG" "sdk\/\$TAG"; do/.test(script))
      problems.push(`${name} does not tag both vX.Y.Z and sdk/vX.Y.Z`);
    if (job.permissions?.contents !== "write")
      problems.push(`${name} cannot push tags or create the release (contents: write)`);
  }
  const npm = jobThat("run npm publish", (job) => /npm publish\b/.test(runs(job)));
  if (npm) {
    const [name, job] = npm;
    const script = runs(job);
    if (!/node scripts\/release-files\.js npm \| while read -r spec tarball/.test(script)) {
      problems.push(`${name} does not publish the tarballs release-files.js npm names`);
    }
    if (!/npm publish "\$tarball" --provenance/.test(script))
      problems.push(`${name} publishes without --provenance`);
    if (!/npm view "\$spec" version/.test(script))
      problems.push(`${name} does not skip a version npm already has`);
    if (!idToken(job)) problems.push(`${name} has no id-token: write (provenance, trusted publishing)`);
    for (const [, spec] of script.matchAll(/npm install --global (npm@\S*)/g))
      if (!/^npm@\d+\.\d+\.\d+$/.test(spec!))
        problems.push(`${name} installs ${spec}, not an exact version of npm`);
    if (!environment(job)) problems.push(`${name} runs in no environment`);
  }
  const pypi = jobThat(
    "use pypa/gh-action-pypi-publish",
    (job) => uses(job, "pypa/gh-action-pypi-publish").length > 0,
  );
  if (pypi) {
    const [name, job] = pypi;
    const copied = runs(job).match(/node scripts\/release-files\.js pypi (\S+)/)?.[1];
    const action = uses(job, "pypa/gh-action-pypi-publish")[0]!;
    if (!copied || normalDir(action.with?.["packages-dir"]) !== normalDir(copied)) {
      problems.push(`${name} does not publish the directory release-files.js pypi fills`);
    }
    if (action.with?.["skip-existing"] !== true) problems.push(`${name} fails on a rerun (skip-existing)`);
    if (!idToken(job)) problems.push(`${name} has no id-token: write (PyPI trusted publishing)`);
    if (!environment(job))
      problems.push(`${name} runs in no environment (PyPI's trusted publisher names one)`);
  }
  for (const published of [github, npm, pypi]) {
    if (published && build && !needsOf(published[0]).has(build[0])) {
      problems.push(`${published[0]} does not wait for ${build[0]} (it would publish what was not tested)`);
    }
    if (published && sign && !needsOf(published[0]).has(sign[0]))
      problems.push(`${published[0]} does not wait for ${sign[0]} (it would publish an unsigned release)`);
  }
  if (github && attest && !needsOf(github[0]).has(attest[0]))
    problems.push(`${github[0]} does not wait for ${attest[0]} (a release without its provenance)`);
  for (const published of [npm, pypi]) {
    if (published && github && !needsOf(published[0]).has(github[0])) {
      problems.push(
        `${published[0]} does not wait for ${github[0]} (an SDK would download a plugin not yet released)`,
      );
    }
  }
  for (const [name, job] of entries) {
    if (job.permissions?.contents === "write" && name !== github?.[0])
      problems.push(`${name} has contents: write`);
  }
  return problems;
}
