/**
 * `npx <command>` as a user's project with the package installed runs it, for the package's commands a workflow
 * calls: the checkout's built bin (dist/), with the arguments given. Any other command fails, naming it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./code-blocks";

const COMMANDS: Record<string, string> = {
  "rimuhosting-bill": "dist/provider/bill/cli.js",
  "rimuhosting-drift": "dist/provider/drift/cli.js",
};

/** Writes `npx` into `binDir` (to be first on PATH). */
export function writeNpxStandIn(binDir: string): void {
  const cases = Object.entries(COMMANDS)
    .map(([name, file]) => `  ${name}) shift; exec node "${path.join(REPO_ROOT, file)}" "$@" ;;`)
    .join("\n");
  fs.mkdirSync(binDir, { recursive: true });
  fs.writeFileSync(
    path.join(binDir, "npx"),
    `#!/bin/sh\ncase "$1" in\n${cases}\n  *) echo "npx stand-in: unknown command $1" >&2; exit 1 ;;\nesac\n`,
    { mode: 0o755 },
  );
}
