/**
 * What `pulumi preview --event-log <file>` writes, as far as the bill reads it: one engine event a line (the
 * stack config, one step per resource with its old and new state, the diagnostics, the policy packs' findings,
 * then the summary and a closing cancel event). Only this file carries the policy packs' verdicts:
 * `pulumi preview --json` leaves them out. Read leniently (fields a newer CLI adds pass through), but a file that is
 * not a whole preview's event log is refused with a message that says what it is and how to make the right one:
 * a log cut off before the preview ended would give a bill of part of the stack.
 */
import * as z from "zod";
import { pathText } from "./command-input.js";

const Properties = z.record(z.string(), z.unknown());

const StateMetadata = z.looseObject({
  type: z.string(),
  urn: z.string(),
  inputs: Properties.nullish(),
  outputs: Properties.nullish(),
  provider: z.string().nullish(),
});
export type StateMetadata = z.infer<typeof StateMetadata>;

const StepMetadata = z.looseObject({
  op: z.string(),
  urn: z.string(),
  type: z.string(),
  old: StateMetadata.nullish(),
  new: StateMetadata.nullish(),
  diffs: z.array(z.string()).nullish(),
  keys: z.array(z.string()).nullish(),
  provider: z.string().nullish(),
});
export type PreviewStep = z.infer<typeof StepMetadata>;

const Diagnostic = z.looseObject({
  urn: z.string().nullish(),
  message: z.string(),
  severity: z.string(),
});
export type PreviewDiagnostic = z.infer<typeof Diagnostic>;

const Policy = z.looseObject({
  resourceUrn: z.string().nullish(),
  message: z.string(),
  policyName: z.string(),
  policyPackName: z.string(),
  policyPackVersion: z.string().nullish(),
  enforcementLevel: z.string(),
});
export type PolicyEvent = z.infer<typeof Policy>;

const PolicySummary = z.looseObject({
  policyPackName: z.string(),
  passed: z.array(z.string()).nullish(),
  failed: z.array(z.string()).nullish(),
});

const Summary = z.looseObject({
  isPreview: z.boolean(),
  result: z.string().nullish(),
  resourceChanges: z.record(z.string(), z.number()).nullish(),
  PolicyPacks: z.record(z.string(), z.string()).nullish(),
});

const Event = z.looseObject({
  sequence: z.number(),
  preludeEvent: z.looseObject({ config: z.record(z.string(), z.string()) }).optional(),
  resourcePreEvent: z.looseObject({ metadata: StepMetadata }).optional(),
  diagnosticEvent: Diagnostic.optional(),
  policyEvent: Policy.optional(),
  policyAnalyzeSummaryEvent: PolicySummary.optional(),
  policyAnalyzeStackSummaryEvent: PolicySummary.optional(),
  summaryEvent: Summary.optional(),
  cancelEvent: z.object({}).loose().optional(),
});

/** A policy pack that ran in the preview: its name, version and the policies that passed somewhere. */
export interface PolicyPackRun {
  name: string;
  version: string;
  passed: Set<string>;
}

/** One preview, read from its event log. */
export interface PreviewLog {
  /** The stack config (`rimuhosting:monthlyBudgetUsd` …), secrets as "[secret]". */
  config: Record<string, string>;
  /** One step per resource, in the order the engine planned them (a replacement's halves each a step). */
  steps: PreviewStep[];
  /** The diagnostics other than debug output, color directives removed. */
  diagnostics: PreviewDiagnostic[];
  policies: PolicyEvent[];
  policyPacks: PolicyPackRun[];
  /** The preview failed (an error of the provider's, a mandatory policy, or another). */
  failed: boolean;
}

/** How to make the file the bill reads: said by every message about a wrong one. */
export const HOW_TO_MAKE =
  "rimuhosting-bill reads the event log of a preview; run `rimuhosting-bill --stack <stack>` to have it run the " +
  "preview, or make the file with `PULUMI_DEBUG_COMMANDS=true pulumi preview --event-log preview.events` (add " +
  "your usual flags, such as --stack and --policy-pack; the CLI has --event-log only with that variable set)";

/** The input is not a whole preview's event log: the message says what it is and how to make the right one. */
export class NotPreviewLogError extends Error {
  override name = "NotPreviewLogError";
}

