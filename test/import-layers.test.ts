/**
 * The import graph of the package's sources (contract/, provider/, emulator/) and of the code beside them that
 * drives them (tools/, bench/, the test harness in test/helpers/ and test/engine/): no cycle, not even of type
 * imports, and every import going the allowed way. The rules are the table below, so a new folder (the native
 * plugin's provider/native/) is one line. Test files (*.test.ts) are not in the graph: nothing imports them.
 * ESLint's rule for the emulator says the same for one folder at lint time; this checks every folder, and
 * cycles, in the test run.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import * as ts from "typescript";

const ROOT = resolve(__dirname, "..");
const SOURCES = ["contract", "provider", "emulator", "tools", "bench", "test/helpers", "test/engine"];

/**
 * What each part may import besides itself. A file belongs to the longest part its path starts with. The
 * layers, from the bottom: the wire contract; beside each other on it, the emulator and the client; the
 * provider's shared pieces (config, wire mapping); the lifecycle (impl); the front ends on it (data sources,
 * the native plugin); the package's entry points. CORE is what the lifecycle stands on, the cost model (pure)
 * among it.
 *
 * provider/impl/ is in rooms (IMPL_ROOMS, each with its README.md), bottom up: a room may import the rooms
 * before it and CORE, never one after it nor the root (index.ts, the provider over the rooms, the test seams).
 */
const CORE = [
  "contract/",
  "provider/client/",
  "provider/config.ts",
  "provider/wire-mapping/",
  "provider/impl/cost/",
];
/** The rooms of provider/impl/, bottom up (provider/impl/README.md). */
const IMPL_ROOMS = [
  "provider/impl/fields/",
  "provider/impl/engine/",
  "provider/impl/inputs/",
  "provider/impl/account/",
  "provider/impl/budget/",
  "provider/impl/ownership/",
  "provider/impl/lifecycle/",
  "provider/impl/lookahead/",
  "provider/impl/ordering/",
];
/** The implementation: its rooms and its root. */
const IMPL = [...IMPL_ROOMS, "provider/impl/"];
/** Every part of the package (what its exports reach). */
const PACKAGE = [
  ...CORE,
  "emulator/",
  "provider/generated/",
  ...IMPL,
  "provider/data-sources/",
  "provider/native/",
  "provider/bill/",
  "provider/drift/",
  "provider/adopt/",
  "provider/",
];
const MAY_IMPORT: Record<string, readonly string[]> = {
  "contract/": [],
  "emulator/": ["contract/"],
  "provider/client/": ["contract/"],
  "provider/config.ts": ["provider/client/"],
  "provider/wire-mapping/": ["contract/", "provider/client/"],
  "provider/generated/": ["contract/"],
  // The cost model (money, the budget's settings, fees, the verdict): pure, so the bill and a pack can judge alike.
  "provider/impl/cost/": [],
  // Each room of the implementation: the rooms below it. The root: every room.
  ...Object.fromEntries(IMPL_ROOMS.map((room, i) => [room, [...CORE, ...IMPL_ROOMS.slice(0, i)]])),
  "provider/impl/": [...CORE, ...IMPL_ROOMS],
  "provider/data-sources/": [...CORE, ...IMPL],
  // The bill of a preview (rimuhosting-bill): reads `pulumi preview --event-log`, judges as impl does.
  "provider/bill/": [...CORE, ...IMPL],
  // The drift report (rimuhosting-drift): reads `pulumi refresh --preview-only --json`, writes money as impl does, and
  // reads its input as the bill does.
  "provider/drift/": [...CORE, ...IMPL, "provider/bill/"],
  // Adoption (rimuhosting-import-file): the account's VPSs as a `pulumi import --file` document.
  "provider/adopt/": [...CORE, ...IMPL],
  // The native plugin (pulumi-resource-rimuhosting) stands on the same core; nothing imports it.
  "provider/native/": [...CORE, "provider/generated/", ...IMPL, "provider/data-sources/"],
  // The package's entry points (index.ts, vps.ts, vps-shim.ts): anything of the dynamic provider.
  "provider/": [...CORE, "provider/generated/", ...IMPL, "provider/data-sources/"],
  // Beside the package, never imported by it. Shared test code (an emulator per test, a gRPC client of a
  // provider, waits), for tests, the end-to-end harness and the tools alike.
  "test/helpers/": [...PACKAGE],
  // The end-to-end harness: stacks through the real pulumi CLI, and the programs they run.
  "test/engine/": [...PACKAGE, "test/helpers/", "tools/release/"],
  // The generator reads the field table only: it must run while the package does not compile.
  "tools/generate/": ["contract/", "provider/client/", "provider/impl/fields/"],
  // The commands of package.json (demo, fault matrix, sweeps, benches) drive the same harness as the tests.
  // The release build (npm run release:build): the plugin's bundle and the artifacts around it. The bench and the
  // release tests measure and run what it builds, so it stands below them and imports no harness.
  "tools/release/": [...PACKAGE],
  "tools/": [...PACKAGE, "test/helpers/", "test/engine/", "tools/release/"],
  "bench/": [...PACKAGE, "test/helpers/", "test/engine/", "tools/release/"],
};

