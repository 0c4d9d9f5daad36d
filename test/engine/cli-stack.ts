// The same stack operations through the real Pulumi CLI (local file backend), for machines that have a `pulumi`
// binary. Each operation is one `pulumi` process (a refresh two: its event log has no stack outputs, so they are read
// with `pulumi stack output`): the engine events come from its `--event-log` file (commandWithEventLog) and are mapped to an
// OperationResult (steps.ts). (The Automation API, used before, ran three more commands after every `up`: `stack output` twice
// and `stack history`, about a quarter of an end-to-end file's CLI time.)
import { spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { EVENT_LOG_SWITCH } from "../../provider/bill/run-preview";
import { nameOfUrn, typeOfUrn } from "../helpers/provider-host";
import { wrapSecret } from "./property-values";
import { editStackConfigFile } from "./stack-config-file";
import { encryptForStack, STACK_KEY_PROVIDER, useStackKeys } from "./stack-keys";
import {
  DeploymentError,
  summarize,
  type OperationKind,
  type OperationResult,
  type StackConfigValue,
  type StepOp,
  type StepRecord,
} from "./steps";

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
    // No PULUMI_DEBUG_COMMANDS: a recipe run with this environment must work as a user's shell runs it, and no
    // page tells users to set it except with `--event-log`. The harness's own event logs add it, per command
    // (CliStack.commandWithEventLog; docs/testing.md, "What the tests' harness sets").
  };
}

/** test/helpers/lazy-typescript.js: TypeScript loaded at its first use in the node processes a command starts. */
const LAZY_TYPESCRIPT = path.join(__dirname, "..", "helpers", "lazy-typescript.js");

/** NODE_OPTIONS with the lazy-typescript preload added (once). */
export function withLazyTypeScript(nodeOptions: string | undefined): string {
  const preload = `--require ${JSON.stringify(LAZY_TYPESCRIPT)}`;
  if (nodeOptions?.includes(preload)) return nodeOptions;
  return nodeOptions ? `${nodeOptions} ${preload}` : preload;
}

export interface CliStackOptions {
  programDir: string;
  /** Prefix of the stack name; a random suffix keeps runs apart (see CliStack.create). Default "dev". */
  stackName?: string;
  /** Directory for the local file backend (`file://<dir>`), and beside it the stack's PULUMI_HOME. */
  backendDir: string;
  /** Another backend than the file backend in `backendDir` (`postgres://…`, `s3://…`: team-backends.ts). */
  backendUrl?: string;
  config?: Record<string, StackConfigValue | string>;
  env?: NodeJS.ProcessEnv;
  /**
   * What each command's environment starts from in place of this process's: a recipe's, from
   * test/docs/support/user-env.ts (offlineCliEnv's names are in its harness list).
   */
  baseEnv?: Record<string, string>;
  /** Receives the CLI's own display. */
  onOutput?: (text: string) => void;
  /** Let the engine download plugins (from a resource's pluginDownloadURL); off otherwise, the CLI runs offline. */
  pluginDownloads?: boolean;
  /**
   * How the stack's secrets are keyed: "service", the harness's key service (stack-keys.ts: no key derived from a
   * passphrase in every command, about 0.2 CPU-s each), or "passphrase", the file backend's default, as a user's
   * stack has it. Default: "passphrase" for a recipe's stack (`baseEnv` given), "service" otherwise.
   */
  keys?: "service" | "passphrase";
  /** The stack's name exactly as `stackName` says, without the random suffix (a `dev` in each of two backends). */
  exactName?: boolean;
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

const STACK_TYPE = "pulumi:pulumi:Stack";
/** How the engine marks a secret in a property value (ciphertext "[secret]" in events). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/**
 * `pulumi` failed: its exit code and display. The message (what a failing test prints) has the values of secret
 * config, given on the command line, replaced by "[secret]"; `stdout` and `stderr` are kept as printed, for tests
 * that assert that no secret is in them.
 */
class CliCommandError extends Error {
  constructor(
    args: string[],
    exitCode: number | null,
    readonly stdout: string,
    readonly stderr: string,
    secrets: ReadonlySet<string>,
  ) {
    let text = `pulumi ${args.join(" ")} exited with ${exitCode ?? "a signal"}\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`;
    for (const secret of secrets) if (secret !== "") text = text.split(secret).join("[secret]");
    super(text);
    this.name = "CliCommandError";
  }
}

export class CliStack {
  private eventLogs = 0;
  /** Secret config values this stack was given, kept out of error messages. */
  private readonly secrets = new Set<string>();

