// What one operation did to one resource, and the pure decision of which step a registration needs
// (the part of the engine's step generator that dynamic resources exercise).
import type { DiffResult, PropertyMap } from "../helpers/provider-host";
import { changedKeys, samePlainProperties } from "./property-values";

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

export interface StepDecision {
  op: "same" | "create" | "update" | "replace";
  keys: string[];
  deleteBeforeReplace: boolean;
}

/**
 * Same / update / replace for a resource that exists in state, from the provider's Diff. DIFF_UNKNOWN (provider has
 * no diff()) falls back to comparing old and new inputs, as step_generator.go does; initErrors force an update so
 * the provider can finish initializing; deleteBeforeReplace comes from the provider or the resource option.
 */
export function decideExistingStep(
  oldInputs: PropertyMap,
  news: PropertyMap,
  diff: DiffResult,
  opts: { initErrors: string[]; deleteBeforeReplaceOption: boolean },
): StepDecision {
  const keys = changedKeys(oldInputs, news);
  const changed =
    diff.changes === "unknown" ? !samePlainProperties(oldInputs, news) : diff.changes === "some";
  if (diff.replaces.length > 0) {
    return {
      op: "replace",
      keys: [...diff.replaces].sort(),
      deleteBeforeReplace: diff.deleteBeforeReplace || opts.deleteBeforeReplaceOption,
    };
  }
  if (changed || opts.initErrors.length > 0) return { op: "update", keys, deleteBeforeReplace: false };
  return { op: "same", keys: [], deleteBeforeReplace: false };
}

/** Counts per op, for the "Resources:" summary. */
export function summarize(steps: readonly StepRecord[]): Partial<Record<StepOp, number>> {
  const counts: Partial<Record<StepOp, number>> = {};
  for (const s of steps) if (!s.failed && s.op !== "delete-replaced") counts[s.op] = (counts[s.op] ?? 0) + 1;
  return counts;
}
