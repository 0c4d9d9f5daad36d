/**
 * Where the schema and the checkout's plugin live, and how a change of either reaches `pulumi`.
 *
 * The CLI caches a provider's schema in PULUMI_HOME/schemas/<name>-<version>.json and serves the cached copy
 * while the file is newer than the plugin's directory (its change time, which an install resets). A checkout
 * used through `plugins: providers: path: <checkout>/bin` keeps its version (0.1.0) while its schema
 * changes, so every build and every schema generation touches bin/: the directory's change time then moves
 * past any cached copy, and the next command asks the plugin again (test/native/schema-cache.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The repository root: the nearest directory above this file (sources or dist/) with the package's package.json. */
export const REPO_ROOT = packageRoot(__dirname);

function packageRoot(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (!fs.existsSync(manifest)) continue;
    if ((JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "pulumi-rimuhosting")
      return dir;
  }
  throw new Error(`no pulumi-rimuhosting package.json above ${from}`);
}
/** The generated schema, checked in. */
export const SCHEMA_FILE = path.join(REPO_ROOT, "provider/native/schema.json");
/** The checkout's plugin directory: the `pulumi-resource-rimuhosting` launcher. */
export const PLUGIN_DIR = path.join(REPO_ROOT, "bin");

/** Moves the plugin directory's change time to now, so schemas `pulumi` cached before are not used. */
export function markPluginChanged(dir = PLUGIN_DIR): void {
  // A copy of the package without bin/ (npm's `prepare` of an install from git has it) has nothing to mark.
  if (!fs.existsSync(dir)) return;
  const now = new Date();
  fs.utimesSync(dir, now, now);
}

if (require.main === module) markPluginChanged();
