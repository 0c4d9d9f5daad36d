/**
 * `npm run schema`: writes provider/native/schema.json from the field table and the data sources
 * (package-schema.ts), then marks the checkout's plugin directory as changed (plugin-dir.ts), so a `pulumi`
 * that cached the old schema loads the new one. test/native/schema.test.ts fails while the file is stale, and
 * test/native/sdk.test.ts while the SDKs in sdk/ are not what `npm run sdk` makes of it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { packageSchema } from "./package-schema.js";
import { markPluginChanged, REPO_ROOT, SCHEMA_FILE } from "./plugin-dir.js";

/** The schema as the file holds it (stable key order, two-space indent, trailing newline). */
export function schemaText(): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  return `${JSON.stringify(packageSchema(REPO_ROOT, version), null, 2)}\n`;
}

if (require.main === module) {
  const text = schemaText();
  fs.writeFileSync(SCHEMA_FILE, text);
  // The built plugin serves the copy the compiler put beside it: refresh it too, so no rebuild is needed.
  const built = path.join(__dirname, "../schema.json");
  if (built !== SCHEMA_FILE && fs.existsSync(built)) fs.writeFileSync(built, text);
  markPluginChanged();
  const schema = JSON.parse(text) as { resources: object; functions: object; types: object };
  console.log(
    `${path.relative(process.cwd(), SCHEMA_FILE)}: ${Object.keys(schema.resources).length} resource, ` +
      `${Object.keys(schema.functions).length} functions, ${Object.keys(schema.types).length} types, ${text.length} bytes`,
  );
}
