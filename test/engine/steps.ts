// What one operation (preview, up, refresh, destroy) did, read from the CLI's engine events by cli-stack.ts.

export type OperationKind = "preview" | "up" | "refresh" | "destroy";
/** "delete-replaced" is the deferred deletion of the old half of a create-before-delete replacement. */
export type StepOp =
  "same" | "create" | "update" | "replace" | "delete" | "delete-replaced" | "refresh" | "read";

export interface StepRecord {
  op: StepOp;
  urn: string;
  type: string;
  name: string;
  id?: string;
  /** Properties whose change caused an update or replace; for a refresh, the outputs that drifted. */
  keys?: string[];
  deleteBeforeReplace?: boolean;
  /** The step failed (or left the resource not fully initialized). */
  failed?: string;
  initErrors?: string[];
  durationMs?: number;
}

/** Counts per op, for the "Resources:" summary. */
export function summarize(steps: readonly StepRecord[]): Partial<Record<StepOp, number>> {
  const counts: Partial<Record<StepOp, number>> = {};
  for (const s of steps) if (!s.failed && s.op !== "delete-replaced") counts[s.op] = (counts[s.op] ?? 0) + 1;
  return counts;
}

/** Stack config as `pulumi config set [--secret]` takes it. */
export interface StackConfigValue {
  value: string;
  secret?: boolean;
}

export interface OperationResult {
  kind: OperationKind;
  steps: StepRecord[];
  /** Stack outputs; secret values are secret envelopes, unknown ones the SDK's unknown sentinel. */
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
