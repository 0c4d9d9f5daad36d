// Runs a Pulumi Node.js program the way pulumi-language-nodejs does: `node @pulumi/pulumi/cmd/run` with the monitor
// and engine addresses as flags, the stack config in PULUMI_CONFIG, and ts-node switched on for TypeScript.
import { spawnTethered } from "../helpers/tethered-child";
import type { PulumiProject } from "./project-file";

export interface RunProgramOptions {
  project: PulumiProject;
  stack: string;
  monitorAddress: string;
  engineAddress: string;
  dryRun: boolean;
  /** Namespaced config keys, secrets decrypted. */
  config: Record<string, string>;
  secretKeys: string[];
  env?: NodeJS.ProcessEnv;
  onOutput: (stream: "stdout" | "stderr", line: string) => void;
}

/** cmd/run exits 32 when the program failed and the error has already been logged through Engine.Log. */
export const PROGRAM_ERROR_LOGGED = 32;

export interface RunningProgram {
  /** Resolves with the exit code (a signal counts as 1). */
  exited: Promise<number>;
  /** Ends the program, as the language host does when the engine cancels the deployment after a failed step. */
  cancel(): void;
}

export function runProgram(o: RunProgramOptions): RunningProgram {
  const args = [
    `--monitor=${o.monitorAddress}`,
    `--engine=${o.engineAddress}`,
    "--organization=organization",
    `--project=${o.project.name}`,
    `--stack=${o.stack}`,
    `--root-directory=${o.project.rootDir}`,
    `--pwd=${o.project.pwd}`,
    ...(o.dryRun ? ["--dry-run"] : []),
    o.project.program,
  ];
  // The language host runs the program's OWN SDK (resolved from the program directory), never ours:
  // one program with two copies of @pulumi/pulumi breaks.
  const runner = require.resolve("@pulumi/pulumi/cmd/run", { paths: [o.project.pwd] });
  const child = spawnTethered(runner, args, {
    cwd: o.project.pwd,
    env: {
      ...process.env,
      ...o.env,
      PULUMI_CONFIG: JSON.stringify(o.config),
      PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(o.secretKeys),
      PULUMI_NODEJS_TYPESCRIPT: "true",
      // ts-node without type checking: the examples are type-checked by `npm run typecheck`.
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    },
  });
  const lines = (stream: "stdout" | "stderr") => {
    let buf = "";
    return {
      data: (d: Buffer) => {
        buf += d.toString();
        const parts = buf.split("\n");
        buf = parts.pop() ?? "";
        for (const p of parts) o.onOutput(stream, p);
      },
      end: () => buf && o.onOutput(stream, buf),
    };
  };
  const out = lines("stdout");
  const err = lines("stderr");
  child.stdout.on("data", out.data);
  child.stderr.on("data", err.data);
  const exited = new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      out.end();
      err.end();
      resolve(code ?? (signal ? 1 : 0));
    });
  });
  return {
    exited,
    cancel() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
  };
}
