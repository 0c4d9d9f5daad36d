// Jest-only (kept out of e2e-support, which the demo also loads outside jest).
import { describe, test } from "@jest/globals";
import { findPulumiCli } from "./cli-stack";
import { findLanguageHosts, type LanguageHosts } from "./language-programs";
import { availableBackends, type Backend } from "./stack-driver";

/**
 * The scenarios of one example, through the real CLI when one is on PATH. Without one they are reported as skipped,
 * with the reason in the name; with CI=true availableBackends() throws instead, so CI never skips them. (Named for
 * the time a CLI-less harness ran them too; the body still receives the backend, "cli".)
 */
export function describeEachBackend(example: string, body: (backend: Backend) => void): void {
  const { backends, cliSkipReason } = availableBackends();
  if (cliSkipReason) {
    // Skipped only on a machine with no `pulumi` binary (scripts/pulumi-cli.sh builds one); the reason is in the name.
    describe.skip(`${example} via the pulumi CLI (skipped: ${cliSkipReason})`, () => {
      test("all scenarios", () => undefined);
    });
  }
  if (backends.length > 0) describe.each(backends)(`${example} via %s`, body);
}

/**
 * A describe for scenarios that drive the `pulumi` command directly (its lock, pending operations and `pulumi
 * cancel`, its own display): run when a CLI is on PATH, reported as skipped with the reason in the name otherwise.
 */
export function describeCliOnly(title: string, body: () => void): void {
  const { backends, cliSkipReason } = availableBackends();
  if (backends.includes("cli")) describe(`${title} (real CLI)`, body);
  // Skipped only without a `pulumi` on PATH; the reason is in the name.
  else describe.skip(`${title} (skipped: ${cliSkipReason})`, body);
}

/**
 * A describe for programs in YAML, Go and Python through the real CLI (language-programs.ts): run when `pulumi` and
 * the language hosts of scripts/language-hosts.sh are on PATH, reported as skipped with the reason otherwise. With
 * CI=true a missing CLI or host is an error instead, so CI never skips them.
 */
export function describeWithLanguageHosts(title: string, body: (hosts: LanguageHosts) => void): void {
  const cli = findPulumiCli();
  const { hosts, reason: hostsReason } = findLanguageHosts();
  const reason = cli.reason ?? hostsReason;
  if (hosts && !reason) return describe(`${title} (real CLI)`, () => body(hosts));
  if (process.env.CI === "true")
    throw new Error(
      `programs in other languages must run through the real CLI in CI, but there is ${reason}`,
    );
  // Skipped only without the CLI or the hosts on PATH (scripts/pulumi-cli.sh, scripts/language-hosts.sh).
  describe.skip(`${title} (skipped: ${reason})`, () => {
    test("all scenarios", () => undefined);
  });
}
