// Prints an operation the way `pulumi preview/up/refresh/destroy` does in its non-interactive display:
// one line per step with its symbol (+ create, ~ update, +- replace, - delete), "…ing (Ns)" progress lines while a
// long step runs, diagnostics, "Outputs:" and the "Resources:" summary.
import type { OperationKind, StepOp, StepRecord } from "./steps";
import { isSecret, UNKNOWN } from "./property-values";

export type LineSink = (line: string) => void;

const SYMBOL: Record<StepOp, string> = {
  same: " ",
  create: "+",
  update: "~",
  replace: "+-",
  delete: "-",
  "delete-replaced": "--",
  refresh: "~",
  read: ">",
};
const PROGRESS: Record<StepOp, [string, string]> = {
  same: ["", ""],
  create: ["creating", "created"],
  update: ["updating", "updated"],
  replace: ["replacing", "replaced"],
  delete: ["deleting", "deleted"],
  "delete-replaced": ["deleting original", "deleted original"],
  refresh: ["refreshing", "refreshed"],
  read: ["reading", "read"],
};
const HEADER: Record<OperationKind, string> = {
  preview: "Previewing update",
  up: "Updating",
  refresh: "Refreshing",
  destroy: "Destroying",
};
/** Summary words: past tense after a real run, "to …" in a preview. */
const SUMMARY: Record<StepOp, [string, string]> = {
  create: ["created", "to create"],
  update: ["updated", "to update"],
  replace: ["replaced", "to replace"],
  delete: ["deleted", "to delete"],
  "delete-replaced": ["", ""],
  refresh: ["updated", "to update"],
  read: ["read", "to read"],
  same: ["unchanged", "unchanged"],
};

export interface OpsPrinter {
  header(kind: OperationKind, stack: string): void;
  /** A step begins; returns a function that ends it. Long steps print a progress line every `progressEveryMs`. */
  stepStarted(step: StepRecord, dryRun: boolean): (final: StepRecord) => void;
  diagnostic(severity: "info" | "warning" | "error", message: string, urn?: string): void;
  outputs(outputs: Record<string, unknown>, dryRun: boolean): void;
  summary(steps: readonly StepRecord[], dryRun: boolean, durationMs: number): void;
}

const label = (s: StepRecord): string => `${s.type} ${s.name}`;
const secs = (ms: number): string => `${Math.round(ms / 1000)}s`;

function renderValue(v: unknown, indent: string): string {
  if (isSecret(v)) return "[secret]";
  if (v === UNKNOWN) return "[unknown]";
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return `[\n${v.map((x, i) => `${indent}    [${i}]: ${renderValue(x, `${indent}    `)}`).join("\n")}\n${indent}]`;
  }
  if (v && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    const width = Math.max(...entries.map(([k]) => k.length));
    return `{\n${entries.map(([k, x]) => `${indent}    ${k.padEnd(width)}: ${renderValue(x, `${indent}    `)}`).join("\n")}\n${indent}}`;
  }
  return JSON.stringify(v);
}

function detail(s: StepRecord): string {
  if (s.op === "replace") {
    const dbr = s.deleteBeforeReplace ? ", delete before replace" : "";
    return s.keys?.length ? ` [diff: ~${s.keys.join(",")}${dbr}]` : dbr ? ` [${dbr.slice(2)}]` : "";
  }
  if ((s.op === "update" || s.op === "refresh") && s.keys?.length) return ` [diff: ~${s.keys.join(",")}]`;
  return "";
}

export function createOpsPrinter(
  sink: LineSink = (line) => process.stdout.write(`${line}\n`),
  options: { progressEveryMs?: number; now?: () => number } = {},
): OpsPrinter {
  const every = options.progressEveryMs ?? 2000;
  const now = options.now ?? Date.now;
  return {
    header(kind, stack) {
      sink(`${HEADER[kind]} (${stack}):`);
    },
    stepStarted(step, dryRun) {
      const sym = SYMBOL[step.op].padEnd(2);
      if (dryRun || step.op === "same") {
        return (final) => {
          const verb = final.op === "same" ? "" : ` ${final.op}`;
          const failed = final.failed ? ` **failed** ${final.failed}` : "";
          sink(` ${SYMBOL[final.op].padEnd(2)} ${label(final)}${verb}${detail(final)}${failed}`);
        };
      }
      const started = now();
      const [ing] = PROGRESS[step.op];
      sink(` ${sym} ${label(step)} ${ing} (0s)${detail(step)}`);
      const timer =
        every > 0
          ? setInterval(() => sink(`@ ${label(step)} ${ing} (${secs(now() - started)})`), every)
          : undefined;
      timer?.unref();
      return (final) => {
        if (timer) clearInterval(timer);
        const took = secs(now() - started);
        if (final.failed) sink(` ${sym} ${label(final)} **${ing} failed** (${took}) error: ${final.failed}`);
        else
          sink(
            ` ${SYMBOL[final.op].padEnd(2)} ${label(final)} ${PROGRESS[final.op][1]} (${took})${detail(final)}`,
          );
      };
    },
    diagnostic(severity, message, urn) {
      const where = urn ? ` (${urn.split("::").slice(3).join("::")})` : "";
      for (const line of message.trimEnd().split("\n")) sink(`    ${severity}${where}: ${line}`);
    },
    outputs(outputs, dryRun) {
      const entries = Object.entries(outputs);
      if (entries.length === 0) return;
      sink("");
      sink("Outputs:");
      const width = Math.max(...entries.map(([k]) => k.length));
      for (const [k, v] of entries.sort(([a], [b]) => a.localeCompare(b))) {
        sink(`  ${dryRun ? "+ " : "  "}${k.padEnd(width)}: ${renderValue(v, "    ")}`);
      }
    },
    summary(steps, dryRun, durationMs) {
      sink("");
      sink("Resources:");
      const counts = new Map<StepOp, number>();
      for (const s of steps) if (!s.failed) counts.set(s.op, (counts.get(s.op) ?? 0) + 1);
      // the deferred delete of a replaced resource is part of its "replace"
      const order: StepOp[] = ["create", "update", "refresh", "replace", "delete", "read"];
      for (const op of order) {
        const n = counts.get(op);
        if (n) sink(`    ${SYMBOL[op]} ${n} ${SUMMARY[op][dryRun ? 1 : 0]}`);
      }
      const same = counts.get("same");
      if (same) sink(`    ${same} unchanged`);
      const failed = steps.filter((s) => s.failed).length;
      if (failed) sink(`    ${failed} failed`);
      sink("");
      sink(`Duration: ${secs(durationMs)}`);
    },
  };
}

/** A printer that prints nothing (tests that only look at the returned steps). */
export const silentPrinter: OpsPrinter = createOpsPrinter(() => undefined, { progressEveryMs: 0 });
