/**
 * What a check or a diff has to tell the user besides its result: a warning (the disk is erased, the VPS
 * restarts, the IP changes, a check that could not run) or a line of information (a price). The lifecycle
 * returns them as data (checkVps, diffVps); each front end shows them its own way. The dynamic provider's
 * way is here: on the resource itself through the engine's Log RPC when the resource's URN is known (the
 * Vps class passes it in previews), otherwise as a line of the stack's diagnostics.
 */
import { dynamicHostEngineLog, type Severity } from "./engine-log.js";
import { log } from "./log.js";
import { runState, type RunContext } from "./run-context.js";
import { PREVIEW_FLAG } from "../fields/vps-fields.js";

export interface Note {
  severity: Severity;
  /** One line, starting with the resource's name (it may be shown at the stack level). */
  text: string;
}

export const warning = (text: string): Note => ({ severity: "warning", text });
export const info = (text: string): Note => ({ severity: "info", text });

/** The URN the Vps class put in a preview's inputs (PREVIEW_FLAG), if any. */
export function previewUrnOf(news: Record<string, unknown>): string | undefined {
  const flag = news[PREVIEW_FLAG];
  return typeof flag === "string" && flag.startsWith("urn:pulumi:") ? flag : undefined;
}

/**
 * The run's connection to the engine's log in the dynamic host (engine-log.ts), opened with the first note that has
 * a resource's URN; none outside a host. A host serves one run, so it is opened once per process.
 */
const HOST_LOG = runState("the dynamic host's connection to the engine's log", () => dynamicHostEngineLog());

/**
 * Shows the notes of one resource: attached to it when its URN and the engine are known, else as stack lines where
 * `run`'s lines go.
 */
export async function emitNotes(
  run: RunContext,
  notes: readonly Note[],
  urn: string | undefined,
): Promise<void> {
  const engineLog = urn === undefined ? undefined : run.get(HOST_LOG);
  for (const note of notes) {
    const delivered =
      engineLog !== undefined && urn !== undefined && (await engineLog(urn, note.severity, note.text));
    if (!delivered) log(run, note.severity === "warning" ? `warning: ${note.text}` : note.text);
  }
}

/** The resource's name in the program (the last part of creationScope), or its domain name. */
export function resourceName(inputs: Record<string, unknown>): string {
  const scope = inputs.creationScope;
  if (typeof scope === "string" && scope.includes("/")) return scope.slice(scope.lastIndexOf("/") + 1);
  if (typeof inputs.domainName === "string") return inputs.domainName;
  return "Vps";
}

/** What identifies the resource within a run (its project/stack/name), for per-resource bookkeeping. */
export function resourceKey(inputs: Record<string, unknown>): string {
  const scope = inputs.creationScope;
  return typeof scope === "string" ? scope : `domain:${String(inputs.domainName)}`;
}
