// `npm test`'s jest: run with the real pulumi CLI and the YAML, Go and Python language hosts on PATH, so that no
// end-to-end test is skipped for want of them. The ones on PATH are used; without them, the scripts that build them
// run first, as `npm run demo` does for the CLI (pulumi-on-path.ts), saying so; if they cannot, `npm test` fails with
// what to do. Arguments are jest's. (`npx jest <file>` runs jest alone: its CLI tests are skipped, with the reason
// in their names, when there is no CLI; CI never skips them.)
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, ensureLanguageHosts, ensurePulumiCli } from "./pulumi-on-path";

/**
 * Go's garbage collector target for every Go program the suite starts (the pulumi CLI, about a thousand commands, and
 * the language hosts): collecting at 4 times the live heap rather than 2 took a fifth less CPU from `pulumi version`
 * (0.17 against 0.13 CPU-s), a seventh from a stack's commands (init, config, up, preview, rm: 0.31 against 0.26
 * each) and 3 to 5 % from two end-to-end files, for a few more MB held per command (docs/benchmarks.md). A GOGC
 * already set is kept.
 */
const GO_GC_PERCENT = "400";

const say = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

try {
  ensurePulumiCli(say, "npm test");
  ensureLanguageHosts(say, "npm test");
} catch (error) {
  say((error as Error).message);
  say("(`npm run test:unit` runs the tests that need neither.)");
  process.exit(1);
}
const env = { ...process.env, NODE_COMPILE_CACHE: compileCache(), GOGC: process.env.GOGC || GO_GC_PERCENT };
warmCompileCache(env);
const jest = spawnSync(
  process.execPath,
  [path.join(REPO_ROOT, "node_modules", "jest", "bin", "jest.js"), ...process.argv.slice(2)],
  { cwd: REPO_ROOT, stdio: "inherit", env },
);

/**
 * Node's compile cache (Node >= 22.1): every node the suite starts (the programs the CLI runs, the dynamic provider's
 * host, npm, tsc) reads the V8 code an earlier one compiled for @pulumi/pulumi and the rest, instead of compiling it
 * again. CPU is what the end-to-end files wait for on a 2-core machine: it cut their CPU time by about 8 %
 * (docs/benchmarks.md). Outside the clone, like the other caches; Node keys its entries by its version and by each
 * file's contents. A NODE_COMPILE_CACHE already set (.ci/run sets the same) is kept.
 */
function compileCache(): string {
  if (process.env.NODE_COMPILE_CACHE) return process.env.NODE_COMPILE_CACHE;
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(cacheHome, "pulumi-rimuhosting", "node-compile-cache");
}

/**
 * Node writes its compile cache as a process exits, and two kinds of process the suite starts again and again never
 * exit: the engine kills them when an operation ends. The dynamic provider's host alone loads the package's
 * implementation (with got and zod), and the policy pack's analyzer alone loads the pack's own copies of the SDK,
 * @pulumi/policy and TypeScript; so each of them compiled those again, about 45 ms of CPU a host and 250 ms an
 * analyzer (docs/benchmarks.md). One node that loads them and exits puts them in the cache for all.
 */
function warmCompileCache(env: NodeJS.ProcessEnv): void {
  const modules = [path.join(REPO_ROOT, "dist", "provider", "impl", "index.js")];
  const pack = path.join(REPO_ROOT, "policy-pack", "node_modules");
  for (const name of ["@pulumi/pulumi", "@pulumi/policy", "typescript"])
    if (fs.existsSync(path.join(pack, name, "package.json"))) modules.push(path.join(pack, name));
  spawnSync(
    process.execPath,
    ["-e", "for (const m of JSON.parse(process.argv[1])) require(m)", JSON.stringify(modules)],
    {
      cwd: REPO_ROOT,
      env,
      stdio: "ignore",
    },
  );
}

process.exit(jest.status ?? 1);
