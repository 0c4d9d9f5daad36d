/**
 * Fault injection: one-shot faults (armed at start-up or via POST /__emulator/faults). Random failures are chaos
 * rules (chaos/). The onRequest hook (http/hooks.ts) acts on what this decides.
 */
import type { EndpointName } from "../contract/index.js";
import type { FaultSpec } from "./options.js";

interface ArmedFault {
  spec: FaultSpec;
  remaining: number;
}

export class FaultController {
  private armed: ArmedFault[] = [];

  constructor(initial: readonly FaultSpec[] = []) {
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

  /** The faults still armed, each with `times` the uses it has left. */
  pending(): readonly FaultSpec[] {
    return this.armed.map((f) => ({ ...f.spec, times: f.remaining }));
  }

  clear(): void {
    this.armed = [];
  }
}
