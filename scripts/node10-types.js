#!/usr/bin/env node
/**
 * Writes dist/node10-types/: the published declaration files (of dist/contract, dist/provider and dist/emulator) once
 * more, for projects that resolve modules the old way (`"moduleResolution": "node"`, which `pulumi new typescript`
 * wrote until 2026-03). That resolution ignores `exports` and reads `types` and `typesVersions` instead, which
 * package.json points here. Run by `npm run build`, after tsc.
 *
 * Why a copy: there, "zod" resolves to zod's CommonJS typings (the .d.cts files), which do not compile without
 * `esModuleInterop` (zod/v4/locales/index.d.cts default-imports modules declared with `export =`: TS1259, 63 errors;
 * zod's answer is to set the flag, colinhacks/zod#5160). zod's ES-module typings (zod/index.d.ts and the
 * index.d.ts of each subpath) compile either way. Old resolution finds them by file path ("zod/index.js" ->
 * zod/index.d.ts), which `exports`-aware resolution refuses, so only this copy names them. Only the types differ:
 * the JavaScript is the same dist/.
 */
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const out = path.join(dist, "node10-types");
const PUBLISHED = ["contract", "provider", "emulator"];

/** "zod" -> "zod/index.js", "zod/v4/core" -> "zod/v4/core/index.js": a file path old resolution takes as is. */
function esmTypingsOf(specifier) {
  const target = `${specifier}/index.js`;
  const declaration = path.join(root, "node_modules", specifier, "index.d.ts");
  if (!fs.existsSync(declaration)) {
    throw new Error(`node10-types: ${declaration} does not exist; how should "${specifier}" be mapped?`);
  }
  return target;
}

function declarations(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return declarations(full);
    return entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

fs.rmSync(out, { recursive: true, force: true });
let files = 0;
let rewritten = 0;
for (const top of PUBLISHED) {
  for (const file of declarations(path.join(dist, top))) {
    const text = fs.readFileSync(file, "utf8");
    // Both forms tsc emits: `from "zod"` and `import("zod")`.
    const copy = text.replace(/(from |import\()"(zod(?:\/[^"]+)?)"/g, (_, before, specifier) => {
      rewritten++;
      return `${before}"${esmTypingsOf(specifier)}"`;
    });
    const target = path.join(out, path.relative(dist, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, copy);
    files++;
  }
}
console.log(
  `node10-types: ${files} declaration files, ${rewritten} zod imports pointed at zod's ES-module typings`,
);