/** Pulumi's color directives (`<{%fg 3%}>`), which an event log keeps unless colors are off. */
const COLOR = /<\{%[^%]*%\}>/g;
const plain = (text: string): string => text.replace(COLOR, "");

/** What a file that is not an event log looks like, when it is something a user may mix it up with. */
function lookalike(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const first = text.trimStart().split("\n", 1)[0]!.slice(0, 80);
    return text.trimStart().startsWith("{")
      ? "JSON that ends before it is complete (a file cut off, or not JSON)"
      : `not JSON; it starts with: ${first}`;
  }
  if (Array.isArray(value)) return "a JSON array, not an event log";
  if (value === null || typeof value !== "object") return `a JSON ${value === null ? "null" : typeof value}`;
  const keys = Object.keys(value);
  if (keys.includes("steps") || keys.includes("changeSummary"))
    return "what `pulumi preview --json` prints, which leaves out the policy packs' verdicts; the bill reads the event log instead";
  if (keys.includes("deployment") && keys.includes("version"))
    return "the output of `pulumi stack export` (the stack's state), not a preview";
  return `a JSON object that is not an engine event (it has ${keys.slice(0, 5).join(", ") || "no fields"})`;
}

/**
 * The preview in `text`, the event log read from `source` (a file name, or "standard input"). Throws a
 * NotPreviewLogError naming the source, what is wrong and how to make the right file.
 */
export function parsePreviewLog(text: string, source: string): PreviewLog {
  const refusal = (what: string) => new NotPreviewLogError(`${source} is ${what}. ${HOW_TO_MAKE}.`);
  if (text.trim() === "") throw refusal("empty");
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const log: PreviewLog = {
    config: {},
    steps: [],
    diagnostics: [],
    policies: [],
    policyPacks: [],
    failed: false,
  };
  const passed = new Map<string, Set<string>>();
  let summary: z.infer<typeof Summary> | undefined;
  let closed = false;
  for (const [index, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (index === 0) throw refusal(lookalike(text));
      throw refusal(
        `cut off: line ${index + 1} of ${lines.length} is not a whole event (the preview was still running, or ` +
          "the file was copied before it was written to the end); run the preview again",
      );
    }
    const parsed = Event.safeParse(value);
    if (!parsed.success) {
      if (index === 0) throw refusal(lookalike(text));
      const issue = parsed.error.issues[0]!;
      throw refusal(
        `not an event log as the bill knows it: line ${index + 1}: ${pathText(issue.path)}: ${issue.message}`,
      );
    }
    const event = parsed.data;
    if (event.preludeEvent) log.config = event.preludeEvent.config;
    if (event.resourcePreEvent) log.steps.push(event.resourcePreEvent.metadata);
    const d = event.diagnosticEvent;
    if (d && d.severity !== "debug") log.diagnostics.push({ ...d, message: plain(d.message) });
    if (event.policyEvent)
      log.policies.push({ ...event.policyEvent, message: plain(event.policyEvent.message) });
    for (const s of [event.policyAnalyzeSummaryEvent, event.policyAnalyzeStackSummaryEvent]) {
      if (!s) continue;
      const set = passed.get(s.policyPackName) ?? new Set<string>();
      for (const name of s.passed ?? []) set.add(name);
      passed.set(s.policyPackName, set);
    }
    if (event.summaryEvent) {
      if (!event.summaryEvent.isPreview)
        throw refusal(
          "the event log of an update (`pulumi up`), not of a preview: the bill is of what a preview plans",
        );
      summary = event.summaryEvent;
    }
    if (event.cancelEvent) closed = true;
  }
  if (!summary || !closed)
    throw refusal(
      `cut off: it has ${lines.length} events and ends before the preview did (no ${summary ? "closing" : "summary"} ` +
        "event: the preview was still running, was stopped, or the file was copied before it was written to the end); " +
        "run the preview again",
    );
  log.failed = summary.result === "failed" || log.diagnostics.some((d) => d.severity === "error");
  // "rimuhosting-guard|local|/path/to/pack" → its version.
  for (const [key, version] of Object.entries(summary.PolicyPacks ?? {})) {
    const name = key.split("|", 1)[0]!;
    log.policyPacks.push({ name, version, passed: passed.get(name) ?? new Set() });
  }
  return log;
}
