// The world the workflows of team-backend-scenarios.ts run in: one emulator, one team backend (PostgreSQL or S3),
// a scratch directory, the stacks made on it, and what was printed or written (for the backend secret's check); with
// the steps the scenarios share (a YAML project, a stack on the backend, a killed `up`, docs/ci.md's cleanup step).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { expect } from "@jest/globals";
import { parse } from "yaml";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { createClient, type RimuClient } from "../../provider/client/index";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "./cli-stack";
import { VPS_TYPE } from "./e2e-support";
import {
  NATIVE_VPS_TYPE,
  PLUGIN_VERSION,
  pluginEntry,
  pulumiFailure,
  pulumiText,
  REPO_ROOT,
} from "./native-programs";
import { runKilled } from "./kill-run";
import type { OperationResult } from "./steps";
import { newTeamBackend, type TeamBackend, type TeamBackendKind } from "./team-backends";

export const PLUGIN = path.join(__dirname, "..", "..", "bin", "pulumi-resource-rimuhosting");

/** A YAML VPS as every program here declares it (Dallas, MIRO1B, 1 GB, 20 GB). */
export const yamlVps = (name: string, domainName: string, extra = "") =>
  `  ${name}:\n    type: rimuhosting:index:Vps\n    properties:\n      domainName: ${domainName}\n` +
  `      dcLocation: DCDALLAS\n      pricingPlanCode: MIRO1B\n      distro: deb12.64\n      memoryMb: 1024\n` +
  `      diskSpaceMb: 20480\n${extra}`;

/** The op of each VPS step of an operation, on either front end. */
export const vpsOps = (result: OperationResult): string[] =>
  result.steps.filter((step) => [VPS_TYPE, NATIVE_VPS_TYPE].includes(step.type)).map((step) => step.op);

