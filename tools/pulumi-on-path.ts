// The real pulumi CLI and the YAML, Go and Python language hosts, for the commands that need them (`npm run demo`,
// `npm test`): the ones on PATH, else the ones scripts/pulumi-cli.sh and scripts/language-hosts.sh build with Go
// from the Go module proxy, into a cache outside the clone (10-20 minutes each the first time, seconds after).
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { findPulumiCli } from "../test/engine/cli-stack";
import { findLanguageHosts } from "./release/language-hosts";

/** The repository root, from the built copy (dist/tools), which is what the npm scripts run. */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

/**
 * The directory a set-up script printed, read from its standard output: its last line (scripts/lib/printed-dir.sh
 * checks that line before printing it; .ci/run reads it with `tail -n 1`). Undefined when it printed nothing.
 */
export function printedDir(stdout: string): string | undefined {
  return stdout.trim().split("\n").at(-1) || undefined;
}

/** What one of the tools is, how to find it on PATH, and the script that builds it. */
interface Tool {
  what: string;
  script: string;
  /** Why it is not on PATH, or undefined when it is. */
  missing: () => string | undefined;
}

const CLI: Tool = {
  what: "the pulumi CLI",
  script: "scripts/pulumi-cli.sh",
  missing: () => findPulumiCli().reason,
};

const HOSTS: Tool = {
  what: "the YAML, Go and Python language hosts",
  script: "scripts/language-hosts.sh",
  missing: () => findLanguageHosts().reason,
};

/**
 * Puts `tool` first on this process's PATH (children inherit it): nothing to do when it is there already, else its
 * script builds it (its progress on stderr as it comes) and the directory it prints on its last line goes on PATH.
 * Throws, naming the script and what it needs, when the script fails.
 */
function ensureOnPath(tool: Tool, say: (line: string) => void, command: string): void {
  const reason = tool.missing();
  if (reason === undefined) return;
  say(
    `${command}: ${reason}. Building ${tool.what} with ${tool.script} (Go; 10-20 minutes the first time, cached after).`,
  );
  const built = spawnSync("bash", [path.join(REPO_ROOT, tool.script)], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  const dir = printedDir(built.stdout ?? "");
  if (built.status !== 0 || !dir)
    throw new Error(
      `${command} needs ${tool.what}, and ${tool.script} could not build it ` +
        `(${built.error?.message ?? `exit ${built.status}`}; its message is above). Install Go >= 1.26 (with the Go ` +
        `module proxy reachable), or put ${tool.what} on PATH (\`export PATH="$(${tool.script} | tail -n 1):$PATH"\`), ` +
        `then run \`${command}\` again.`,
    );
  process.env.PATH = `${dir}${path.delimiter}${process.env.PATH ?? ""}`;
}

/** The pulumi CLI on PATH (built when it is not); returns its directory. */
export function ensurePulumiCli(say: (line: string) => void, command: string): string {
  ensureOnPath(CLI, say, command);
  return path.dirname(findPulumiCli().path!);
}

/** The language hosts on PATH (built when they are not; they are matched to the CLI, which must be there first). */
export function ensureLanguageHosts(say: (line: string) => void, command: string): void {
  ensureOnPath(HOSTS, say, command);
}
