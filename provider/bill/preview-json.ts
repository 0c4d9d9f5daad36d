/**
 * What `pulumi preview --json` prints, as far as the bill reads it: the stack's config, one step per resource
 * the run touches (its operation, old state and new state), the diagnostics and the change summary. Read
 * leniently: fields the bill does not use, and fields a newer CLI adds, pass through; only what it needs must
 * be there, and a file that is not a preview's JSON at all gets a message saying what it looks like instead and
 * how to make the right one.
 */
import * as z from "zod";

/** A property bag of a state, as the CLI prints it (secrets as "[secret]", unknowns as a fixed UUID string). */
const Properties = z.record(z.string(), z.unknown());

const ResourceState = z.looseObject({
  urn: z.string(),
  type: z.string(),
  inputs: Properties.optional(),
  outputs: Properties.optional(),
});
export type ResourceState = z.infer<typeof ResourceState>;

const Step = z.looseObject({
  op: z.string(),
  urn: z.string(),
  oldState: ResourceState.optional(),
  newState: ResourceState.optional(),
  diffReasons: z.array(z.string()).optional(),
  replaceReasons: z.array(z.string()).optional(),
});
export type PreviewStep = z.infer<typeof Step>;

const Diagnostic = z.looseObject({
  urn: z.string().optional(),
  message: z.string(),
  severity: z.string(),
});
export type PreviewDiagnostic = z.infer<typeof Diagnostic>;

const PreviewDigest = z.looseObject({
  config: z.record(z.string(), z.unknown()).optional(),
  steps: z.array(Step).optional(),
  diagnostics: z.array(Diagnostic).optional(),
  changeSummary: z.record(z.string(), z.number()).optional(),
});
export type PreviewDigest = z.infer<typeof PreviewDigest>;

/** How to make the file the bill reads: said by every message about a wrong one. */
export const HOW_TO_MAKE =
  "rimuhosting-bill reads what `pulumi preview --json` prints; make it with " +
  "`pulumi preview --json --show-sames > preview.json` (--show-sames lets the bill add up the whole stack)";

/** The input is not a preview's JSON: the message says what it is and how to make the right one. */
export class NotPreviewJsonError extends Error {
  override name = "NotPreviewJsonError";
}

/** `steps[2].urn` for zod's path ["steps", 2, "urn"]. */
function pathText(path: readonly PropertyKey[]): string {
  const text = path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("");
  return text.replace(/^\./, "") || "the whole file";
}

/** What a JSON value that is not a preview digest looks like, when it is something a user may mix it up with. */
function lookalike(value: unknown): string | undefined {
  if (Array.isArray(value)) return "a JSON array, not the object a preview prints";
  if (value === null || typeof value !== "object") return `a JSON ${value === null ? "null" : typeof value}`;
  const keys = Object.keys(value);
  if (keys.includes("deployment") && keys.includes("version"))
    return "the output of `pulumi stack export` (the stack's state), not a preview";
  if (keys.includes("sequence") && keys.includes("timestamp"))
    return "an engine event (`pulumi preview --json` with PULUMI_EXPERIMENTAL, or an --event-log file), not the preview's summary";
  if (
    keys.length > 0 &&
    !keys.some((key) => ["steps", "config", "diagnostics", "changeSummary"].includes(key))
  )
    return `a JSON object with none of a preview's fields (it has ${keys.slice(0, 5).join(", ")})`;
  return undefined;
}

/**
 * The preview digest in `text`, read from `source` (a file name, or "standard input"). Throws a
 * NotPreviewJsonError naming the source, what is wrong and how to make the right file.
 */
export function parsePreviewJson(text: string, source: string): PreviewDigest {
  if (text.trim() === "") throw new NotPreviewJsonError(`${source} is empty. ${HOW_TO_MAKE}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // A preview run without --json prints its display; JSON lines are an engine event stream.
    const first = text.trimStart().split("\n", 1)[0]!.slice(0, 80);
    const eventLines = text.trim().split("\n").length > 1 && first.startsWith("{");
    const what = eventLines
      ? "one JSON value per line (an engine event stream, such as an --event-log file), not a preview's summary"
      : `not JSON; it starts with: ${first}`;
    throw new NotPreviewJsonError(`${source} is ${what}. ${HOW_TO_MAKE}.`);
  }
  const looksLike = lookalike(value);
  if (looksLike) throw new NotPreviewJsonError(`${source} is ${looksLike}. ${HOW_TO_MAKE}.`);
  const parsed = PreviewDigest.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${pathText(issue.path)}: ${issue.message}`)
      .join("; ");
    throw new NotPreviewJsonError(
      `${source} is not the JSON of a preview as the bill knows it: ${problems}. ${HOW_TO_MAKE}.`,
    );
  }
  return parsed.data;
}
