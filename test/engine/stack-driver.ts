// One interface over the two ways of running a stack: the CLI-less harness and the real Pulumi CLI.
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
    close: async () => undefined,
  };
}

/** The backends to run scenarios on: always the harness; the CLI when one is on PATH (else the reason it is not). */
export function availableBackends(): { backends: Backend[]; cliSkipReason?: string } {
  const cli = findPulumiCli();
  return cli.path ? { backends: ["harness", "cli"] } : { backends: ["harness"], cliSkipReason: cli.reason };
}
