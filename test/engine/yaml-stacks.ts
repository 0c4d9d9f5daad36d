// Stacks of YAML programs (the native plugin) for CLI tests: each a project of its own in a directory of its own under
// the test's scratch directory, on a file backend there or on a team backend (PostgreSQL, S3), against the emulator's
// demo account with the API key in the environment.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { CliStack } from "./cli-stack";
import { PLUGIN_VERSION, pluginEntry } from "./native-programs";
import type { TeamBackend } from "./team-backends";

export interface YamlStacks {
  scratch: string;
  /** The emulator's base URL (`rimuhosting:baseUrl`). */
  baseUrl: string;
  /** A team backend; none: a file backend under `scratch`. */
  backend?: TeamBackend;
  /** Every stack made, for the test to close. */
  made: CliStack[];
}

/**
 * A stack `name` of a YAML project of its own with `resources` (YAML resource entries; "" for none); `write` sets
 * them again.
 */
export async function yamlStack(
  where: YamlStacks,
  name: string,
  resources: string,
  env: Record<string, string> = {},
): Promise<{ stack: CliStack; write: (resources: string) => void }> {
  const dir = path.join(where.scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  const write = (text: string) =>
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: ${name}\nruntime: yaml\n${pluginEntry(PLUGIN_VERSION)}` +
        (text === "" ? "outputs:\n  none: 0\n" : `resources:\n${text}`),
    );
  write(resources);
  const stack = await CliStack.create({
    programDir: dir,
    stackName: name,
    backendDir: path.join(where.scratch, "backend", name),
    backendUrl: where.backend?.url,
    env: { ...where.backend?.env, ...env, [ENV_VARS.apiKey]: DEMO_API_KEY },
    config: { "rimuhosting:baseUrl": where.baseUrl },
  });
  where.made.push(stack);
  return { stack, write };
}
