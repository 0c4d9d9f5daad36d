// The second `npm run release:build` of this commit that test/engine/release-verify.test.ts compares with the first
// and serves to the docs' verify recipes: a builder's run, in the test's own environment changed as another
// builder's machine would change it (not a recipe: the recipes run in user-env.ts's environment, in the test).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { nodeCacheDir } from "../../../tools/release/node-binaries";
import {
  signSums,
  SIGNING_KEY_ENV,
  SIGNING_PASSPHRASE_ENV,
  type SigningResult,
} from "../../../tools/release/sign";
import { REPO_ROOT } from "./offline-project";
import { throwawayKey, type ThrowawayKey } from "./throwaway-key";

const BUILD_SCRIPT = path.join(REPO_ROOT, "dist/tools/release/build.js");

export interface SecondBuild {
  /** The release directory it wrote. */
  dir: string;
  /** What the build printed (stderr). */
  log: string;
  signing: SigningResult;
  /** The throwaway key that signed it, standing for the published one. */
  key: ThrowawayKey;
}

let second: SecondBuild | undefined;

/**
 * The second release:build of this commit into a directory of its own under `scratch`, built with no key as the
 * release workflow's build job is, then signed as its sign job does, with a throwaway key standing for the
 * published one (once per test file).
 */
export function secondBuild(scratch: string): SecondBuild {
  if (second) return second;
  const key = throwawayKey(path.join(scratch, "key"));
  const dir = path.join(scratch, "second");
  // Another builder's machine: its node binaries cached under another path (a link to this machine's cache, so
  // nothing is fetched again). The builder's paths must not reach the artifacts.
  const cache = path.join(scratch, "another-builders-cache");
  fs.symlinkSync(nodeCacheDir(), cache);
  // And an environment of its own: what modules read from it when the snapshot is made would be frozen into it
  // (FORCE_COLOR did so), so the builder's environment must not reach the artifacts either.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RELEASE_NODE_CACHE: cache,
    FORCE_COLOR: process.env.FORCE_COLOR === "1" ? "0" : "1",
    GRPC_VERBOSITY: "DEBUG",
  };
  delete env[SIGNING_KEY_ENV];
  delete env[SIGNING_PASSPHRASE_ENV];
  // And another CPU count: one core (`taskset`, the first this process may use) where the first build had this
  // machine's. V8's background threads then run at other moments, and the snapshot's heap took their timing in
  // before the builder ran V8 with --predictable (SNAPSHOT_BUILD_FLAGS): pinned, it wrote another linux-amd64 file.
  const result = spawnSync(
    "taskset",
    ["-c", firstAllowedCpu(), process.execPath, BUILD_SCRIPT, "--out", dir, "--fresh"],
    {
      encoding: "utf8",
      env,
    },
  );
  if (result.status !== 0)
    throw new Error(`the second release:build failed: ${result.error?.message ?? ""}\n${result.stderr}`);
  const keyEnv = { [SIGNING_KEY_ENV]: key.privateKey, [SIGNING_PASSPHRASE_ENV]: key.passphrase };
  const signing = signSums(path.join(dir, "SHA256SUMS"), keyEnv, key.publicKeyFile);
  second = { dir, log: result.stderr, signing, key };
  return second;
}

/** The first CPU this process may run on (Linux's Cpus_allowed_list, e.g. "0-1" or "2,5"), for taskset. */
function firstAllowedCpu(): string {
  const list = /^Cpus_allowed_list:\s*(\d+)/m.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1];
  if (list === undefined) throw new Error("/proc/self/status names no Cpus_allowed_list");
  return list;
}
