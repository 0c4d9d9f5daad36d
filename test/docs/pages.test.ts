// Pages meant to be read through stay short enough to be (issue 29): a newcomer's map of the house, the current
// benchmark figures, the README. What a page outgrows goes beside the code it explains (a folder's README.md), and
// history stays in git.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./support/code-blocks";

const KB = 1024;
const LIMITS: Array<[file: string, bytes: number]> = [
  ["README.md", 12 * KB],
  ["CONTRIBUTING.md", 20 * KB],
  ["docs/benchmarks.md", 15 * KB],
];

describe("pages read through", () => {
  it.each(LIMITS)("%s is at most %d bytes", (file, bytes) => {
    expect(fs.statSync(path.join(REPO_ROOT, file)).size).toBeLessThanOrEqual(bytes);
  });
});
