/**
 * The generator: every file written from the Vps field table (provider/impl/fields/vps-fields.ts), checked in.
 *
 *   npm run generate     (compiles just this tool, tools/generate/tsconfig.json, then runs it)
 *
 * - provider/generated/vps-types.ts: VpsArgs, VpsFile, VpsTimeouts and the Vps class's declared outputs;
 * - provider/generated/vps-schema-types.json: the same as Pulumi package-schema fragments, for the
 *   native plugin's schema;
 * - docs/vps.md: the Inputs and Outputs lists and what a change of each kind does (between markers; the rest
 *   of the page is hand-written).
 *
 * test/provider/impl/vps-fields.test.ts renders them all in memory and fails on any difference. Compiled
 * on its own (not by the package build), so it still runs when the generated types are out of date and
 * the package would not compile.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { VPS_DOCS_PATH, renderVpsDocs } from "./vps-docs.js";
import { VPS_SCHEMA_PATH, renderVpsSchemaTypes } from "./vps-schema.js";
import { VPS_TYPES_PATH, renderVpsTypes } from "./vps-types.js";

/** Each generated file's path (from the repository root) and its content, given the current files. */
export function generatedFiles(read: (path: string) => string): Map<string, string> {
  return new Map([
    [VPS_TYPES_PATH, renderVpsTypes()],
    [VPS_SCHEMA_PATH, renderVpsSchemaTypes()],
    [VPS_DOCS_PATH, renderVpsDocs(read(VPS_DOCS_PATH))],
  ]);
}

if (require.main === module) {
  // From the source (tools/generate) or the built copy (dist/tools/generate).
  const root = resolve(__dirname, __dirname.includes(`${sep}dist${sep}`) ? "../../.." : "../..");
  const read = (path: string) => readFileSync(join(root, path), "utf8");
  for (const [path, content] of generatedFiles(read)) {
    let before: string | undefined;
    try {
      before = read(path);
    } catch {
      before = undefined;
    }
    if (before !== content) writeFileSync(join(root, path), content);
    console.log(`${path}: ${before === content ? "up to date" : "written"}`);
  }
}
