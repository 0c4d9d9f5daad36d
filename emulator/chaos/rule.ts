/**
 * Chaos rules (/__emulator/chaos): by route, with a probability, a failure (a status or a dropped connection) and a
 * latency. `--error-rate` and `--latency-ms` start the emulator with rules of this kind (fromOptions).
 */
import * as z from "zod";
import { ENDPOINTS, type EndpointName } from "../../contract/index.js";
import { emuError } from "../errors.js";
import { OPTION_BOUNDS, type ResolvedOptions } from "../options.js";

const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

export const ChaosRuleSchema = z.strictObject({
  /** An endpoint name of contract/ ENDPOINTS, or a pattern of them with `*` for any characters ("list*", "*"). */
  route: z.string().min(1),
  /** The chance (0..1) that the rule acts on a request of its route; default 1 (every one). */
  probability: z.number().min(0).max(1).default(1),
  /** Answer this status (in the error envelope; 429 with Retry-After) instead of handling the request. */
  status: z.number().int().min(400).max(599).optional(),
  /** Reset the connection without an answer, before anything is changed. */
  drop: z.boolean().optional(),
  /** Milliseconds added before the request is handled (or failed). */
  latencyMs: z.number().min(OPTION_BOUNDS.latencyMs.min).max(OPTION_BOUNDS.latencyMs.max).optional(),
  /** Retry-After of a status answer, in seconds (a 429 sends 1 without it). */
  retryAfterSeconds: z.number().int().nonnegative().optional(),
});
export type ChaosRule = z.output<typeof ChaosRuleSchema>;

export const ChaosSettingsSchema = z.strictObject({
  /** The seed of every rule's draws: the same seed and the same requests give the same failures. */
  seed: z.number().int().optional(),
  rules: z.array(ChaosRuleSchema),
});

/** The route pattern as a regular expression over endpoint names ("" for a request that reached no endpoint). */
export function routeMatcher(pattern: string): RegExp {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`);
}

/** The rules as given, each checked for what the schema cannot say: a route that names something, one effect. */
export function requireSensibleRules(rules: readonly ChaosRule[]): void {
  rules.forEach((rule, index) => {
    const field = `rules.${index}`;
    if (!ENDPOINT_NAMES.some((name) => routeMatcher(rule.route).test(name))) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: `${field}.route`,
        message: `${field}.route '${rule.route}' matches no endpoint. Use an endpoint name (${ENDPOINT_NAMES.join(", ")}) or a pattern with '*', such as 'list*' or '*'.`,
      });
    }
    if (rule.status !== undefined && rule.drop) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: field,
        message: `${field} has both a status and drop; a rule fails a request one way: keep one.`,
      });
    }
    if (rule.status === undefined && !rule.drop && !rule.latencyMs) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: field,
        message: `${field} does nothing: give it a status, drop: true or a latencyMs.`,
      });
    }
  });
}

/** The rules the options start with: `latencyMs` on every request, then `errorRate`'s random 503s. */
export function rulesFromOptions(options: Pick<ResolvedOptions, "latencyMs" | "errorRate">): ChaosRule[] {
  const rules: ChaosRule[] = [];
  if (options.latencyMs > 0) rules.push({ route: "*", probability: 1, latencyMs: options.latencyMs });
  const rates =
    typeof options.errorRate === "number"
      ? ([["*", options.errorRate]] as const)
      : (Object.entries(options.errorRate) as [string, number][]);
  for (const [route, probability] of rates)
    if (probability > 0) rules.push({ route, probability, status: 503 });
  return rules;
}