  /** The key service's environment, for a stack keyed by it (stack-keys.ts). */
  private keyService?: { env: Record<string, string>; release(): void };

  private constructor(
    /** The stack's name (a random suffix keeps runs apart). */
    readonly name: string,
    private readonly options: CliStackOptions,
  ) {}

  /**
   * `pulumi config set` writes the stack's config to Pulumi.<stack>.yaml in the PROGRAM directory (the repo's
   * examples), not in the backend. So each CliStack gets a stack name of its own, and close() removes that file:
   * otherwise a later run (or one running in parallel on the same example) would start from this run's config.
   */
  static async create(options: CliStackOptions): Promise<CliStack> {
    fs.mkdirSync(options.backendDir, { recursive: true });
    const given = options.stackName ?? "dev";
    const name = options.exactName ? given : `${given}-${crypto.randomBytes(4).toString("hex")}`;
    const cli = new CliStack(name, options);
    const keys = options.keys ?? (options.baseEnv ? "passphrase" : "service");
    if (keys === "service") cli.keyService = await useStackKeys();
    try {
      await cli.command(
        "stack",
        "init",
        ...(cli.keyService ? ["--secrets-provider", STACK_KEY_PROVIDER] : []),
      );
      await cli.setConfigs(options.config ?? {});
    } catch (error) {
      cli.close();
      throw error;
    }
    return cli;
  }

  /**
   * Sets several keys in the stack's settings file (stack-config-file.ts): the secret ones encrypted with the key
   * service's data key (stack-keys.ts), or on a stack keyed by a passphrase in one `pulumi config set-all`.
   */
  async setConfigs(config: Record<string, StackConfigValue | string>): Promise<void> {
    const plain: Record<string, string | { secure: string }> = {};
    const secretPairs: string[] = [];
    for (const [k, v] of Object.entries(config)) {
      const value = typeof v === "string" ? { value: v } : v;
      if (!value.secret) plain[k] = value.value;
      else {
        this.secrets.add(value.value);
        // Keyed by the key service, the data key is the harness's: encrypted here, as the CLI would.
        if (this.keyService) plain[k] = { secure: encryptForStack(this.settingsFile(), value.value) };
        else secretPairs.push("--secret", `${k}=${value.value}`);
      }
    }
    editStackConfigFile(this.programDir, this.name, plain);
    if (secretPairs.length > 0) await this.command("config", "set-all", ...secretPairs);
  }

  async setConfig(key: string, value: StackConfigValue): Promise<void> {
    await this.setConfigs({ [key]: value });
  }

  /** Removes keys from the stack's config; a key that is not set is passed over (as `pulumi config rm-all` does). */
  removeConfigs(keys: readonly string[]): Promise<void> {
    editStackConfigFile(this.programDir, this.name, {}, keys);
    return Promise.resolve();
  }
  async removeConfig(key: string): Promise<void> {
    await this.removeConfigs([key]);
  }

  /** The stack's settings file, Pulumi.<stack>.yaml, as it is now. */
  private settingsFile(): string {
    return fs.readFileSync(path.join(this.programDir, `Pulumi.${this.name}.yaml`), "utf8");
  }

  /** The program directory, where a `pulumi` command for this stack must run. */
  get programDir(): string {
    return path.resolve(this.options.programDir);
  }

