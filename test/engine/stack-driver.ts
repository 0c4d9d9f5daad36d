// One interface over the two ways of running a stack: the CLI-less harness and the real Pulumi CLI.
import * as fs from "node:fs";
import * as path from "node:path";
import { CliStack, findPulumiCli } from "./cli-stack";
import { HarnessStack, type OperationResult, type StackConfigValue } from "./harness-stack";
import type { OpsPrinter } from "./ops-printer";

export type Backend = "harness" | "cli";

export interface StackDriver {
  readonly backend: Backend;
  setConfig(key: string, value: StackConfigValue | string): Promise<void>;
  removeConfig(key: string): Promise<void>;
  preview(): Promise<OperationResult>;
  up(): Promise<OperationResult>;
  refresh(): Promise<OperationResult>;
  destroy(): Promise<OperationResult>;
  /** The stack's state as stored (CLI: `pulumi stack export`; harness: its state file), for secret scans. */
  exportState(): Promise<string>;
  /** The CLI stack itself, for scenarios that drive the `pulumi` command directly (undefined on the harness). */
  readonly cli?: CliStack;
  /** Removes what the driver put outside `workDir` (the CLI's stack settings file); the stack's resources stay. */
  close(): Promise<void>;
}

export interface StackDriverOptions {
  programDir: string;
  stackName?: string;
  /** A scratch directory for the state (harness) or the file backend (CLI). */
  workDir: string;
  config?: Record<string, StackConfigValue | string>;
  env?: NodeJS.ProcessEnv;
  /** Harness display (the CLI prints its own, through `onCliOutput`). */
  printer?: OpsPrinter;
  onCliOutput?: (text: string) => void;
}

const asValue = (v: StackConfigValue | string): StackConfigValue =>
  typeof v === "string" ? { value: v } : v;

export async function createStackDriver(backend: Backend, o: StackDriverOptions): Promise<StackDriver> {
  if (backend === "cli") {
    const cli = await CliStack.create({
      programDir: o.programDir,
      stackName: o.stackName,
      backendDir: path.join(o.workDir, "backend"),
      config: o.config,
      env: o.env,
      onOutput: o.onCliOutput,
    });
    return {
      backend,
      setConfig: (k, v) => cli.setConfig(k, asValue(v)),
      removeConfig: (k) => cli.removeConfig(k),
      preview: () => cli.preview(),
      up: () => cli.up(),
      refresh: () => cli.refresh(),
      destroy: () => cli.destroy(),
      exportState: () => cli.exportState(),
      cli,
      close: async () => cli.close(),
    };
  }
  const stack = new HarnessStack({
    programDir: o.programDir,
    stackName: o.stackName,
    stateFile: path.join(o.workDir, "state.json"),
    config: o.config,
    env: o.env,
    printer: o.printer,
  });
  return {
    backend,
    setConfig: async (k, v) => stack.setConfig(k, asValue(v)),
    removeConfig: async (k) => stack.removeConfig(k),
    preview: () => stack.preview(),
    up: () => stack.up(),
    refresh: () => stack.refresh(),
    destroy: () => stack.destroy(),
    exportState: async () => {
      const file = path.join(o.workDir, "state.json");
      return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    },
    close: async () => undefined,
  };
}

/**
 * The backend to run end-to-end scenarios on: the real CLI when one is on PATH (it is the truth: where the harness
 * and the engine disagree, the harness is wrong), the harness otherwise. `E2E_BACKENDS=harness,cli` runs both.
 * `CI=true` without a CLI is an error: CI must not silently fall back to the harness.
 */
export function availableBackends(env: NodeJS.ProcessEnv = process.env): {
  backends: Backend[];
  cliSkipReason?: string;
} {
  const cli = findPulumiCli(env);
  const wanted = env.E2E_BACKENDS?.split(",").map((b) => b.trim());
  if (!cli.path && (env.CI === "true" || wanted?.includes("cli")))
    throw new Error(
      `the end-to-end scenarios must run through the real pulumi CLI here, but there is ${cli.reason}; ` +
        "build it with scripts/pulumi-cli.sh and put the directory it prints on PATH",
    );
  if (wanted) return { backends: wanted.filter((b): b is Backend => b === "cli" || b === "harness") };
  return cli.path ? { backends: ["cli"] } : { backends: ["harness"], cliSkipReason: cli.reason };
}
