// Jest-only (kept out of e2e-support, which the demo also loads outside jest).
import { describe, test } from "@jest/globals";
import { availableBackends, type Backend } from "./stack-driver";

/**
 * `describe.each` over the backends this machine has: the harness always, the real CLI when one is on PATH. Without
 * a CLI its scenarios are reported as skipped, with the reason in the name.
 */
export function describeEachBackend(example: string, body: (backend: Backend) => void): void {
  const { backends, cliSkipReason } = availableBackends();
  if (cliSkipReason) {
    describe.skip(`${example} via the pulumi CLI (skipped: ${cliSkipReason})`, () => {
      test("all scenarios", () => undefined);
    });
  }
  describe.each(backends)(`${example} via %s`, body);
}
