// The same stack operations through the real Pulumi CLI (Automation API, LocalWorkspace, local file backend), for
// machines that have a `pulumi` binary. Results are mapped to the harness's OperationResult from the engine events.
import { execFile } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { nameOfUrn, typeOfUrn } from "../helpers/provider-host";
import type { OperationResult, StackConfigValue } from "./harness-stack";
import { wrapSecret } from "./property-values";
import { summarize, type OperationKind, type StepOp, type StepRecord } from "./steps";

const execFileAsync = promisify(execFile);

/** Where `pulumi` is on PATH, or why it cannot be used. */
export function findPulumiCli(env: NodeJS.ProcessEnv = process.env): { path?: string; reason?: string } {
  const exe = process.platform === "win32" ? "pulumi.exe" : "pulumi";
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, exe);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return { path: candidate };
    } catch {
      // not here
    }
  }
  return {
    reason:
      "no `pulumi` binary on PATH (scripts/pulumi-cli.sh builds one with Go and prints the directory to put on PATH)",
  };
}

/**
 * The environment that keeps the CLI offline and self-contained: a file backend, an empty passphrase, a PULUMI_HOME
 * of its own (beside the backend), no update check, and no plugin download (the language host and the
 * dynamic-provider plugin are bundled beside `pulumi` on PATH, see scripts/pulumi-cli.sh).
 */
