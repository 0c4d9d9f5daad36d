/**
 * The killed-orders command on a stack, as a user runs it in the project's directory with the stack's environment:
 * the plugin's command for the native front end, the npm package's for the dynamic one, both built
 * (bin/pulumi-resource-rimuhosting, dist/provider/adopt/killed-orders.js). Used by killed-destroy.test.ts and
 * stack-identity.test.ts.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import type { CliStack } from "./cli-stack";
import { REPO_ROOT } from "./native-programs";

/**
 * `killed-orders <args> --stack <stack>` (`--yes` by default), run in `cwd` (the stack's program directory unless
 * given: another copy of the project): its exit code, stdout, and both streams together.
 */
export function killedOrders(
  cli: CliStack,
  front: "yaml" | "dynamic",
  args: readonly string[] = ["--yes"],
  cwd: string = cli.programDir,
): Promise<{ code: number; stdout: string; text: string }> {
  const [file, command] =
    front === "yaml"
      ? [path.join(REPO_ROOT, "bin", "pulumi-resource-rimuhosting"), ["killed-orders"]]
      : [process.execPath, [path.join(REPO_ROOT, "dist/provider/adopt/killed-orders.js")]];
  return new Promise((resolve) =>
    execFile(
      file,
      [...command, ...args, "--stack", cli.name],
      { cwd, env: cli.commandEnv() },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          stdout,
          text: stdout + stderr,
        }),
    ),
  );
}
