/**
 * Parts of the plugin that are loaded only when they are used, so that the provider's start does not load them
 * (the commands' code, and @pulumi/pulumi, which only the functions use, from the first Invoke): each part is a
 * module of dist/ with its dependencies, bundled on its own (pack.ts, bundleParts).
 * loadPart() finds it wherever the plugin runs:
 * - in the release's self-contained executable, as a SEA asset `<name>.js` (tools/release/plugin-executable.ts);
 * - in the launcher tarball (`npm run plugin:pack`), as the file `<name>.js` beside the plugin's bundle;
 * - in a checkout (bin/), as the compiled module itself.
 *
 * To add a part: an entry in PARTS (its module under dist/), and `loadPart("<name>")` where it is needed. The
 * bundles and the executable pick up every entry.
 */
import * as path from "node:path";
import * as vm from "node:vm";

/** Each part's entry module, relative to dist/ (what `npm run build` compiles it to). */
export const PARTS = {
  /** `pulumi-resource-rimuhosting emulator`: the emulator and its web server (fastify). */
  emulator: "emulator/plugin-command.js",
  /** `pulumi-resource-rimuhosting bill`: the bill of a preview (rimuhosting-bill). */
  bill: "provider/bill/plugin-command.js",
  /** `pulumi-resource-rimuhosting drift`: the drift of a refresh (rimuhosting-drift). */
  drift: "provider/drift/plugin-command.js",
  /** `pulumi-resource-rimuhosting import-file`: the account's VPSs as a `pulumi import --file` document. */
  "import-file": "provider/adopt/plugin-command.js",
  /** `pulumi-resource-rimuhosting killed-orders`: cancels a killed run's orders a destroy cannot reach. */
  "killed-orders": "provider/adopt/killed-orders-plugin-command.js",
  /**
   * @pulumi/pulumi itself, which only the functions use: the plugin's bundle requires this part in its place
   * (pack.ts), so it loads with the first Invoke, not at start.
   */
  pulumi: "provider/native/pulumi-sdk.js",
} as const;
export type PartName = keyof typeof PARTS;

/** The name of a part's bundle: the SEA asset's key, and the file beside the launcher's bundle. */
export const partFileName = (name: PartName): string => `${name}.js`;

/**
 * `true` in the plugin's bundle (pack.ts's esbuild `define`), where the parts are bundles of their own beside it,
 * not the modules of dist/.
 */
declare const RIMU_PLUGIN_BUNDLE: boolean | undefined;
const inBundle = typeof RIMU_PLUGIN_BUNDLE !== "undefined" && RIMU_PLUGIN_BUNDLE;

/** node:sea when this process is a single executable application (Node 22's is there, and says it is not one). */
function seaAssets(): { getAsset(key: string, encoding: "utf8"): string } | undefined {
  try {
    const sea = require("node:sea") as { isSea(): boolean; getAsset(key: string, encoding: "utf8"): string };
    return sea.isSea() ? sea : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Evaluates a CommonJS bundle held as text, as Node would load it from a file. The executable's `require` loads
 * only Node's built-in modules, which is all a part's bundle asks for (its dependencies are inside it).
 */
function evaluateBundle(source: string, filename: string): unknown {
  const wrapper = vm.compileFunction(source, ["exports", "require", "module", "__filename", "__dirname"], {
    filename,
  }) as (
    exports: object,
    req: NodeJS.Require,
    module: { exports: object },
    file: string,
    dir: string,
  ) => void;
  const loadedModule = { exports: {} };
  wrapper(loadedModule.exports, require, loadedModule, filename, path.dirname(filename));
  return loadedModule.exports;
}

/** Per process on purpose: the plugin's modules, loaded with their first call (code, not what a run learnt). */
const loaded = new Map<PartName, unknown>();

/** The exports of part `name`, loaded on the first call. */
export function loadPart<T>(name: PartName): T {
  if (!loaded.has(name)) {
    const file = partFileName(name);
    const sea = seaAssets();
    let partExports: unknown;
    if (sea)
      partExports = evaluateBundle(
        sea.getAsset(file, "utf8"),
        path.join(path.dirname(process.execPath), file),
      );
    else if (inBundle) partExports = require(path.join(__dirname, file)) as unknown;
    else partExports = require(path.join(__dirname, "../..", PARTS[name])) as unknown;
    loaded.set(name, partExports);
  }
  return loaded.get(name) as T;
}
