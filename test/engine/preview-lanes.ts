// The machinery of the case table (preview-cases.ts) through the real CLI, for both front ends: a lane is a stack
// and an emulator of its own, with a program that holds the VPSs of one case: the dynamic `Vps` in JavaScript
// (fixtures/preview-cases, reading the case from a file) or the native plugin in YAML (Pulumi.yaml written for each
// case). preview-cases.test.ts runs the whole table on the dynamic Vps, native-preview-cases.test.ts the rows marked
// `native` on the plugin.
import { expect } from "@jest/globals";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { ENDPOINTS } from "../../contract/index";
import { DEMO_API_KEY } from "../../emulator/index";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "./cli-stack";
import { NATIVE_VPS_TYPE, pluginEntry } from "./native-programs";
import type { StackConfigValue } from "./steps";
import type { RefusedCase } from "./preview-case-kinds";
import { refusedName, type CaseProgram } from "./preview-cases";

const DYNAMIC_PROGRAM_DIR = path.join(__dirname, "fixtures", "preview-cases");
export const DYNAMIC_VPS_TYPE = "pulumi-nodejs:dynamic/rimuhosting:Vps";

export type FrontEnd = "dynamic" | "native";

interface Diagnostic {
  urn?: string;
  severity: string;
  message: string;
}

/** What one `pulumi` operation showed. */
export interface Shown {
  failed: boolean;
  diagnostics: Diagnostic[];
  /** op of each resource's step, by name. */
  steps: Record<string, string>;
  /** The preview's outputs of each Vps (unknowns as the SDK's sentinel). */
  outputs: Record<string, Record<string, unknown>>;
  /** Requests that change something (quotes excepted), during the operation. */
  mutations: string[];
  ms: number;
}

/** A stack of the case program with an emulator of its own. */
export interface Lane {
  frontEnd: FrontEnd;
  emulator: TestEmulator;
  stack: CliStack;
  casesFile: string;
  dir: string;
  programDir: string;
}

export async function startLane(name: string, frontEnd: FrontEnd = "dynamic"): Promise<Lane> {
  const emulator = await startTestEmulator({ timeScale: 0 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `preview-cases-${frontEnd}-${name}-`));
  const casesFile = path.join(dir, "cases.json");
  let programDir = DYNAMIC_PROGRAM_DIR;
  if (frontEnd === "native") {
    programDir = path.join(dir, "program");
    fs.mkdirSync(programDir);
    writeYamlCase(programDir, { vpss: {} });
  }
  const stack = await CliStack.create({
    programDir,
    stackName: name,
    backendDir: path.join(dir, "backend"),
    env: { PREVIEW_CASES_FILE: casesFile },
    config: {
      "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
      "rimuhosting:baseUrl": emulator.baseUrl,
    },
  });
  return { frontEnd, emulator, stack, casesFile, dir, programDir };
}

/**
 * The case as a YAML program of the native plugin (JSON is YAML). Records built from IPs and components are the
 * dynamic program's only: the native rows of the table need neither.
 */
function writeYamlCase(programDir: string, program: CaseProgram): void {
  const resources = Object.fromEntries(
    Object.entries(program.vpss).map(([name, args]) => [name, { type: NATIVE_VPS_TYPE, properties: args }]),
  );
  const body = Object.keys(resources).length > 0 ? `resources: ${JSON.stringify(resources)}\n` : "";
  fs.writeFileSync(
    path.join(programDir, "Pulumi.yaml"),
    `name: preview-cases\nruntime: yaml\n${pluginEntry()}${body}`,
  );
}

export async function closeLane(lane: Lane | undefined): Promise<void> {
  if (!lane) return;
  lane.stack.close();
  await lane.emulator.close();
  fs.rmSync(lane.dir, { recursive: true, force: true });
}

/** `<{%reset%}>`-style colour marks of the event log's messages, and trailing space. */
const plain = (text: string) => text.replace(/<\{%[^%]*%\}>/g, "").trim();

