/**
 * What `pulumi refresh --preview-only --json` prints, as far as the drift report reads it: one step per resource
 * the refresh read (its operation: `refresh` for one unchanged or changed without a detailed diff, `update` for one
 * the provider's detailed diff shows changed, `delete` for one gone; its old and new state), the diagnostics (the
 * provider's drift lines among them) and the change summary. Read leniently, as the bill reads a preview's event
 * log (../bill/event-log.ts): fields the report does not use pass through. A file that is no refresh's JSON gets a
 * message saying what it is instead and how to make the right one.
 */
import * as z from "zod";
import { pathText } from "../bill/command-input.js";

const Properties = z.record(z.string(), z.unknown());

const ResourceState = z.looseObject({
  urn: z.string(),
  type: z.string(),
  id: z.string().optional(),
  inputs: Properties.optional(),
  outputs: Properties.optional(),
});

const Step = z.looseObject({
  op: z.string(),
  urn: z.string(),
  oldState: ResourceState.optional(),
  newState: ResourceState.optional(),
  detailedDiff: z.record(z.string(), z.unknown()).nullish(),
});
export type RefreshStep = z.infer<typeof Step>;

const Diagnostic = z.looseObject({
  urn: z.string().optional(),
  message: z.string(),
  severity: z.string(),
});

const RefreshDigest = z.looseObject({
  config: z.record(z.string(), z.unknown()).optional(),
  steps: z.array(Step),
  diagnostics: z.array(Diagnostic).nullish(),
  changeSummary: z.record(z.string(), z.number()).nullish(),
});
export type RefreshDigest = z.infer<typeof RefreshDigest>;

/** How to make the file the report reads: said by every message about a wrong one. */
export const HOW_TO_MAKE =
  "The drift report reads what `pulumi refresh --preview-only --json` prints; make it with " +
  "`pulumi refresh --preview-only --json --stack <stack> > refresh.json`";

/** The input is not a refresh's JSON: the message says what it is and how to make the right one. */
export class NotRefreshJsonError extends Error {
  override name = "NotRefreshJsonError";
}

/**
 * Operations only a preview plans: a digest with one of them is a preview's, not a refresh's. A refresh's steps are
 * `refresh`, or `update` and `delete` for what it found changed or gone, and `same` for a provider (with --target).
 */
const PLAN_OPS = new Set(["create", "replace", "create-replacement", "delete-replaced", "import", "read"]);
const REFRESH_OPS = new Set(["refresh", "update", "delete"]);

/**
 * A step whose detailed diff compares inputs: a preview's plan. A refresh's (the provider's drift, shown from the
 * outputs before and after) never does; a refresh with --target may hold no `refresh` step at all.
 */
function planningDiff(step: unknown): boolean {
  const diff =
    typeof step === "object" && step !== null ? (step as { detailedDiff?: unknown }).detailedDiff : undefined;
  if (typeof diff !== "object" || diff === null) return false;
  return Object.values(diff).some(
    (entry) =>
      typeof entry === "object" && entry !== null && (entry as { inputDiff?: unknown }).inputDiff === true,
  );
}

function lookalike(value: unknown): string | undefined {
  if (Array.isArray(value)) return "a JSON array, not the object a refresh prints";
  if (value === null || typeof value !== "object") return `a JSON ${value === null ? "null" : typeof value}`;
  const keys = Object.keys(value);
  if (keys.includes("deployment") && keys.includes("version"))
    return "the output of `pulumi stack export` (the stack's state), not a refresh";
  if (keys.includes("sequence") && keys.includes("timestamp"))
    return "an engine event (an --event-log file), not the refresh's summary";
  if (!keys.includes("steps"))
    return `a JSON object without a refresh's steps (it has ${keys.slice(0, 5).join(", ")})`;
  const steps = (value as { steps: unknown }).steps;
  if (Array.isArray(steps)) {
    const planned = steps.find(
      (step) =>
        typeof step === "object" && step !== null && PLAN_OPS.has(String((step as { op?: unknown }).op)),
    ) as { op: string } | undefined;
    if (planned) return `a preview's JSON (it plans a ${planned.op}), not a refresh's`;
    const ops = steps.map((step) =>
      typeof step === "object" && step !== null ? String((step as { op?: unknown }).op) : "",
    );
    if (steps.length > 0 && !ops.some((op) => REFRESH_OPS.has(op)))
      return "a preview's JSON (nothing in it is refreshed), not a refresh's";
    const planning = steps.find((step) => planningDiff(step));
    if (planning)
      return "a preview's JSON (its detailed diff compares the program's inputs), not a refresh's";
  }
  return undefined;
}

/**
 * The refresh digest in `text`, read from `source` (a file name, or "standard input"). Throws a NotRefreshJsonError
 * naming the source, what is wrong and how to make the right file.
 */
export function parseRefreshJson(text: string, source: string): RefreshDigest {
  if (text.trim() === "") throw new NotRefreshJsonError(`${source} is empty. ${HOW_TO_MAKE}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const length = text.trimEnd().length;
    if (cutOff(text))
      throw new NotRefreshJsonError(
        `${source} is cut off: its JSON ends after ${length} characters, before it is complete (was the refresh ` +
          `stopped while it wrote the file?). ${HOW_TO_MAKE}.`,
      );
    const first = text.trimStart().split("\n", 1)[0]!.slice(0, 80);
    throw new NotRefreshJsonError(`${source} is not JSON; it starts with: ${first}. ${HOW_TO_MAKE}.`);
  }
  const looksLike = lookalike(value);
  if (looksLike) throw new NotRefreshJsonError(`${source} is ${looksLike}. ${HOW_TO_MAKE}.`);
  const parsed = RefreshDigest.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${pathText(issue.path)}: ${issue.message}`)
      .join("; ");
    throw new NotRefreshJsonError(`${source} is not the JSON of a refresh: ${problems}. ${HOW_TO_MAKE}.`);
  }
  return parsed.data;
}

/**
 * Whether `text` is the start of a JSON object or array that ends too soon: a refresh stopped while it wrote (a CI
 * job's time limit, Ctrl-C, a full disk). Told by its brackets, outside strings: some still open at the end (or a
 * string), none closed that was not open. Text that is not JSON at all, or JSON with something wrong in the
 * middle, is not cut off.
 */
function cutOff(text: string): boolean {
  const body = text.trim();
  if (!body.startsWith("{") && !body.startsWith("[")) return false;
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") open.push(char === "{" ? "}" : "]");
    else if (char === "}" || char === "]") {
      if (open.pop() !== char) return false;
      if (open.length === 0) return false; // the value closed: whatever is wrong is not a missing end
    }
  }
  return inString || open.length > 0;
}
