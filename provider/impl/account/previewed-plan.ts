/**
 * What the latest preview of a stack planned on an account, kept for the update that follows it (docs/cost.md, "What
 * a budget limits, and when").
 *
 * Why: the update of `pulumi up` checks each VPS again as its registration reaches the engine, in an order that can
 * differ from the preview's, and runs a create just after its check. A create can so be judged at ordering before
 * the update has checked a shrink the preview counted; the guard never counts a shrink this run has not checked (I3),
 * so it was refused and a run whose preview passed failed (I1). With this record the guard knows the preview planned
 * such a shrink, and waits a while for its check in this run (ordering/previewed-wait.ts): a reason to wait, never a
 * fee counted.
 *
 * The preview and the update are different engine runs (each its own engine address, so its own shared plan,
 * shared-plan.ts), so this file is named by the stack (project/stack, from the resource's creationScope) and a hash
 * of the account's URL and key (never the key), in the plans' directory (plan-files.ts). Every check of a VPS with a
 * budget appends one line (one write, O_APPEND): the preview's its fee now and after, tagged with its engine run; the
 * update's that the VPS was checked since, so a preview's plan of it is no longer waited for. The latest line of a
 * resource is its entry; only the latest preview's entries (the engine run of the latest preview line) count. The
 * file is begun again once it passes MAX_BYTES, and swept with the shared plans (its name starts the same).
 *
 * The native plugin is not told which phase a check is (it flags every check a preview), so its update's checks are
 * tagged with their engine run too. So the latest preview is the latest engine run that is neither the reader's own
 * (only an update reads, or a check asking whether an update would wait) nor marked as an update: the first judged
 * change of a run appends that mark (`{"key":"","update":…}`). A resource whose latest line is of such a run was
 * checked since.
 *
 * Owns: the file, its entries. Read only when a change would be refused, so a passing run pays one append per check.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { VpsFee } from "../cost/verdict.js";
import { appendPlanLine, planDirectory, PLAN_PREFIX } from "./plan-files.js";

/** Starts as every plan file does, so the sweep removes those of stacks not run for a day. */
const PREFIX = `${PLAN_PREFIX}stack-`;
/** A file this long (about 5,000 checks) is begun again: what a run needs is the latest preview, not the history. */
const MAX_BYTES = 1 << 20;

interface Line {
  key: string;
  /** A hash of the engine run that checked it; absent: checked by an update. */
  preview?: string;
  fee?: VpsFee;
  /** A mark, not a check: this engine run made a judged change, so it is an update (its checks are no preview's). */
  update?: string;
}

/** The stack of a resource key (project/stack/name), or undefined (a VPS with no creationScope). */
const stackOf = (resource: string): string | undefined => {
  const cut = resource.lastIndexOf("/");
  return resource.startsWith("domain:") || cut <= 0 ? undefined : resource.slice(0, cut);
};

export class PreviewedPlans {
  /** The files this run has written to (each checked for its length once). */
  private readonly begun = new Set<string>();
  /** The files this run has marked as an update's. */
  private readonly marked = new Set<string>();
  private readonly engineRun: string;

  constructor(
    private readonly accountKey: string,
    command: string,
  ) {
    this.engineRun = createHash("sha256").update(command).digest("hex").slice(0, 16);
  }

  private fileOf(stack: string): string {
    const name = createHash("sha256").update(`${this.accountKey}\n${stack}`).digest("hex").slice(0, 32);
    return path.join(planDirectory(), `${PREFIX}${name}.jsonl`);
  }

  /** check(): `resource` was checked, by a preview (its fee) or by an update. */
  record(resource: string, fee: VpsFee, preview: boolean): void {
    const stack = stackOf(resource);
    if (stack === undefined) return;
    this.append(stack, preview ? { key: resource, preview: this.engineRun, fee } : { key: resource });
  }

  /** The guard judges a change of `resource`: this engine run is an update, whatever its checks were tagged. */
  noteUpdate(resource: string): void {
    const stack = stackOf(resource);
    if (stack === undefined || this.marked.has(stack)) return;
    this.marked.add(stack);
    this.append(stack, { key: "", update: this.engineRun });
  }

  private append(stack: string, line: Line): void {
    const file = this.fileOf(stack);
    try {
      if (!this.begun.has(file)) {
        this.begun.add(file);
        if ((fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_BYTES)
          fs.rmSync(file, { force: true });
      }
      appendPlanLine(file, `${JSON.stringify(line)}\n`);
    } catch {
      // A record that cannot be kept leaves the guard refusing as it did without it: never a failed check.
    }
  }

  /**
   * The shrinks the latest preview of `resource`'s stack planned (a fee after below the fee now), by resource, of
   * the VPSs no update has checked since.
   */
  shrinks(resource: string): Map<string, VpsFee> {
    const stack = stackOf(resource);
    const latest = new Map<string, Line>();
    let previewRun: string | undefined;
    if (stack === undefined) return new Map();
    let lines: Line[] = [];
    try {
      lines = fs
        .readFileSync(this.fileOf(stack), "utf8")
        .split("\n")
        .map(parsed)
        .filter((line) => line !== undefined);
    } catch {
      // No record: nothing to wait for.
    }
    // Runs that are no preview: this one, and those marked as updates (the native plugin's tag their checks too).
    const updates = new Set([this.engineRun, ...lines.map((line) => line.update)]);
    for (const line of lines) {
      if (line.update !== undefined) continue;
      latest.set(line.key, line);
      if (line.preview !== undefined && !updates.has(line.preview)) previewRun = line.preview;
    }
    const out = new Map<string, VpsFee>();
    for (const [key, line] of latest) {
      const fee = line.fee;
      if (line.preview !== previewRun || !fee || !("cents" in fee.after)) continue;
      if (fee.nowCents !== undefined && fee.after.cents < fee.nowCents) out.set(key, fee);
    }
    return out;
  }
}

/** One line of the file, or undefined (a torn or foreign line counts for nothing). */
function parsed(text: string): Line | undefined {
  try {
    const line = JSON.parse(text) as Partial<Line>;
    return typeof line.key === "string" ? (line as Line) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shrinks the latest preview of `resource`'s stack planned that `seen` says this run has not checked (nor made),
 * other than `resource` itself: the guard's reason to wait (ordering/previewed-wait.ts), and the native plugin's
 * check's reason to leave an over verdict to the step the engine says is a preview's (budget/budget.ts).
 */
export function previewedShrinksNotSeen(
  plans: PreviewedPlans | undefined,
  resource: string,
  seen: (key: string) => boolean,
): [key: string, fee: VpsFee][] {
  return [...(plans?.shrinks(resource) ?? [])].filter(([key]) => key !== resource && !seen(key));
}
