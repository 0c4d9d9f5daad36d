// Plaintext stack config written straight into the stack's settings file, Pulumi.<stack>.yaml in the program
// directory, as `pulumi config set --plaintext` and `pulumi config rm` write it: the file is the stack's config (a
// user may edit it by hand), and the engine reads it at each operation. The end-to-end files set and remove config
// between most of their operations, and each `pulumi config` process took about 0.25 CPU-s, about 190 of them per
// test run. Secret values too, encrypted with the stack's data key where the harness's key service keys the stack
// (stack-keys.ts); on a stack keyed by a passphrase they go through the CLI. Tests of the `pulumi
// config` command itself (typed values, the docs' steps) run the CLI.
// test/engine/cli-stack.test.ts checks that the CLI reads back what is written here.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseDocument } from "yaml";

/** The project's name, from the program's Pulumi.yaml. */
function projectName(programDir: string): string {
  const project = parseDocument(fs.readFileSync(path.join(programDir, "Pulumi.yaml"), "utf8")).get("name");
  if (typeof project !== "string") throw new Error(`${programDir}/Pulumi.yaml names no project`);
  return project;
}

/** Sets the plaintext values `set` and removes the keys `removed` (a key that is not set is passed over). */
export function editStackConfigFile(
  programDir: string,
  stack: string,
  set: Record<string, string | { secure: string }>,
  removed: readonly string[] = [],
): void {
  if (Object.keys(set).length === 0 && removed.length === 0) return;
  // The key as the CLI stores it: one without a namespace (`memoryMb`) is the project's (`<project>:memoryMb`).
  let project: string | undefined;
  const stored = (key: string) =>
    key.includes(":") ? key : `${(project ??= projectName(programDir))}:${key}`;
  const file = path.join(programDir, `Pulumi.${stack}.yaml`);
  const doc = parseDocument(fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
  for (const [key, value] of Object.entries(set)) doc.setIn(["config", stored(key)], value);
  for (const key of removed) doc.deleteIn(["config", stored(key)]);
  fs.writeFileSync(file, doc.toString());
}