/** Runs `pulumi <args>` with the program given `program`, and reads what it showed from its event log. */
export async function operate(lane: Lane, program: CaseProgram, args: string[]): Promise<Shown> {
  if (lane.frontEnd === "native") writeYamlCase(lane.programDir, program);
  else fs.writeFileSync(lane.casesFile, JSON.stringify(program));
  const eventLog = path.join(lane.dir, `events-${Date.now()}-${Math.random().toString(16).slice(2)}.jsonl`);
  const mark = lane.emulator.requestLog().length;
  const started = Date.now();
  let failed = false;
  try {
    await lane.stack.commandWithEventLog(eventLog, args);
  } catch {
    failed = true;
  }
  const events = fs.existsSync(eventLog)
    ? fs
        .readFileSync(eventLog, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as EngineEvent)
    : [];
  fs.rmSync(eventLog, { force: true });
  const shown: Shown = {
    failed,
    diagnostics: [],
    steps: {},
    outputs: {},
    mutations: lane.emulator
      .requestLog()
      .slice(mark)
      .filter((entry) => entry.route !== "unknown" && ENDPOINTS[entry.route].mutates)
      .map((entry) => `${entry.method} ${entry.route}`),
    ms: Date.now() - started,
  };
  const vpsType = lane.frontEnd === "native" ? NATIVE_VPS_TYPE : DYNAMIC_VPS_TYPE;
  for (const event of events) {
    const d = event.diagnosticEvent;
    if (d && d.severity !== "info#err" && (d.severity as string) !== "debug" && !/^\s*$/.test(d.message))
      shown.diagnostics.push({ urn: d.urn || undefined, severity: d.severity, message: plain(d.message) });
    const meta = event.resourcePreEvent?.metadata ?? event.resOutputsEvent?.metadata;
    if (meta) {
      const name = meta.urn.slice(meta.urn.lastIndexOf("::") + 2);
      shown.steps[name] = meta.op;
      if (meta.type === vpsType && meta.new?.outputs) shown.outputs[name] = meta.new.outputs;
    }
  }
  return shown;
}

/** The lines shown about resource `name` (attached to it, or printed by the provider at the stack level). */
export function linesAbout(shown: Shown, name: string): string[] {
  return shown.diagnostics
    .filter((d) => (d.urn ? d.urn.endsWith(`::${name}`) : true))
    .map((d) =>
      d.severity === "warning" && !d.message.startsWith("warning:") ? `warning: ${d.message}` : d.message,
    );
}

/** The stack's config for one case (its API key or address), and back to the lane's own after it. */
export async function withConfig<T>(
  lane: Lane,
  config: Record<string, string>,
  run: () => Promise<T>,
): Promise<T> {
  const own: Record<string, StackConfigValue> = {
    "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
    "rimuhosting:baseUrl": { value: lane.emulator.baseUrl },
  };
  const keys = Object.keys(config);
  const unknown = keys.filter((k) => !(k in own));
  if (unknown.length > 0)
    throw new Error(`withConfig restores only ${Object.keys(own).join(" and ")}, not ${unknown}`);
  await lane.stack.setConfigs(config);
  try {
    return await run();
  } finally {
    await lane.stack.setConfigs(Object.fromEntries(keys.map((k) => [k, own[k]!])));
  }
}

/** Runs `items` with at most `lanes.length` at a time, each on a lane of its own. */
export async function inLanes<T>(
  lanes: Lane[],
  items: T[],
  run: (lane: Lane, item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    lanes.map(async (lane) => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(lane, item);
    }),
  );
}

/** A refused case's `pulumi up`: its preview failed on the case's VPS, naming the code and input, changing nothing. */
/**
 * The VPS a refused case's preview failed on: its own, or for changes that fit one by one but not together, whichever
 * of them the engine checked when the sum no longer fit (host-room.ts).
 */
export function failedOn(c: RefusedCase, shown: Shown): string {
  const together = [refusedName(c), ...Object.keys({ ...c.alongside, ...c.behind })];
  const failing = together.find((name) =>
    linesAbout(shown, name).some((line) => line.includes(`resource '${name}' has a problem`)),
  );
  return failing ?? refusedName(c);
}

export function expectRefused(c: RefusedCase, shown: Shown): void {
  // A wrong setting fails every VPS alike: the engine reports whichever it checked first.
  const about = c.config ? "" : failedOn(c, shown);
  const lines = c.config ? shown.diagnostics.map((d) => d.message) : linesAbout(shown, about);
  // The preview failed on this VPS, with the code and the input or setting named right after it, and nothing
  // was ordered or changed (the update never ran).
  expect({ failed: shown.failed, mutations: shown.mutations }).toEqual({ failed: true, mutations: [] });
  expect(lines).toContainEqual(expect.stringContaining(`[${c.code}] ${c.names}`));
  const error = lines.find((line) => line.includes(`[${c.code}] ${c.names}`))!;
  if (c.says) expect(error).toMatch(c.says);
  expect(error).toMatch(new RegExp(`resource '${about || "[^']+"}' has a problem`));
  expect(error).not.toMatch(/\n\s+at |value \{/); // no stack, no value in the engine's own notation
}
