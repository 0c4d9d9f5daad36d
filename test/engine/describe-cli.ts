// Jest-only (kept out of e2e-support, which the demo also loads outside jest).
import { describe, test } from "@jest/globals";
import { findPulumiCli } from "./cli-stack";
import { findLanguageHosts, type LanguageHosts } from "../../tools/release/language-hosts";
import { cliSkipReason } from "./stack-driver";

/**
 * A describe for scenarios run through the real `pulumi` CLI (every end-to-end scenario): run when a CLI is on
 * PATH, reported as skipped with the reason in the name otherwise; with CI=true cliSkipReason() throws instead, so
 * CI never skips them.
 */
export function describeCliOnly(title: string, body: () => void): void {
  const reason = cliSkipReason();
  if (reason === undefined) describe(`${title} (real CLI)`, body);
  // Skipped only without a `pulumi` on PATH; the reason is in the name.
  else describe.skip(`${title} (skipped: ${reason})`, body);
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
