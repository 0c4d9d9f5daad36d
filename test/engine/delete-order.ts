// Order in which resources must be deleted: every resource after all the resources that depend on it
// (through dependsOn, property dependencies or parent), as the engine does for destroy and orphan deletes.

export interface DependencyNode {
  urn: string;
  parent: string;
  dependencies: readonly string[];
}

/**
 * Returns the nodes in a safe delete order: dependents first. `nodes` is in registration order; ties keep the
 * reverse registration order (what the engine does), and dependencies on URNs outside `nodes` are ignored.
 */
export function deleteOrder<T extends DependencyNode>(nodes: readonly T[]): T[] {
  const byUrn = new Map(nodes.map((n) => [n.urn, n]));
  const dependents = new Map<string, Set<string>>(nodes.map((n) => [n.urn, new Set<string>()]));
  for (const n of nodes) {
    for (const dep of [...n.dependencies, n.parent]) {
      if (dep && dep !== n.urn && byUrn.has(dep)) dependents.get(dep)?.add(n.urn);
    }
  }
  const order: T[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (n: T): void => {
    if (done.has(n.urn)) return;
    if (visiting.has(n.urn)) throw new Error(`dependency cycle through ${n.urn}`);
    visiting.add(n.urn);
    // everything that depends on n goes first, latest registered first
    const ds = [...(dependents.get(n.urn) ?? [])].map((u) => byUrn.get(u) as T);
    ds.sort((a, b) => nodes.indexOf(b) - nodes.indexOf(a));
    for (const d of ds) visit(d);
    visiting.delete(n.urn);
    done.add(n.urn);
    order.push(n);
  };
  for (const n of [...nodes].reverse()) visit(n);
  return order;
}
