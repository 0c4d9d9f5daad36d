/**
 * Fault injection: one-shot faults (armed at start-up or via POST /__emulator/faults). Random failures are chaos
 * rules (chaos/). The onRequest hook (http/hooks.ts) acts on what this decides.
 */
import type { EndpointName } from "../contract/index.js";
import type { Matrix } from "./domain/matrix-filters.js";
import type { FaultSpec } from "./options.js";

interface ArmedFault {
  spec: FaultSpec;
  remaining: number;
  /** Matching requests still to let through before it hits (its `skip`). */
  toSkip: number;
}

/** Whether a request to `route` with matrix parameters `matrix` is one `spec` is armed for. */
function matches(spec: FaultSpec, route: EndpointName | undefined, matrix: Matrix): boolean {
  if (spec.route !== "*" && spec.route !== route) return false;
  return Object.entries(spec.matrix ?? {}).every(([name, value]) => matrix.get(name)?.includes(value));
}

export class FaultController {
  private armed: ArmedFault[] = [];

  constructor(initial: readonly FaultSpec[] = []) {
    for (const spec of initial) this.arm(spec);
  }

  arm(spec: FaultSpec): void {
    this.armed.push({ spec: { ...spec }, remaining: spec.times ?? 1, toSkip: spec.skip ?? 0 });
  }

  /**
   * The first armed fault matching the request (its route and matrix parameters) with none left to skip, consuming
   * one of its uses; each matching fault before it that still skips counts the request as one let through.
   */
  take(route: EndpointName | undefined, matrix: Matrix = new Map()): FaultSpec | undefined {
    const index = this.armed.findIndex((f) => {
      if (!matches(f.spec, route, matrix)) return false;
      if (f.toSkip === 0) return true;
      f.toSkip -= 1;
      return false;
    });
    if (index < 0) return undefined;
    const fault = this.armed[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.armed.splice(index, 1);
    return fault.spec;
  }

  /** The faults still armed, each with `times` the uses it has left and `skip` the requests it still lets through. */
  pending(): readonly FaultSpec[] {
    return this.armed.map((f) => ({
      ...f.spec,
      times: f.remaining,
      ...(f.spec.skip === undefined ? {} : { skip: f.toSkip }),
    }));
  }

  clear(): void {
    this.armed = [];
  }
}
