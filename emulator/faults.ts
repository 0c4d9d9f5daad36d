/**
 * Fault injection: one-shot faults (armed at start-up or via POST /__emulator/faults) and random
 * per-route error rates. The onRequest hook (http/hooks.ts) acts on what this decides.
 */
import type { EndpointName } from "../contract/index.js";
import type { FaultSpec } from "./options.js";

interface ArmedFault {
  spec: FaultSpec;
  remaining: number;
}

export class FaultController {
  private armed: ArmedFault[] = [];

  constructor(
    private readonly errorRate: number | Partial<Record<EndpointName, number>>,
    private readonly random: () => number,
    initial: readonly FaultSpec[] = [],
  ) {
    for (const spec of initial) this.arm(spec);
  }

  arm(spec: FaultSpec): void {
    this.armed.push({ spec: { ...spec }, remaining: spec.times ?? 1 });
  }

  /** The first armed fault matching the route, consuming one of its uses. */
  take(route: EndpointName | undefined): FaultSpec | undefined {
    const index = this.armed.findIndex((f) => f.spec.route === "*" || f.spec.route === route);
    if (index < 0) return undefined;
    const fault = this.armed[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.armed.splice(index, 1);
    return fault.spec;
  }

  /** Whether the configured error rate turns this request into a random 503. */
  randomFailure(route: EndpointName | undefined): boolean {
    const rate =
      typeof this.errorRate === "number" ? this.errorRate : route ? (this.errorRate[route] ?? 0) : 0;
    return rate > 0 && this.random() < rate;
  }

  /** The faults still armed, each with `times` the uses it has left. */
  pending(): readonly FaultSpec[] {
    return this.armed.map((f) => ({ ...f.spec, times: f.remaining }));
  }

  clear(): void {
    this.armed = [];
  }
}
