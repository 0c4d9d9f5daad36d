/**
 * Nothing the build writes into dist/ refers to a file the build does not write (issue 82). Under jest a path the
 * harness computes from `__dirname` lands in the sources, where every file is; from dist/ it lands in the built tree,
 * where only what `npm run build` emits is: the demo passed `--require dist/test/helpers/lazy-typescript.js` in every
 * command's NODE_OPTIONS, a file tsc did not emit, and every Node process the CLI started died.
 *
 * What the build emits is what tsc compiles for tsconfig.build.json (its program's own files, as dist/<path>.js or
 * .json), plus what the build's other steps write (dist/vendor: got, bundled; dist/node10-types). The npm scripts'
 * own build (`npm test`'s typecheck) writes more into dist/ (the test files), so the check asks tsc which files the
 * build's program holds rather than looking at what dist/ happens to hold. In each emitted JavaScript file:
 * - every `require("…")` and `import("…")` of a literal specifier resolves (Node's resolution, from the file), and a
 *   file it resolves to in dist/ is emitted;
 * - every file path made of `__dirname` and literals (`path.join(__dirname, "..", "helpers", "lazy-typescript.js")`,
 *   the one NODE_OPTIONS' `--require` names) or of the repository's root and `"dist/…"` names an emitted file (or,
 *   outside dist/, one the checkout holds). Folders are left out: the harness tries several where examples live.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../engine/native-programs";

const DIST = path.join(REPO_ROOT, "dist");
/** What the build writes besides tsc's output (package.json's build script). */
const OTHER_STEPS = ["vendor", "node10-types"].map((dir) => path.join(DIST, dir) + path.sep);
/** A path names a file the code loads or runs when it ends so. */
const FILE_PATH = /\.(js|cjs|mjs|json|node)$/;

/** The files `tsc -p tsconfig.build.json` writes, absolute, from its program (no type check). */
function buildOutputs(configFile = path.join(REPO_ROOT, "tsconfig.build.json")): Set<string> {
  const config = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  return new Set(
    program
      .getSourceFiles()
      .filter((file) => !file.isDeclarationFile && !file.fileName.includes("/node_modules/"))
      .map((file) => path.join(DIST, path.relative(REPO_ROOT, file.fileName)).replace(/\.[cm]?ts$/, ".js")),
  );
}

/** A call's text, one line. */
const shown = (node: ts.Node, source: ts.SourceFile) => node.getText(source).replace(/\s+/g, " ");

/** What one built file refers to that the build does not emit: "<call> (<target>): <why>". */
function danglingReferences(file: string, emitted: Set<string>): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const inBuild = (target: string) =>
    !target.startsWith(DIST + path.sep) ||
    emitted.has(target) ||
    OTHER_STEPS.some((dir) => target.startsWith(dir));
  const requireFrom = createRequire(file);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const [first, ...rest] = node.arguments;
      const callee = node.expression;
      const loads =
        (ts.isIdentifier(callee) && callee.text === "require") || callee.kind === ts.SyntaxKind.ImportKeyword;
      if (loads && first && ts.isStringLiteral(first) && !first.text.startsWith("node:")) {
        let target: string | undefined;
        try {
          target = requireFrom.resolve(first.text);
        } catch {
          found.push(`${shown(node, source)}: does not resolve`);
        }
        if (target && !inBuild(target))
          found.push(`${shown(node, source)}: ${path.relative(REPO_ROOT, target)} is not built`);
      }
      const joins =
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === "path" &&
        ["join", "resolve"].includes(callee.name.text);
      const parts = rest.every((arg) => ts.isStringLiteral(arg))
        ? rest.map((arg) => (arg as ts.StringLiteral).text)
        : [];
      if (joins && first && parts.length > 0 && FILE_PATH.test(parts.at(-1)!)) {
        const base = first.getText(source);
        // __dirname: beside the built file; the repository's root (REPO_ROOT, ROOT, …): only its "dist/…" paths
        const from =
          base === "__dirname"
            ? path.dirname(file)
            : /ROOT$/.test(base) && parts[0]!.startsWith("dist")
              ? REPO_ROOT
              : undefined;
        const target = from === undefined ? undefined : path.resolve(from, ...parts);
        if (target && !inBuild(target))
          found.push(`${shown(node, source)} (${path.relative(REPO_ROOT, target)}): not built`);
        else if (target && !target.startsWith(DIST + path.sep) && !fs.existsSync(target))
          found.push(`${shown(node, source)} (${path.relative(REPO_ROOT, target)}): no such file`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every emitted JavaScript file's dangling references, "dist/<file>: <reference>". */
function builtTreeFindings(emitted: Set<string>): string[] {
  return [...emitted]
    .filter((file) => file.endsWith(".js") && fs.existsSync(file))
    .sort()
    .flatMap((file) =>
      danglingReferences(file, emitted).map((ref) => `${path.relative(REPO_ROOT, file)}: ${ref}`),
    );
}

describe("the built tree (npm run build's dist/)", () => {
  const emitted = buildOutputs();

  it("has every file the build's program emits (npm test has built it)", () => {
    const missing = [...emitted]
      .filter((file) => !fs.existsSync(file))
      .map((f) => path.relative(REPO_ROOT, f));
    expect(missing).toEqual([]);
  });

  it("refers to no file the build does not emit: requires, imports, and file paths such as NODE_OPTIONS' --require", () => {
    expect(builtTreeFindings(emitted)).toEqual([]);
  });

  it("sees the --require the demo's commands pass (test/helpers/lazy-typescript.js), and that it is built", () => {
    const cliStack = path.join(DIST, "test", "engine", "cli-stack.js");
    expect(fs.readFileSync(cliStack, "utf8")).toContain(
      'path.join(__dirname, "..", "helpers", "lazy-typescript.js")',
    );
    expect(emitted.has(path.join(DIST, "test", "helpers", "lazy-typescript.js"))).toBe(true);
  });
});
