#!/usr/bin/env node
/**
 * `npm run lint:format`: `prettier --check` over the repository's files (git's tracked and untracked ones, less what
 * .gitignore ignores; prettier itself then applies .prettierignore and skips what it cannot parse), checking only
 * what no earlier passing check saw. Prettier's own --cache keys its entries by each file's absolute path, so a
 * fresh clone (every CI run) found none of them: 20-30 CPU-s for nothing on each run, and the cache file grew by a
 * clone's worth of paths each time. Here an entry is the SHA-256 of a file's path in the repository and its bytes,
 * kept in a file named by prettier's version and its settings (.prettierrc.json, .prettierignore), outside the
 * clone; entries unseen for 30 days are dropped. A failing check records nothing. `--all` checks every file.
 */
const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const SETTINGS_FILES = [".prettierrc.json", ".prettierignore"];
const KEEP_DAYS = 30;

const sha256 = (...parts) => {
  const hash = crypto.createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex");
};

/**
 * The files `prettier --check .` would consider: tracked or untracked, not ignored by git, still on disk. The same
 * list as tools/release/working-tree.ts's workingTreeFiles, written again here because this script runs before
 * (and without) the build that would compile that module.
 */
function repositoryFiles() {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr || listed.error}`);
  return [...new Set(listed.stdout.split("\0").filter(Boolean))].filter((file) => {
    const stat = fs.lstatSync(path.join(root, file), { throwIfNoEntry: false });
    return stat !== undefined && stat.isFile();
  });
}

/** Where passing checks are remembered: one file per prettier version and settings. */
function cacheFile() {
  const prettierVersion = require("prettier/package.json").version;
  const settings = SETTINGS_FILES.map((file) => {
    const full = path.join(root, file);
    return fs.existsSync(full) ? fs.readFileSync(full) : "";
  });
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  const name = `prettier-${prettierVersion}-${sha256(...settings).slice(0, 16)}.json`;
  return path.join(cacheHome, "pulumi-rimuhosting", "format-checked", name);
}

function readSeen(file) {
  try {
    const seen = JSON.parse(fs.readFileSync(file, "utf8"));
    return seen !== null && typeof seen === "object" && !Array.isArray(seen) ? seen : {};
  } catch {
    return {}; // none yet, or unreadable: check everything
  }
}

function writeSeen(file, seen) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}`;
  fs.writeFileSync(temporary, JSON.stringify(seen));
  fs.renameSync(temporary, file); // whole or not at all, were two checks to end at once
}

function main() {
  const all = process.argv.includes("--all");
  const started = Date.now();
  const store = cacheFile();
  const seen = all ? {} : readSeen(store);
  const today = Math.floor(Date.now() / 86_400_000);
  const keys = new Map(
    repositoryFiles().map((file) => [file, sha256(file, fs.readFileSync(path.join(root, file)))]),
  );
  const unseen = [...keys].filter(([, key]) => seen[key] === undefined).map(([file]) => file);
  if (unseen.length > 0) {
    const prettier = path.join(root, "node_modules", "prettier", "bin", "prettier.cjs");
    const checked = spawnSync(process.execPath, [prettier, "--check", "--ignore-unknown", ...unseen], {
      cwd: root,
      stdio: "inherit",
    });
    if (checked.status !== 0) process.exit(checked.status ?? 1);
  }
  const kept = Object.fromEntries(Object.entries(seen).filter(([, day]) => today - day <= KEEP_DAYS));
  for (const key of keys.values()) kept[key] = today;
  writeSeen(store, kept);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const home = os.homedir();
  const shown = store.startsWith(home + path.sep) ? `~${store.slice(home.length)}` : store;
  process.stdout.write(
    `format: ${keys.size} files, ${unseen.length} checked by prettier, ${keys.size - unseen.length} unchanged ` +
      `since a passing check (${seconds} s; ${shown})\n`,
  );
}

main();
