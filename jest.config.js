// got 14 and most of its dependencies are ESM-only. Node >= 20.19 loads them through require(esm),
// but jest's own module system cannot, so jest transpiles exactly those packages to CommonJS.
// The list is computed from got's dependency tree so it stays right when got is upgraded.
const fs = require("node:fs");
const path = require("node:path");

function esmOnlyPackages(root) {
  const seen = new Set();
  const esm = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const manifestPath = path.join(__dirname, "node_modules", name, "package.json");
    if (!fs.existsSync(manifestPath)) return;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    if (manifest.type === "module") esm.add(name);
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep);
  };
  visit(root);
  return [...esm];
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const esm = esmOnlyPackages("got").map(escape).join("|");

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.[tj]s$": ["ts-jest", { tsconfig: { allowJs: true, isolatedModules: true }, diagnostics: false }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esm})/)`],
  modulePathIgnorePatterns: ["<rootDir>/dist/", "<rootDir>/examples/"],
  testTimeout: 60000,
};
