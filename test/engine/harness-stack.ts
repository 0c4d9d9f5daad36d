// A CLI-less Pulumi engine for programs whose custom resources are dynamic resources: it runs the real program
// (cmd/run) against its own ResourceMonitor, drives the real dynamic-provider host, and keeps the stack's state in a
// JSON file. One HarnessStack = one stack of one project; preview/up/refresh/destroy mirror the Automation API.
import { startProviderHost, type PropertyMap, type ProviderHost } from "../helpers/provider-host";
import { startEngineServers } from "./grpc-servers";
import { createOpsPrinter, type OpsPrinter } from "./ops-printer";
import { readPulumiProject, type PulumiProject } from "./project-file";
import { PROGRAM_ERROR_LOGGED, runProgram } from "./program-runner";
import { markSecret, secretKeysOf } from "./property-values";
import { createStateStore, type StackState, type StateStore } from "./state-store";
import { deleteResources, errorMessage, newStep, plainOf, runStep, type StepContext } from "./step-runner";
import { summarize, type OperationKind, type StepOp, type StepRecord } from "./steps";
import { UpdateRun } from "./update-run";

export interface StackConfigValue {
  value: string;
  secret?: boolean;
}

export interface HarnessStackOptions {
  /** Directory holding Pulumi.yaml. */
  programDir: string;
  /** Default "dev". */
  stackName?: string;
  /** The state file (created on first up). */
  stateFile: string;
  /** Stack config; keys without a namespace belong to the project (like `pulumi config set`). */
  config?: Record<string, StackConfigValue | string>;
  /** Extra environment for the program and the provider host. */
  env?: NodeJS.ProcessEnv;
  printer?: OpsPrinter;
}

export interface OperationResult {
  kind: OperationKind;
  steps: StepRecord[];
  /** Stack outputs; secret values are secret envelopes, unknown ones the UNKNOWN sentinel. */
  outputs: Record<string, unknown>;
  summary: Partial<Record<StepOp, number>>;
  durationMs: number;
}

/** The operation failed; `result` says what was done before it failed. */
export class DeploymentError extends Error {
  constructor(
    message: string,
    readonly result: OperationResult,
  ) {
    super(message);
    this.name = "DeploymentError";
  }
}

const STACK_TYPE = "pulumi:pulumi:Stack";
/** How long a program may keep running after one of its registrations failed. */
const CANCEL_GRACE_MS = 1500;

export class HarnessStack {
  readonly project: PulumiProject;
  readonly stackName: string;
  private readonly store: StateStore;
  private readonly config = new Map<string, StackConfigValue>();
  private readonly printer: OpsPrinter;

  constructor(private readonly options: HarnessStackOptions) {
    this.project = readPulumiProject(options.programDir);
    this.stackName = options.stackName ?? "dev";
    this.store = createStateStore(options.stateFile, { project: this.project.name, stack: this.stackName });
    this.printer = options.printer ?? createOpsPrinter();
    for (const [k, v] of Object.entries(options.config ?? {}))
      this.setConfig(k, typeof v === "string" ? { value: v } : v);
  }

  /** Like `pulumi config set [--secret] key value`. */
  setConfig(key: string, value: StackConfigValue): void {
    this.config.set(key.includes(":") ? key : `${this.project.name}:${key}`, value);
  }
  removeConfig(key: string): void {
    this.config.delete(key.includes(":") ? key : `${this.project.name}:${key}`);
  }

  /** The state as the last operation left it (secrets decrypted into envelopes). */
  state(): StackState {
    return this.store.load();
  }

  preview(): Promise<OperationResult> {
    return this.runUpdate(true);
  }
  up(): Promise<OperationResult> {
    return this.runUpdate(false);
  }

  private plainConfig(): { values: Record<string, string>; secretKeys: string[] } {
    const values: Record<string, string> = {};
    const secretKeys: string[] = [];
    for (const [k, v] of this.config) {
      values[k] = v.value;
      if (v.secret) secretKeys.push(k);
    }
    return { values, secretKeys };
  }

