// A stack of an example, run through the real Pulumi CLI (local file backend): the one engine the end-to-end
// scenarios run on.
import * as path from "node:path";
import { CliStack, findPulumiCli } from "./cli-stack";
import type { OperationResult, StackConfigValue } from "./steps";

export interface StackDriver {
  setConfig(key: string, value: StackConfigValue | string): Promise<void>;
  /** Several keys in one `pulumi config set-all`. */
  setConfigs(config: Record<string, StackConfigValue | string>): Promise<void>;
  removeConfig(key: string): Promise<void>;
  preview(): Promise<OperationResult>;
  up(): Promise<OperationResult>;
  refresh(): Promise<OperationResult>;
  destroy(): Promise<OperationResult>;
  /** The stack's state as stored (`pulumi stack export`), for secret scans. */
  exportState(): Promise<string>;
  /** The CLI stack itself, for scenarios that drive the `pulumi` command directly. */
  readonly cli: CliStack;
  /** Removes what the driver put outside `workDir` (the CLI's stack settings file); the stack's resources stay. */
  close(): Promise<void>;
}

export interface StackDriverOptions {
  programDir: string;
  stackName?: string;
  /** A scratch directory for the file backend. */
  workDir: string;
  /** See CliStackOptions.backendUrl. */
  backendUrl?: string;
  config?: Record<string, StackConfigValue | string>;
  env?: NodeJS.ProcessEnv;
  /** Receives the CLI's own display. */
  onCliOutput?: (text: string) => void;
  /** See CliStackOptions.pluginDownloads. */
  pluginDownloads?: boolean;
  /** See CliStackOptions.keys. */
  keys?: "service" | "passphrase";
  /** See CliStackOptions.exactName. */
  exactName?: boolean;
}

const asValue = (v: StackConfigValue | string): StackConfigValue =>
  typeof v === "string" ? { value: v } : v;

export async function createStackDriver(o: StackDriverOptions): Promise<StackDriver> {
  const cli = await CliStack.create({
    programDir: o.programDir,
    stackName: o.stackName,
    backendDir: path.join(o.workDir, "backend"),
    backendUrl: o.backendUrl,
    config: o.config,
    env: o.env,
    onOutput: o.onCliOutput,
    pluginDownloads: o.pluginDownloads,
    keys: o.keys,
    exactName: o.exactName,
  });
  return {
    setConfig: (k, v) => cli.setConfig(k, asValue(v)),
    setConfigs: (config) => cli.setConfigs(config),
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

/**
 * Why the end-to-end scenarios cannot run here (no real CLI on PATH), or undefined when they can: they are then
 * reported as skipped with this reason. `CI=true` without a CLI is an error: CI must never skip them.
 */
export function cliSkipReason(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const cli = findPulumiCli(env);
  if (!cli.path && env.CI === "true")
    throw new Error(
      `the end-to-end scenarios must run through the real pulumi CLI here, but there is ${cli.reason}; ` +
        "build it with scripts/pulumi-cli.sh and put the directory it prints on PATH",
    );
  return cli.path ? undefined : cli.reason;
}
