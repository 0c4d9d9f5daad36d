// Where scripts/language-hosts.sh put the YAML, Go and Python language hosts and their Python virtual environment:
// the directory on PATH that holds them. The release build (its Python SDK packages) and the end-to-end harness
// both look them up here.
import * as fs from "node:fs";
import * as path from "node:path";

/** What scripts/language-hosts.sh provides: its bin directory, and the Python virtual environment beside it. */
export interface LanguageHosts {
  /** Holds pulumi-language-yaml, -go, -python and the Python runner; goes on PATH beside `pulumi`. */
  bin: string;
  /** The virtual environment with the PyPI `pulumi` package (and what generated SDKs require beside it). */
  pythonVenv: string;
}

const HOST_FILES = [
  "pulumi-language-yaml",
  "pulumi-language-go",
  "pulumi-language-python",
  "pulumi-language-python-exec",
];

/** The language hosts on PATH (all of them, with their Python virtual environment), or why they cannot be used. */
export function findLanguageHosts(env: NodeJS.ProcessEnv = process.env): {
  hosts?: LanguageHosts;
  reason?: string;
} {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir || !fs.existsSync(path.join(dir, HOST_FILES[0]!))) continue;
    const missing = HOST_FILES.filter((file) => !isExecutable(path.join(dir, file)));
    if (missing.length > 0)
      return { reason: `${dir} lacks ${missing.join(", ")} (run scripts/language-hosts.sh)` };
    const pythonVenv = path.join(dir, "..", "python-venv");
    if (!isExecutable(path.join(pythonVenv, "bin", "python")))
      return { reason: `${pythonVenv} is not a Python virtual environment (run scripts/language-hosts.sh)` };
    return { hosts: { bin: dir, pythonVenv: fs.realpathSync(pythonVenv) } };
  }
  return {
    reason:
      "no pulumi-language-yaml on PATH (scripts/language-hosts.sh builds the YAML, Go and Python hosts and prints " +
      "the directory to put on PATH)",
  };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