  private stackUrn(): string {
    return `urn:pulumi:${this.stackName}::${this.project.name}::${STACK_TYPE}::${this.project.name}-${this.stackName}`;
  }
  private makeUrn(type: string, name: string, parent: string): string {
    let qualified = type;
    if (parent) {
      const parentType = parent.split("::")[2] ?? "";
      if (parentType !== STACK_TYPE) qualified = `${parentType}$${type}`;
    }
    return `urn:pulumi:${this.stackName}::${this.project.name}::${qualified}::${name}`;
  }

  /** Starts the provider host once per operation (registrations arrive concurrently) and configures it. */
  private hostLauncher(): { get(): Promise<ProviderHost>; close(): Promise<void> } {
    let pending: Promise<ProviderHost> | undefined;
    const config = this.plainConfig().values;
    return {
      get: () =>
        (pending ??= (async () => {
          const host = await startProviderHost({
            cwd: this.project.pwd,
            project: this.project.name,
            config,
            env: this.options.env,
            onOutput: (stream, text) =>
              this.printer.diagnostic(stream === "stderr" ? "warning" : "info", text.trimEnd()),
          });
          await host.configure(config);
          return host;
        })()),
      close: async () => {
        if (!pending) return;
        const host = await pending.catch(() => undefined);
        await host?.close();
      },
    };
  }

  private async runUpdate(dryRun: boolean): Promise<OperationResult> {
    const kind: OperationKind = dryRun ? "preview" : "up";
    const started = Date.now();
    this.printer.header(kind, this.stackName);
    const host = this.hostLauncher();
    const { values: config, secretKeys } = this.plainConfig();
    const ctx: StepContext = { printer: this.printer, steps: [], dryRun };
    const run = new UpdateRun({
      ctx,
      old: this.store.load(),
      store: this.store,
      provider: host.get,
      makeUrn: (type, name, parent) => this.makeUrn(type, name, parent),
      stackUrn: this.stackUrn(),
    });

    // Like the engine, a failed step cancels the deployment: the program gets a moment to log the error it received,
    // then it is ended (otherwise its idle gRPC channels keep it alive for a long time).
    let stepFailed = false;
    let cancelProgram = (): void => undefined;
    let cancelTimer: NodeJS.Timeout | undefined;
    const failedStep = (): void => {
      stepFailed = true;
      cancelTimer ??= setTimeout(() => cancelProgram(), CANCEL_GRACE_MS);
    };
    const servers = await startEngineServers({
      dryRun,
      project: this.project.name,
      stack: this.stackName,
      registerResource: (r) =>
        run.register(r).catch((e: unknown) => {
          failedStep();
          throw e;
        }),
      registerResourceOutputs: (urn, outputs) => run.registerOutputs(urn, outputs),
      readResource: (r) =>
        run.read(r).catch((e: unknown) => {
          failedStep();
          throw e;
        }),
      log: (severity, message, urn) => {
        if (severity !== "debug") this.printer.diagnostic(severity, message, urn || undefined);
      },
    });

    let failure: string | undefined;
    try {
      const program = runProgram({
        project: this.project,
        stack: this.stackName,
        monitorAddress: servers.monitorAddress,
        engineAddress: servers.engineAddress,
        dryRun,
        config,
        secretKeys,
        env: this.options.env,
        onOutput: (stream, line) => this.printer.diagnostic(stream === "stderr" ? "warning" : "info", line),
      });
      cancelProgram = () => program.cancel();
      const exit = await program.exited;
      clearTimeout(cancelTimer);
      if (stepFailed && exit !== 0) {
        failure = "a resource operation failed (see the errors above)";
      } else if (exit !== 0) {
        failure =
          exit === PROGRAM_ERROR_LOGGED
            ? "the program failed (see the errors above)"
            : `the program exited with code ${exit}`;
      } else {
        failure = await run.deleteLeftovers();
      }
    } finally {
      servers.close();
      await host.close();
    }
    run.save();
    return this.finish(kind, ctx.steps, run.stackOutputs, started, dryRun, failure);
  }

