// Reads the parts of Pulumi.yaml the language host needs: the project name and `main`.
// `main` is relative to Pulumi.yaml; when it names a directory the CLI runs the program with that directory as the
// working directory (and plugins start there too), when it names a file the program is that file (getPwdMain in the
// CLI). Only top-level scalar keys are read, which is all Pulumi.yaml needs for these programs.
import * as fs from "node:fs";
import * as path from "node:path";

export interface PulumiProject {
  name: string;
  runtime: string;
  /** Directory holding Pulumi.yaml (--root-directory). */
  rootDir: string;
  /** Working directory of the program and of the provider host. */
  pwd: string;
  /** Program argument for cmd/run: "." or a file path relative to pwd. */
  program: string;
}

function topLevelScalar(yaml: string, key: string): string | undefined {
  const m = new RegExp(`^${key}:[ \\t]*(.*)$`, "m").exec(yaml);
  if (!m?.[1]) return undefined;
  const raw = m[1].replace(/\s+#.*$/, "").trim();
  return raw.replace(/^(["'])(.*)\1$/, "$2") || undefined;
}

export function readPulumiProject(dir: string): PulumiProject {
  const rootDir = path.resolve(dir);
  const file = path.join(rootDir, "Pulumi.yaml");
  if (!fs.existsSync(file))
    throw new Error(`${file} not found: the program directory must contain a Pulumi.yaml`);
  const yaml = fs.readFileSync(file, "utf8");
  const name = topLevelScalar(yaml, "name");
  if (!name) throw new Error(`${file}: "name" is missing`);
  const runtime = topLevelScalar(yaml, "runtime") ?? /^runtime:\s*\n\s+name:\s*(\S+)/m.exec(yaml)?.[1] ?? "";
  if (runtime !== "nodejs")
    throw new Error(`${file}: runtime is "${runtime}"; the engine harness runs only nodejs`);
  const main = topLevelScalar(yaml, "main");
  if (!main) return { name, runtime, rootDir, pwd: rootDir, program: "." };
  const target = path.resolve(rootDir, main);
  if (!target.startsWith(rootDir)) throw new Error(`${file}: "main" must be a subfolder of the project`);
  if (fs.existsSync(target) && fs.statSync(target).isDirectory()) {
    return { name, runtime, rootDir, pwd: target, program: "." };
  }
  return { name, runtime, rootDir, pwd: rootDir, program: path.relative(rootDir, target) };
}