/** The package's own subpath exports, as the shim requires them at run time (package.json "exports"). */
const SELF = "pulumi-rimuhosting";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") && !path.endsWith(".test.ts") ? [path] : [];
  });
}

/** The part (a key of MAY_IMPORT) a file belongs to: the longest matching prefix. */
function partOf(file: string): string {
  const path = relative(ROOT, file);
  const parts = Object.keys(MAY_IMPORT).filter((part) => path === part || path.startsWith(part));
  if (parts.length === 0) throw new Error(`${path} belongs to no part of MAY_IMPORT: add a line for it`);
  return parts.sort((a, b) => b.length - a.length)[0]!;
}

/** Whether a file of `part` may import one of `to`. */
function mayImport(part: string, to: string): boolean {
  return to === part || MAY_IMPORT[part]!.includes(to);
}

/**
 * What the build writes beside the compiled sources and a source requires by its place there (from
 * dist/provider/client, dist/vendor/got.cjs is ../../vendor/got.cjs): another package's code, bundled.
 */
const BUILT = ["vendor/got.cjs"];

/** The file an import specifier names, or undefined for another package. */
function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith(".") && BUILT.includes(relative(ROOT, resolve(dirname(from), specifier))))
    return undefined;
  if (specifier.startsWith(".")) base = resolve(dirname(from), specifier);
  else if (specifier === SELF) base = join(ROOT, "provider/index");
  else if (specifier.startsWith(`${SELF}/`)) {
    const sub = specifier.slice(SELF.length + 1);
    base = join(ROOT, sub === "contract" || sub === "emulator" ? sub : `provider/${sub}`, "index");
  } else return undefined;
  base = base.replace(/\.js$/, "");
  // A plain CommonJS helper (test/helpers/*.js, which jest's setup files share) is its own file.
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), base, `${base}.js`])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  throw new Error(`${relative(ROOT, from)} imports "${specifier}", which is not a file`);
}

/** Every import, re-export, require() and import() of every source file, resolved to files of ours. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of SOURCES.flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = importedFiles.map((i) => resolveImport(file, i.fileName));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== undefined))]);
  }
  return graph;
}

/** The cycles of the graph: its strongly connected components of more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(relative(ROOT, member));
      if (member === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe("the import graph of the package, tools/, bench/ and the test harness", () => {
  const graph = importGraph();

  it("has no cycle (type imports included)", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("imports only the way the layers allow", () => {
    const wrongWay: string[] = [];
    for (const [file, targets] of graph) {
      const part = partOf(file);
      for (const target of targets) {
        const to = partOf(target);
        if (!mayImport(part, to))
          wrongWay.push(
            `${relative(ROOT, file)} -> ${relative(ROOT, target)} (${part} may not import ${to})`,
          );
      }
    }
    expect(wrongWay).toEqual([]);
  });
});

describe("the rooms of provider/impl/", () => {
  const tsFiles = (dir: string) => readdirSync(join(ROOT, dir)).filter((name) => name.endsWith(".ts"));

  it("each has its README.md and at most 15 files; the root holds only what the README names", () => {
    const rooms = [...IMPL_ROOMS, "provider/impl/cost/"];
    expect(rooms.filter((room) => !existsSync(join(ROOT, room, "README.md")))).toEqual([]);
    expect(rooms.filter((room) => tsFiles(room).length > 15)).toEqual([]);
    expect(tsFiles("provider/impl").sort()).toEqual([
      "index.ts",
      "testing.ts",
      "vps-check.ts",
      "vps-provider.ts",
    ]);
    const folders = readdirSync(join(ROOT, "provider/impl")).filter((name) =>
      statSync(join(ROOT, "provider/impl", name)).isDirectory(),
    );
    expect(folders.map((name) => `provider/impl/${name}/`).sort()).toEqual(rooms.sort());
  });

  it("lets a room import the rooms below it, and fails an import against the direction", () => {
    expect(
      mayImport(partOf(join(ROOT, "provider/impl/lookahead/vps-lookahead.ts")), "provider/impl/lifecycle/"),
    ).toBe(true);
    expect(
      mayImport(partOf(join(ROOT, "provider/impl/inputs/vps-changes.ts")), "provider/impl/engine/"),
    ).toBe(true);
    expect(mayImport(partOf(join(ROOT, "provider/impl/engine/errors.ts")), "provider/impl/inputs/")).toBe(
      false,
    );
    expect(
      mayImport(partOf(join(ROOT, "provider/impl/lifecycle/vps-create.ts")), "provider/impl/lookahead/"),
    ).toBe(false);
    expect(mayImport(partOf(join(ROOT, "provider/impl/budget/budget.ts")), "provider/impl/")).toBe(false);
    expect(mayImport(partOf(join(ROOT, "provider/impl/cost/fee.ts")), "provider/impl/fields/")).toBe(false);
    expect(mayImport(partOf(join(ROOT, "tools/generate/index.ts")), "provider/impl/inputs/")).toBe(false);
  });
});
