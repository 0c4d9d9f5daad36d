// Running one step: display it (start, progress, end), time it, record it; and deleting a set of resources in
// dependency order. Shared by up/preview, refresh and destroy.
import {
  nameOfUrn,
  ProviderHostError,
  typeOfUrn,
  type PropertyMap,
  type ProviderHost,
} from "../helpers/provider-host";
import { deleteOrder } from "./delete-order";
import type { OpsPrinter } from "./ops-printer";
import { unwrapSecrets } from "./property-values";
import type { ResourceState } from "./state-store";
import type { StepOp, StepRecord } from "./steps";

export interface StepContext {
  printer: OpsPrinter;
  /** Every step of the operation, in the order they finished. */
  steps: StepRecord[];
  dryRun: boolean;
}

export const plainOf = (props: PropertyMap): PropertyMap => unwrapSecrets(props).plain;

export function errorMessage(e: unknown): string {
  if (e instanceof ProviderHostError) return e.details;
  return e instanceof Error ? e.message : String(e);
}

export function newStep(
  op: StepOp,
  r: { urn: string; id?: string },
  extra: Partial<StepRecord> = {},
): StepRecord {
  return { op, urn: r.urn, type: typeOfUrn(r.urn), name: nameOfUrn(r.urn), id: r.id || undefined, ...extra };
}

/** Runs `work` as a displayed step; a thrown error marks the step failed and is rethrown. */
export async function runStep<T>(ctx: StepContext, step: StepRecord, work: () => Promise<T>): Promise<T> {
  const end = step.op === "same" ? undefined : ctx.printer.stepStarted(step, ctx.dryRun);
  const t0 = Date.now();
  try {
    const value = await work();
    step.durationMs = Date.now() - t0;
    ctx.steps.push(step);
    end?.(step);
    return value;
  } catch (e) {
    step.failed = errorMessage(e);
    step.durationMs = Date.now() - t0;
    ctx.steps.push(step);
    end?.(step);
    throw e;
  }
}

/**
 * Deletes resources dependents first. A failed delete keeps that resource and everything it depends on (the engine
 * assumes a resource whose delete failed still exists). Returns the first failure, if any.
 */
export async function deleteResources(
  ctx: StepContext,
  resources: ResourceState[],
  provider: () => Promise<ProviderHost>,
  onDeleted: (r: ResourceState) => void,
): Promise<string | undefined> {
  const blocked = new Set<string>();
  let failure: string | undefined;
  for (const r of deleteOrder(resources)) {
    if (blocked.has(r.urn)) {
      for (const d of [...r.dependencies, r.parent]) blocked.add(d);
      continue;
    }
    const step = newStep(r.pendingDelete ? "delete-replaced" : "delete", r);
    try {
      await runStep(ctx, step, async () => {
        if (ctx.dryRun || !r.custom || !r.id) return;
        const host = await provider();
        await host.delete(r.id, r.urn, plainOf(r.outputs), plainOf(r.inputs));
      });
      if (!ctx.dryRun) onDeleted(r);
    } catch (e) {
      failure ??= `deleting ${r.urn} failed: ${errorMessage(e)}`;
      for (const d of [...r.dependencies, r.parent]) blocked.add(d);
    }
  }
  return failure;
}