export function offlineCliEnv(backendDir: string): Record<string, string> {
  const backend = path.resolve(backendDir);
  return {
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_HOME: path.join(path.dirname(backend), "pulumi-home"),
    PULUMI_CONFIG_PASSPHRASE: "",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // ts-node without type checking: the examples are type-checked by `npm run typecheck`; seconds per operation
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
}

export interface CliStackOptions {
  programDir: string;
  /** Prefix of the stack name; a random suffix keeps runs apart (see CliStack.create). Default "dev". */
  stackName?: string;
  /** Directory for the local file backend (`file://<dir>`). */
  backendDir: string;
  config?: Record<string, StackConfigValue | string>;
  env?: NodeJS.ProcessEnv;
  /** Receives the CLI's own display. */
  onOutput?: (text: string) => void;
}

const OP_MAP: Record<string, StepOp | undefined> = {
  same: "same",
  create: "create",
  update: "update",
  replace: "replace",
  delete: "delete",
  read: "read",
  refresh: "refresh",
  // the halves of a replacement are reported once, as "replace"
  "create-replacement": undefined,
  "delete-replaced": undefined,
  "discard-replaced": undefined,
};

export class CliStack {
  private constructor(
    private readonly stack: Stack,
    private readonly options: CliStackOptions,
  ) {}

  /**
   * `pulumi config set` writes the stack's config to Pulumi.<stack>.yaml in the PROGRAM directory (the repo's
   * examples), not in the backend. So each CliStack gets a stack name of its own, and close() removes that file:
   * otherwise a later run (or one running in parallel on the same example) would start from this run's config.
   */
  static async create(options: CliStackOptions): Promise<CliStack> {
    // loaded only when the CLI is used
    const { LocalWorkspace } =
      require("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");
    fs.mkdirSync(options.backendDir, { recursive: true });
    const envVars: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) envVars[k] = v;
    const stackName = `${options.stackName ?? "dev"}-${crypto.randomBytes(4).toString("hex")}`;
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName, workDir: path.resolve(options.programDir) },
      { envVars: { ...envVars, ...offlineCliEnv(options.backendDir) } },
    );
    const cli = new CliStack(stack, options);
    for (const [k, v] of Object.entries(options.config ?? {}))
      await cli.setConfig(k, typeof v === "string" ? { value: v } : v);
    return cli;
  }

  async setConfig(key: string, value: StackConfigValue): Promise<void> {
    await this.stack.setConfig(key, { value: value.value, secret: value.secret ?? false });
  }
  async removeConfig(key: string): Promise<void> {
    await this.stack.removeConfig(key);
  }

  get name(): string {
    return this.stack.name;
  }

  /** The program directory, where a `pulumi` command for this stack must run. */
  get programDir(): string {
    return path.resolve(this.options.programDir);
  }

  /** The environment a `pulumi` command needs to act on this stack (see offlineCliEnv). */
  commandEnv(): NodeJS.ProcessEnv {
    const extra: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.options.env ?? {})) if (v !== undefined) extra[k] = v;
    return { ...process.env, ...extra, ...offlineCliEnv(this.options.backendDir) };
  }

  /** Runs `pulumi <args> --stack <this stack> --non-interactive` in the program directory; resolves to stdout. */
  async command(...args: string[]): Promise<string> {
    const { stdout } = await execFileAsync(
      "pulumi",
      [...args, "--stack", this.stack.name, "--non-interactive"],
      {
        cwd: path.resolve(this.options.programDir),
        env: this.commandEnv(),
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return stdout;
  }

  /**
   * `pulumi stack export`: the checkpoint as the backend holds it, secrets encrypted. (The Automation API's
   * exportStack adds --show-secrets, so the command is run directly.)
   */
  exportState(): Promise<string> {
    return this.command("stack", "export");
  }

  /** `pulumi cancel --yes`: removes the lock an interrupted (killed) operation left on the stack. */
  async cancel(): Promise<void> {
    await this.stack.cancel();
  }

  /** Removes the stack's settings file from the program directory (the backend directory is the caller's). */
  close(): void {
    const dir = path.resolve(this.options.programDir);
    for (const ext of [".yaml", ".yml", ".json"])
      fs.rmSync(path.join(dir, `Pulumi.${this.stack.name}${ext}`), { force: true });
  }

  /**
   * One StepRecord per resource: the op from its ResourcePreEvent (emitted for every step, "same" included, in
   * preview and in updates), the id and changed keys from its ResOutputsEvent when the step finished, and the
   * failure from its ResOpFailedEvent.
   */
  private collector(kind: OperationKind): { onEvent: (e: EngineEvent) => void; steps: StepRecord[] } {
    const steps: StepRecord[] = [];
    const byUrn = new Map<string, StepRecord>();
    const onEvent = (e: EngineEvent): void => {
      const failed = e.resOpFailedEvent?.metadata;
      if (failed) {
        const s = byUrn.get(failed.urn);
        if (s) s.failed = `${failed.op} failed`;
        return;
      }
      const meta = e.resourcePreEvent?.metadata ?? e.resOutputsEvent?.metadata;
      if (!meta) return;
      let op = OP_MAP[meta.op];
      if (!op) return;
      // A refresh step's outcome comes with its ResOutputsEvent: "same", "update" (drift: the provider's Diff from
      // the refreshed state back to the program's inputs found changes) or "delete" (gone).
      if (kind === "refresh" && op === "update") op = "refresh";
      let step = byUrn.get(meta.urn);
      if (!step) {
        step = { op, urn: meta.urn, type: typeOfUrn(meta.urn), name: nameOfUrn(meta.urn) };
        byUrn.set(meta.urn, step);
        steps.push(step);
      }
      step.op = op;
      step.id = meta.new?.id || meta.old?.id || step.id || undefined;
      step.keys = meta.diffs ?? meta.keys ?? step.keys;
    };
    return { onEvent, steps };
  }

  private async run(
    kind: OperationKind,
    call: (opts: { onEvent: (e: EngineEvent) => void; onOutput: (s: string) => void }) => Promise<{
      outputs?: Record<string, { value: unknown; secret: boolean }>;
    }>,
  ): Promise<OperationResult> {
    const started = Date.now();
    const { onEvent, steps } = this.collector(kind);
    const res = await call({ onEvent, onOutput: (s) => this.options.onOutput?.(s) });
    const outputs = Object.fromEntries(
      Object.entries(res.outputs ?? {}).map(([k, v]) => [k, v.secret ? wrapSecret(v.value) : v.value]),
    );
    return { kind, steps, outputs, summary: summarize(steps), durationMs: Date.now() - started };
  }

  preview(): Promise<OperationResult> {
    return this.run("preview", async (o) => {
      await this.stack.preview(o);
      return {};
    });
  }
  up(): Promise<OperationResult> {
    return this.run("up", (o) => this.stack.up(o));
  }
  /** `clearPendingCreates`: drop the pending creates an interrupted operation left (`--clear-pending-creates`). */
  refresh(opts: { clearPendingCreates?: boolean } = {}): Promise<OperationResult> {
    return this.run("refresh", async (o) => {
      await this.stack.refresh({ ...o, ...opts });
      return { outputs: await this.stack.outputs() };
    });
  }
  destroy(): Promise<OperationResult> {
    return this.run("destroy", async (o) => {
      await this.stack.destroy(o);
      return {};
    });
  }
}
