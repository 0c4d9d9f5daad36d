// `bill` in the release's self-contained plugin (issue 33): on a machine where `node` cannot run, the linux-amd64
// executable of dist/release prints the same bill as the npm package's `rimuhosting-bill`, with the same exit code,
// from its own part (a SEA asset, provider/native/parts.ts).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { resized, vpsLog } from "../helpers/preview-log";
import { describeNative, REPO_ROOT } from "./native-programs";
import { ensureRelease, nodeHiddenBin, releaseSkipReason, target, unpack } from "./release-support";

jest.setTimeout(300_000);

/** A preview that resizes a $10 VPS to $16, with the budget at `budget`. */
const previewText = (budget: string): string =>
  vpsLog([resized(10, 16)], { "rimuhosting:monthlyBudgetUsd": budget });

const run = (command: string, args: string[]) => {
  const { status, stdout, stderr } = spawnSync(command, args, { encoding: "utf8", timeout: 60_000 });
  return { status, stdout, stderr };
};

// describeNative: skipped with the reason in the title off CI, an error with CI=true.
describeNative(
  "yaml",
  "the bill in the release's linux-amd64 plugin, with node hidden",
  () => {
    const scratch: string[] = [];
    afterAll(() => scratch.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

    test("prints what rimuhosting-bill prints, with the same exit codes", async () => {
      await ensureRelease();
      const hidden = nodeHiddenBin();
      const dir = unpack(target("linux-amd64"));
      const files = fs.mkdtempSync(path.join(os.tmpdir(), "release-bill-"));
      scratch.push(hidden, dir, files);
      const plugin = path.join(dir, "pulumi-resource-rimuhosting");
      for (const [name, budget, status] of [
        ["within.events", "20", 0],
        ["over.events", "15", 1],
      ] as const) {
        const file = path.join(files, name);
        fs.writeFileSync(file, previewText(budget));
        const fromPlugin = run(path.join(hidden, "without-node"), [plugin, "bill", file]);
        expect(fromPlugin.status).toBe(status);
        expect(fromPlugin).toEqual(
          run(process.execPath, [path.join(REPO_ROOT, "dist/provider/bill/cli.js"), file]),
        );
      }
    }, 1_800_000);
  },
  releaseSkipReason(),
);
