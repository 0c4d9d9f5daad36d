/**
 * kill -9 under a stream of creates and power-offs loses no acknowledged change and never reuses an
 * id. Runs the built CLI (needs `npm run build`, as `npm test` does first); the 30-trial version is
 * `node dist/tools/emulator-kill-trials.js 30`.
 */
import { runKillTrial } from "../../tools/emulator-kill-trials.js";

describe("state file under kill -9", () => {
  test.each([0.05, 0.4, 0.95])(
    "SIGKILL at a random moment (draw %s): every acknowledged create and power-off survives, no id reused",
    async (draw) => {
      const result = await runKillTrial(() => draw);
      expect(result.acknowledgedCreates).toBeGreaterThan(0);
      expect(result).toMatchObject({ lost: 0, reused: 0 });
    },
  );
});