/** `command args` run to its end: its exit code and what it wrote to stdout and stderr, interleaved. */
export function collected(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** One backend's world, made by start() in a beforeAll and closed by close() in an afterAll. */
export class TeamWorld {
  emulator!: TestEmulator;
  client!: RimuClient;
  backend!: TeamBackend;
  scratch!: string;
  /** Everything printed or written that the backend's secret must not be in. */
  readonly seen: string[] = [];
  readonly stacks: CliStack[] = [];

  constructor(readonly kind: TeamBackendKind) {}

  async start(): Promise<void> {
    this.emulator = await startTestEmulator({ timeScale: 0 });
    this.client = createClient({ apiKey: DEMO_API_KEY, baseUrl: this.emulator.baseUrl });
    this.backend = await newTeamBackend(this.kind, this.kind);
    this.scratch = fs.mkdtempSync(path.join(os.tmpdir(), `backends-${this.kind}-`));
  }

  async close(): Promise<void> {
    for (const stack of this.stacks) stack.close();
    this.client?.close();
    await this.emulator?.close();
    if (this.scratch) fs.rmSync(this.scratch, { recursive: true, force: true });
  }

  /** A YAML project `name` in the scratch directory, its program `resources`. */
  yamlProject(name: string, resources: string): string {
    const dir = path.join(this.scratch, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: ${name}\nruntime: yaml\n${pluginEntry(PLUGIN_VERSION)}resources:${resources ? `\n${resources}` : " {}\n"}`,
    );
    return dir;
  }

  /** A stack of the program in `programDir` on the team's backend, with the demo account's key. */
  async stackOn(
    programDir: string,
    stackName: string,
    config: Record<string, string> = {},
    other?: { fileBackend?: true; exactName?: true },
  ) {
    const fileBackend = other?.fileBackend === true;
    const stack = await CliStack.create({
      programDir,
      stackName,
      exactName: other !== undefined,
      backendDir: path.join(this.scratch, fileBackend ? "file-backend" : "home", stackName),
      backendUrl: fileBackend ? undefined : this.backend.url,
      env: { ...this.backend.env, [ENV_VARS.apiKey]: DEMO_API_KEY },
      config: { "rimuhosting:baseUrl": this.emulator.baseUrl, ...config },
      onOutput: (text) => this.seen.push(text),
    });
    this.stacks.push(stack);
    return stack;
  }

  /** `pulumi <args>` on `stack`, its display kept for the secret's check. */
  async pulumi(stack: CliStack, ...args: string[]): Promise<string> {
    const text = await pulumiText(stack, ...args);
    this.seen.push(text);
    return text;
  }

  /** The demo account's orders not cancelled. */
  activeOrders() {
    return this.emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);
  }

  /** Every order number a VPS of the stacks' states holds (pulumi stack export of each). */
  async heldOrders(of: readonly CliStack[] = this.stacks): Promise<number[]> {
    const held: number[] = [];
    for (const stack of of) {
      const state = await stack.exportState();
      this.seen.push(state);
      const resources =
        (JSON.parse(state) as { deployment?: { resources?: { outputs?: { orderOid?: unknown } }[] } })
          .deployment?.resources ?? [];
      for (const r of resources) if (typeof r.outputs?.orderOid === "number") held.push(r.outputs.orderOid);
    }
    return held.sort((a, b) => a - b);
  }

  /** No active order that no state holds, and none held twice. */
  async expectEveryOrderHeld(): Promise<void> {
    const active = this.activeOrders()
      .map((o) => o.orderOid)
      .sort((a, b) => a - b);
    expect(await this.heldOrders()).toEqual(active);
  }

  async placeByHand(domainName: string): Promise<number> {
    const placed = await this.client.createVps({
      instantiation_options: { domain_name: domainName, distro: "deb12.64" },
      dc_location: "DCDALLAS",
    });
    return placed.about_order.order_oid;
  }

  /**
   * docs/ci.md's cleanup step (the `up` job's step that runs after a failed or cancelled `up`), its script run as the
   * runner runs it (bash -e) in `stack`'s directory and environment, STACK its name, `npx` the checkout's commands.
   */
  async cleanupStep(stack: CliStack): Promise<{ code: number | null; output: string }> {
    const page = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "ci.md"), "utf8");
    const block = /<!-- recipe: workflow -->\s*```yaml\n([\s\S]*?)```/.exec(page)![1]!;
    const steps = (parse(block) as { jobs: { up: { steps: { name?: string; run?: string }[] } } }).jobs.up
      .steps;
    const script = steps.find((step) => step.name?.startsWith("Cancel the orders"))!.run!;
    // `npx rimuhosting-killed-orders` as the project with the package installed runs it: the checkout's build.
    const bin = path.join(this.scratch, "npx-bin");
    fs.mkdirSync(bin, { recursive: true });
    const command = path.join(REPO_ROOT, "dist/provider/adopt/killed-orders.js");
    fs.writeFileSync(
      path.join(bin, "npx"),
      `#!/bin/sh\n[ "$1" = rimuhosting-killed-orders ] || { echo "npx stand-in: $1" >&2; exit 1; }\n` +
        `shift; exec "${process.execPath}" "${command}" "$@"\n`,
      { mode: 0o755 },
    );
    const env: NodeJS.ProcessEnv = { ...stack.commandEnv(), STACK: stack.name };
    env.PATH = `${bin}${path.delimiter}${env.PATH ?? ""}`;
    return collected("bash", ["--noprofile", "--norc", "-e", "-c", script], { cwd: stack.programDir, env });
  }

  /** `pulumi up` of `stack` SIGKILLed once its new order is committed (the answer held back), then `pulumi cancel`. */
  async killedUp(stack: CliStack): Promise<number> {
    const before = this.activeOrders().length;
    this.emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 60_000 });
    let locked = "";
    await runKilled(stack, "up", "the order to be committed", async () => {
      if (this.activeOrders().length === before) return false;
      // The run waits for its order's answer: the backend's lock refuses a second `up` of the stack meanwhile.
      locked = await pulumiFailure(stack, "up", "--yes", "--skip-preview");
      return true;
    });
    expect(locked).toMatch(/currently locked/);
    this.emulator.app.emulator.faults.clear();
    const killed = this.activeOrders().at(-1)!.orderOid;
    expect(await this.heldOrders()).not.toContain(killed);
    return killed;
  }
}
