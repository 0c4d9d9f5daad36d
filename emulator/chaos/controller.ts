/**
 * The chaos rules in force and what they decide for each request. A rule's draw for a request depends only on the
 * seed, the rule's place in the list, the request's endpoint and how many requests of that endpoint the rule has
 * seen: the same seed and the same requests fail the same way in every run, whatever other routes are called in
 * between, so a failing test can be replayed.
 */
import type { EndpointName } from "../../contract/index.js";
import { createRandom } from "../random.js";
import { type ChaosRule, routeMatcher } from "./rule.js";

/** What the rules decided for one request: latency to add, and a failure if one acted. */
export interface ChaosDecision {
  latencyMs: number;
  failure?: { kind: "status"; status: number; retryAfterSeconds?: number } | { kind: "drop" };
}

/** A rule as GET /__emulator/chaos reports it: with how many requests it matched and how many it acted on. */
export type ChaosRuleReport = ChaosRule & { matched: number; acted: number };

interface ActiveRule {
  rule: ChaosRule;
  matcher: RegExp;
  /** Requests seen per endpoint: the draw's counter. */
  seen: Map<string, number>;
  matched: number;
  acted: number;
}

export class ChaosController {
  private active: ActiveRule[] = [];
  private currentSeed: number;

  constructor(private readonly initial: { seed: number; rules: readonly ChaosRule[] }) {
    this.currentSeed = initial.seed;
    this.set(initial);
  }

  /** Replaces every rule (their counters start again); without a seed, the current one stays. */
  set({ seed, rules }: { seed?: number; rules: readonly ChaosRule[] }): void {
    if (seed !== undefined) this.currentSeed = seed;
    this.active = rules.map((rule) => ({
      rule: { ...rule },
      matcher: routeMatcher(rule.route),
      seen: new Map(),
      matched: 0,
      acted: 0,
    }));
  }

  /** Back to the rules and seed the emulator started with (POST /__emulator/reset). */
  reset(): void {
    this.currentSeed = this.initial.seed;
    this.set(this.initial);
  }

  report(): { seed: number; rules: ChaosRuleReport[] } {
    return {
      seed: this.currentSeed,
      rules: this.active.map(({ rule, matched, acted }) => ({ ...rule, matched, acted })),
    };
  }

  /**
   * Every rule of the request's route draws (so each rule's sequence is its own); the latencies of those that act
   * add up, and the first that acts with a failure fails the request.
   */
  decide(endpoint: EndpointName | undefined): ChaosDecision {
    const decision: ChaosDecision = { latencyMs: 0 };
    const route = endpoint ?? "";
    this.active.forEach((active, index) => {
      if (!active.matcher.test(route)) return;
      const n = active.seen.get(route) ?? 0;
      active.seen.set(route, n + 1);
      active.matched += 1;
      if (!(draw(this.currentSeed, index, route, n) < active.rule.probability)) return;
      active.acted += 1;
      decision.latencyMs += active.rule.latencyMs ?? 0;
      if (decision.failure) return;
      if (active.rule.drop) decision.failure = { kind: "drop" };
      else if (active.rule.status !== undefined)
        decision.failure = {
          kind: "status",
          status: active.rule.status,
          retryAfterSeconds: active.rule.retryAfterSeconds,
        };
    });
    return decision;
  }
}

/** A number in [0, 1) fixed by its arguments: FNV-1a over them, then one step of the seeded generator. */
function draw(seed: number, ruleIndex: number, route: string, n: number): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed}|${ruleIndex}|${route}|${n}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return createRandom(hash >>> 0).next();
}
