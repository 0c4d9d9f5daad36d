// The same stack operations through the real Pulumi CLI (Automation API, LocalWorkspace, local file backend), for
// machines that have a `pulumi` binary. Results are mapped to the harness's OperationResult from the engine events.
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import type { OperationResult, StackConfigValue } from "./harness-stack";
import { wrapSecret } from "./property-values";
import { nameOfUrn, summarize, typeOfUrn, type OperationKind, type StepOp, type StepRecord } from "./steps";

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
      "no `pulumi` binary on PATH (install it from pulumi.com to run these scenarios through the real CLI)",
  };
}

export interface CliStackOptions {
  programDir: string;
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

  static async create(options: CliStackOptions): Promise<CliStack> {
    // loaded only when the CLI is used
    const { LocalWorkspace } =
      require("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");
    fs.mkdirSync(options.backendDir, { recursive: true });
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: options.stackName ?? "dev", workDir: path.resolve(options.programDir) },
      {
        envVars: {
          ...(options.env as Record<string, string>),
          PULUMI_BACKEND_URL: `file://${options.backendDir}`,
          PULUMI_CONFIG_PASSPHRASE: "",
          PULUMI_SKIP_UPDATE_CHECK: "true",
        },
      },
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

  private collector(kind: OperationKind): { onEvent: (e: EngineEvent) => void; steps: StepRecord[] } {
    const steps: StepRecord[] = [];
    const byUrn = new Map<string, StepRecord>();
    const onEvent = (e: EngineEvent): void => {
      const meta =
        e.resOutputsEvent?.metadata ?? (kind === "preview" ? e.resourcePreEvent?.metadata : undefined);
      const failed = e.resOpFailedEvent?.metadata;
      if (failed) {
        const s = byUrn.get(failed.urn);
        if (s) s.failed = "operation failed";
      }
      if (!meta) return;
      let op = OP_MAP[meta.op];
      if (!op) return;
      if (op === "refresh" && !(meta.diffs && meta.diffs.length)) op = "same";
      const step: StepRecord = {
        op,
        urn: meta.urn,
        type: typeOfUrn(meta.urn),
        name: nameOfUrn(meta.urn),
        id: (meta.new?.id || meta.old?.id) ?? undefined,
        keys: meta.diffs ?? meta.keys,
      };
      byUrn.set(meta.urn, step);
      steps.push(step);
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
  refresh(): Promise<OperationResult> {
    return this.run("refresh", async (o) => {
      await this.stack.refresh(o);
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
