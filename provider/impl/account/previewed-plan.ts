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
 * The file outlives the commands that write it, and an engine run's tag (a hash of the engine's address) comes back
 * with a later command that gets the same port. So each line also names the run that wrote it (plan-writer.ts) and
 * when: an update's mark covers its engine run's lines up to its writer's last one, never a later command's of the
 * same address (which it once hid: this update then found no preview and refused the create its preview had passed);
 * the latest preview is its engine run's lines since another run's, never an earlier command's of the same address
 * (whose shrinks it once waited for); a line older than a day, or of an earlier release (no writer), counts for
 * nothing.
 *
 * Owns: the file, its entries. Read only when a change would be refused, so a passing run pays one append per check.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import type { VpsFee } from "../cost/verdict.js";
import { appendPlanLine, PLAN_MAX_AGE_MS, previewedPlanFile } from "./plan-files.js";

/** A file this long (about 5,000 checks) is begun again: what a run needs is the latest preview, not the history. */
const MAX_BYTES = 1 << 20;

interface Line {
  key: string;
  /** The run that wrote it (plan-writer.ts). */
  writer: string;
  /** When it was written (epoch ms). */
  at: number;
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
    /** This run's name in the plan files (plan-writer.ts). */
    private readonly writer: string,
  ) {
    this.engineRun = createHash("sha256").update(command).digest("hex").slice(0, 16);
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

  private append(stack: string, line: Omit<Line, "writer" | "at">): void {
    const file = previewedPlanFile(this.accountKey, stack);
    try {
      if (!this.begun.has(file)) {
        this.begun.add(file);
        if ((fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_BYTES)
          fs.rmSync(file, { force: true });
      }
      appendPlanLine(file, `${JSON.stringify({ ...line, writer: this.writer, at: Date.now() })}\n`);
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
    if (stack === undefined) return new Map();
    const lines = readLines(previewedPlanFile(this.accountKey, stack), Date.now());
    const own = (line: Line) => line.writer === this.writer || line.preview === this.engineRun;
    // An update's mark covers its engine run's lines up to the last line of the run that marked it.
    const lastOf = new Map(lines.map((line, i) => [line.writer, i]));
    const updatedUntil = new Map<string, number>();
    for (const line of lines)
      if (line.update !== undefined)
        updatedUntil.set(
          line.update,
          Math.max(updatedUntil.get(line.update) ?? -1, lastOf.get(line.writer)!),
        );
    const isPreview = (line: Line, i: number) =>
      line.preview !== undefined && !own(line) && i > (updatedUntil.get(line.preview) ?? -1);
    // The latest preview: the lines of the engine run of the last preview line, back to another run's line.
    const inPreview = new Set<number>();
    let i = lines.length - 1;
    while (i >= 0 && !isPreview(lines[i]!, i)) i--;
    const previewRun = lines[i]?.preview;
    for (; i >= 0; i--) {
      const line = lines[i]!;
      if (isPreview(line, i) && line.preview === previewRun) inPreview.add(i);
      else if (!own(line)) break;
    }
    const latest = new Map<string, number>();
    lines.forEach((line, index) => line.update === undefined && latest.set(line.key, index));
    const out = new Map<string, VpsFee>();
    for (const [key, index] of latest) {
      const fee = lines[index]!.fee;
      if (!inPreview.has(index) || !fee || !("cents" in fee.after)) continue;
      if (fee.nowCents !== undefined && fee.after.cents < fee.nowCents) out.set(key, fee);
    }
    return out;
  }
}

/** The file's lines of runs that name their writer, written in the last day (none: no record, nothing to wait for). */
function readLines(file: string, now: number): Line[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map(parsed)
    .filter((line) => line !== undefined && now - line.at < PLAN_MAX_AGE_MS) as Line[];
}

/** One line of the file, or undefined (a torn or foreign line, or an earlier release's, counts for nothing). */
function parsed(text: string): Line | undefined {
  try {
    const line = JSON.parse(text) as Partial<Line>;
    return typeof line.key === "string" && typeof line.writer === "string" && typeof line.at === "number"
      ? (line as Line)
      : undefined;
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
