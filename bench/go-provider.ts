/**
 * The plugin bench's point of comparison from outside Node: a minimal native provider written with Pulumi's Go
 * framework (bench/go-provider/: one resource, on github.com/pulumi/pulumi-go-provider at the version its go.mod
 * pins, fetched through the Go module proxy). Built once and cached outside the clone, under
 * `~/.cache/pulumi-rimuhosting/bench-go-provider/<version>-<hash>-<os>-<arch>/` (PULUMI_RIMU_CACHE or XDG_CACHE_HOME
 * move it, as for scripts/*.sh), the hash being of every file under bench/go-provider/ and of the Go version.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../provider/native/schema/plugin-dir.js";

const MODULE_DIR = path.join(REPO_ROOT, "bench/go-provider");
const FRAMEWORK = "github.com/pulumi/pulumi-go-provider";

/** The cache of things built once per machine (scripts/*.sh use the same). */
function cacheRoot(): string {
  return (
    process.env.PULUMI_RIMU_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-rimuhosting")
  );
}

/** The version of pulumi-go-provider the module's go.mod pins. */
export function frameworkVersion(): string {
  const goMod = fs.readFileSync(path.join(MODULE_DIR, "go.mod"), "utf8");
  const version = new RegExp(`^\\s*(?:require\\s+)?${FRAMEWORK.replace(/\./g, "\\.")} (v\\S+)`, "m").exec(
    goMod,
  )?.[1];
  if (!version) throw new Error(`bench/go-provider/go.mod does not require ${FRAMEWORK}`);
  return version;
}

/**
 * What a build depends on, hashed: the Go version and every file under bench/go-provider/ (its path and bytes, in
 * the order of the paths), so a file added or changed there, or another Go, makes a new build.
 */
function buildInputsHash(goVersion: string): string {
  const hash = crypto.createHash("sha256").update(`${goVersion}\0`);
  const files = fs
    .readdirSync(MODULE_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(MODULE_DIR, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
    )
    .sort();
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(MODULE_DIR, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest("hex").slice(0, 12);
}

/**
 * The built Go provider, from the cache or built now with the `go` on PATH; or why there is none (no Go, or the
 * build failed: its last lines).
 */
export function goProvider(log: (line: string) => void): { exe: string } | { reason: string } {
  const go = spawnSync("go", ["env", "GOOS", "GOARCH", "GOVERSION"], { encoding: "utf8" });
  if (go.status !== 0)
    return {
      reason: "no Go on PATH (the Go provider is built with Go 1.26 or later and the Go module proxy)",
    };
  const [goos, goarch, goVersion] = go.stdout.trim().split("\n");
  const key = `${frameworkVersion()}-${buildInputsHash(goVersion!)}-${goos}-${goarch}`;
  const dir = path.join(cacheRoot(), "bench-go-provider", key);
  const exe = path.join(dir, "pulumi-resource-benchgo");
  if (fs.existsSync(exe)) return { exe };
  log(`building the Go provider (${FRAMEWORK} ${frameworkVersion()}) into ${dir}`);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${exe}.${process.pid}`;
  try {
    execFileSync("go", ["build", "-trimpath", "-o", tmp, "."], {
      cwd: MODULE_DIR,
      stdio: ["ignore", "pipe", "pipe"],
    });
    fs.renameSync(tmp, exe); // a build killed halfway leaves nothing under the name
    return { exe };
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    const stderr = String((error as { stderr?: Buffer }).stderr ?? error).trim();
    return { reason: `go build failed: ${stderr.split("\n").slice(-3).join(" / ")}` };
  }
}