  private finish(
    kind: OperationKind,
    steps: StepRecord[],
    outputs: PropertyMap,
    started: number,
    dryRun: boolean,
    failure?: string,
  ): OperationResult {
    const durationMs = Date.now() - started;
    if (kind !== "destroy") this.printer.outputs(outputs, dryRun);
    this.printer.summary(steps, dryRun, durationMs);
    const result: OperationResult = { kind, steps, outputs, summary: summarize(steps), durationMs };
    if (failure) {
      this.printer.diagnostic("error", `${kind} failed: ${failure}`);
      throw new DeploymentError(failure, result);
    }
    return result;
  }

  /** Reads every resource through its provider and records what changed outside Pulumi (drift). */
  refresh(): Promise<OperationResult> {
    return this.runOnState("refresh", async (ctx, state, provider) => {
      let failure: string | undefined;
      for (const r of [...state.resources]) {
        if (!r.custom || !r.id) continue;
        const probe = newStep("refresh", r);
        try {
          const read = await runStep(ctx, probe, async () =>
            (await provider()).read(r.id, r.urn, plainOf(r.outputs), plainOf(r.inputs)),
          );
          if (!read.id) {
            probe.op = "delete";
            state.resources = state.resources.filter((x) => x !== r);
          } else {
            const secret = [
              ...secretKeysOf(r.outputs),
              ...r.additionalSecretOutputs,
              ...secretKeysOf(r.inputs),
            ];
            // Like the engine (RefreshStep, since v3.1xx): the drift that counts is what the next `up` of an unchanged
            // program would change, i.e. the provider's Diff from the refreshed state back to the recorded inputs,
            // inverted. A change in an output the program does not manage is recorded but is no drift.
            const refreshedInputs = read.inputs ?? plainOf(r.inputs);
            const d = await (
              await provider()
            ).diff(read.id, r.urn, read.properties, plainOf(r.inputs), refreshedInputs);
            if (d.changes === "none") probe.op = "same";
            else probe.keys = d.diffs;
            r.outputs = markSecret(read.properties, secret);
            if (read.inputs) r.inputs = markSecret(read.inputs, secretKeysOf(r.inputs));
          }
          this.store.save(state);
        } catch (e) {
          failure ??= `refreshing ${r.urn} failed: ${errorMessage(e)}`;
        }
      }
      return failure;
    });
  }

  /** Deletes every resource in the stack, dependents first. */
  destroy(): Promise<OperationResult> {
    return this.runOnState("destroy", (ctx, state, provider) =>
      deleteResources(ctx, state.resources, provider, (gone) => {
        state.resources = state.resources.filter((r) => r !== gone);
        this.store.save(state);
      }),
    );
  }

  /** An operation on the resources in state (no program run): `body` returns the first failure, if any. */
  private async runOnState(
    kind: "refresh" | "destroy",
    body: (
      ctx: StepContext,
      state: StackState,
      provider: () => Promise<ProviderHost>,
    ) => Promise<string | undefined>,
  ): Promise<OperationResult> {
    const started = Date.now();
    this.printer.header(kind, this.stackName);
    const state = this.store.load();
    const ctx: StepContext = { printer: this.printer, steps: [], dryRun: false };
    const host = this.hostLauncher();
    let failure: string | undefined;
    try {
      failure = await body(ctx, state, host.get);
    } finally {
      await host.close();
    }
    const outputs =
      kind === "refresh" ? (state.resources.find((r) => r.type === STACK_TYPE)?.outputs ?? {}) : {};
    return this.finish(kind, ctx.steps, outputs, started, false, failure);
  }
}
