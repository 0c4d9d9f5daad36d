#!/usr/bin/env node
/**
 * `npm run demo`'s build step: `npm run build` only when dist/ is older than what it is built from. A fresh clone's
 * `npm ci` has just built everything (its `prepare`), and README's first command, `npm ci && npm run demo`, built it
 * twice (issue 82); a contributor who changed a source still gets it rebuilt.
 *
 * "Older" is by modification time, as make judges it: the newest file under tsconfig.build.json's `include` folders,
 * the build's own configuration (both tsconfigs, package.json, package-lock.json, scripts/node10-types.js), against
 * the stamp `npm run build`'s last step writes (`--stamp`, its `postbuild`). A checkout writes its files before the
 * install builds, so a fresh clone's stamp is the newer.
 *
 *   node scripts/build-if-stale.js           builds when stale, else says dist/ is current
 *   node scripts/build-if-stale.js --stamp   records that dist/ was just built (postbuild)
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const STAMP = path.join(root, "dist", ".build-stamp");
const CONFIG_FILES = [
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
  "scripts/node10-types.js",
];
const SKIP = new Set(["node_modules", "dist"]);

/** tsconfig.build.json's `include` folders (it may hold `//` comments, as tsconfig files may). */
function includedFolders() {
  const text = fs.readFileSync(path.join(root, "tsconfig.build.json"), "utf8").replace(/^\s*\/\/.*$/gm, "");
  return JSON.parse(text).include;
}

/** The newest file the build reads: { file, mtimeMs }. */
function newestSource() {
  let newest = { file: "", mtimeMs: 0 };
  const see = (file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs > newest.mtimeMs)
      newest = { file: path.relative(root, file), mtimeMs: stat.mtimeMs };
  };
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else see(file);
    }
  };
  for (const folder of includedFolders()) walk(path.join(root, folder));
  for (const file of CONFIG_FILES) see(path.join(root, file));
  return newest;
}

/** Why dist/ must be built again, or undefined when it is current. */
function staleness() {
  const stamp = fs.statSync(STAMP, { throwIfNoEntry: false });
  if (!stamp) return "dist/ has not been built (no dist/.build-stamp)";
  const newest = newestSource();
  return newest.mtimeMs > stamp.mtimeMs ? `${newest.file} changed since the last build` : undefined;
}

const mode = process.argv[2];
if (mode === "--stamp") {
  fs.mkdirSync(path.dirname(STAMP), { recursive: true });
  fs.writeFileSync(STAMP, `${new Date().toISOString()}\n`);
} else if (mode === undefined) {
  const why = staleness();
  if (why === undefined) {
    process.stdout.write("dist/ is current (built after its sources last changed): not building again\n");
  } else {
    process.stdout.write(`${why}: npm run build\n`);
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const build = spawnSync(npm, ["run", "build"], { cwd: root, stdio: "inherit" });
    process.exitCode = build.status ?? 1;
  }
} else {
  process.stderr.write(`build-if-stale: unknown option ${mode} (use --stamp, or nothing)\n`);
  process.exitCode = 2;
}