  /** The environment a `pulumi` command needs to act on this stack (see offlineCliEnv). */
  commandEnv(): NodeJS.ProcessEnv {
    const extra: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.options.env ?? {})) if (v !== undefined) extra[k] = v;
    const base = this.options.baseEnv ?? process.env;
    const env: NodeJS.ProcessEnv = {
      ...base,
      ...extra,
      ...offlineCliEnv(this.options.backendDir),
      ...this.keyService?.env,
    };
    if (this.options.backendUrl !== undefined) env.PULUMI_BACKEND_URL = this.options.backendUrl;
    if (this.options.pluginDownloads) delete env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
    // Not a recipe's stack: its commands run as the page says, in the page's environment.
    if (!this.options.baseEnv) env.NODE_OPTIONS = withLazyTypeScript(env.NODE_OPTIONS);
    return env;
  }

  /**
   * Runs `pulumi <args> --stack <this stack> --non-interactive` in the program directory; resolves to stdout, or
   * rejects with a CliCommandError (its `stdout` and `stderr` as printed). Arguments after a "--" stay positional.
   */
  command(...args: string[]): Promise<string> {
    return this.spawnPulumi(args);
  }

  /**
   * `command()` with `--event-log <file>`, the harness's own record of what the engine did (a recipe never runs
   * through here). The CLI accepts the flag only with PULUMI_DEBUG_COMMANDS set, so it is set for this command
   * alone, as the Automation API does for the commands it runs.
   */
  commandWithEventLog(file: string, args: string[], onOutput?: (text: string) => void): Promise<string> {
    return this.spawnPulumi([args[0]!, "--event-log", file, ...args.slice(1)], onOutput, EVENT_LOG_SWITCH);
  }

  /** `command()`, with stdout also handed to `onOutput` as it comes, and `extraEnv` added to commandEnv(). */
  private spawnPulumi(
    args: string[],
    onOutput?: (text: string) => void,
    extraEnv: Record<string, string> = {},
  ): Promise<string> {
    const split = args.includes("--") ? args.indexOf("--") : args.length;
    const argv = [...args.slice(0, split), "--stack", this.name, "--non-interactive", ...args.slice(split)];
    return new Promise((resolve, reject) => {
      const child = spawn("pulumi", argv, {
        cwd: path.resolve(this.options.programDir),
        env: { ...this.commandEnv(), ...extraEnv },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        stdout += text;
        onOutput?.(text);
      });
      child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0 ? resolve(stdout) : reject(new CliCommandError(argv, code, stdout, stderr, this.secrets)),
      );
    });
  }

  /** `pulumi stack export`: the checkpoint as the backend holds it, secrets encrypted. */
  exportState(): Promise<string> {
    return this.command("stack", "export");
  }

  /** `pulumi cancel --yes`: removes the lock an interrupted (killed) operation left on the stack. */
  async cancel(): Promise<void> {
    await this.command("cancel", "--yes");
  }

  /**
   * Removes the stack's settings file from the program directory (the backend directory is the caller's), and lets
   * the key service go.
   */
  close(): void {
    this.keyService?.release();
    const dir = path.resolve(this.options.programDir);
    for (const ext of [".yaml", ".yml", ".json"])
      fs.rmSync(path.join(dir, `Pulumi.${this.name}${ext}`), { force: true });
  }

  /**
   * One StepRecord per resource: the op from its ResourcePreEvent (emitted for every step, "same" included, in
   * preview and in updates), the id and changed keys from its ResOutputsEvent when the step finished, and the
   * failure from its ResOpFailedEvent. The stack's outputs come from the stack resource's ResOutputsEvent.
   */
  private static readEvents(
    kind: OperationKind,
    events: EngineEvent[],
  ): { steps: StepRecord[]; stackOutputs?: Record<string, unknown> } {
    const steps: StepRecord[] = [];
    const byUrn = new Map<string, StepRecord>();
    let stackOutputs: Record<string, unknown> | undefined;
    for (const e of events) {
      const failed = e.resOpFailedEvent?.metadata;
      if (failed) {
        const s = byUrn.get(failed.urn);
        if (s) s.failed = `${failed.op} failed`;
        continue;
      }
      const meta = e.resourcePreEvent?.metadata ?? e.resOutputsEvent?.metadata;
      if (!meta) continue;
      if (e.resOutputsEvent && meta.type === STACK_TYPE && meta.new?.outputs) stackOutputs = meta.new.outputs;
      let op = OP_MAP[meta.op];
      if (!op) continue;
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
    }
    return { steps, stackOutputs };
  }

  /**
   * Runs one operation with an event log beside the backend and maps its events. A failed operation rejects with a
   * DeploymentError carrying what was done before it failed (steps.ts), its cause the CliCommandError.
   */
  private async run(kind: OperationKind, args: string[]): Promise<OperationResult> {
    const started = Date.now();
    const eventLog = path.join(
      path.dirname(path.resolve(this.options.backendDir)),
      `events-${this.name}-${++this.eventLogs}.jsonl`,
    );
    let failure: unknown;
    try {
      await this.commandWithEventLog(eventLog, args, this.options.onOutput);
    } catch (error) {
      failure = error;
    }
    const text = fs.existsSync(eventLog) ? fs.readFileSync(eventLog, "utf8") : "";
    fs.rmSync(eventLog, { force: true });
    const events = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as EngineEvent);
    const { steps, stackOutputs } = CliStack.readEvents(kind, events);
    // Outputs change only where the program runs (up); a refresh reports the recorded ones.
    const rawOutputs =
      stackOutputs ??
      (kind === "refresh" && !failure
        ? (JSON.parse(await this.command("stack", "output", "--json")) as Record<string, unknown>)
        : {});
    const result: OperationResult = {
      kind,
      steps,
      outputs: Object.fromEntries(Object.entries(rawOutputs).map(([k, v]) => [k, revealSecretMarks(v)])),
      summary: summarize(steps),
      durationMs: Date.now() - started,
    };
    if (failure) {
      const error = new DeploymentError(`pulumi ${kind} failed: ${(failure as Error).message}`, result);
      (error as { cause?: unknown }).cause = failure;
      throw error;
    }
    return result;
  }

  preview(): Promise<OperationResult> {
    return this.run("preview", ["preview"]);
  }
  up(): Promise<OperationResult> {
    return this.run("up", ["up", "--yes", "--skip-preview"]);
  }
  /** `clearPendingCreates`: drop the pending creates an interrupted operation left (`--clear-pending-creates`). */
  refresh(opts: { clearPendingCreates?: boolean } = {}): Promise<OperationResult> {
    const extra = opts.clearPendingCreates ? ["--clear-pending-creates"] : [];
    return this.run("refresh", ["refresh", "--yes", "--skip-preview", ...extra]);
  }
  destroy(): Promise<OperationResult> {
    return this.run("destroy", ["destroy", "--yes", "--skip-preview"]);
  }
}

/**
 * Event values mark a secret as `{ <sig>: ..., ciphertext: "[secret]" }` (the plaintext is not in the log, and the
 * tests never need it): such a value becomes a secret envelope around "[secret]", the way secret outputs are marked.
 */
function revealSecretMarks(value: unknown): unknown {
  if (value === "[secret]") return wrapSecret("[secret]"); // `pulumi stack output --json` (a refresh's outputs)
  if (Array.isArray(value)) return value.map(revealSecretMarks);
  if (value === null || typeof value !== "object") return value;
  const bag = value as Record<string, unknown>;
  if (SECRET_SIG in bag) return wrapSecret("[secret]");
  return Object.fromEntries(Object.entries(bag).map(([k, v]) => [k, revealSecretMarks(v)]));
}
