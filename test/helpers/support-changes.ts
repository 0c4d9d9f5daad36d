/**
 * Changes RimuHosting's support makes to a VPS that no call of its API can: an IP address added or taken away (the
 * API takes the number of addresses only with the order, docs/rimuhosting-api.md §3.12; more than one needs
 * RimuHosting's approval). Made through the emulator's control API as docs/emulator.md#snapshots describes it: the
 * state saved and downloaded, the order's addresses edited, the state uploaded and loaded. The emulator must run with
 * `control: true`; nothing else changes (the next order gets the id it would have had).
 *
 * No jest here: test/engine compiles it with node's types only.
 */

/** What an order holds in a snapshot (emulator/state/schema.ts): only what this edits. */
interface SnapshotOrder {
  orderOid: number;
  hostOid: string | null;
  primaryIp: string | null;
  secondaryIps: string[];
}
interface Snapshot {
  orders: SnapshotOrder[];
  hosts: { oid: string; subnet: string }[];
}

async function control(baseUrl: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(baseUrl.replace(/\/r$/, "/__emulator") + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as unknown;
  if (!res.ok) throw new Error(`${method} /__emulator${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The state with `edit` applied to order `orderOid`, loaded into the emulator. */
async function editOrder(
  baseUrl: string,
  orderOid: number,
  edit: (order: SnapshotOrder, state: Snapshot) => void,
): Promise<void> {
  const name = `support-${orderOid}`;
  await control(baseUrl, "POST", `/snapshots/${name}`);
  const state = (await control(baseUrl, "GET", `/snapshots/${name}`)) as Snapshot;
  const order = state.orders.find((candidate) => candidate.orderOid === orderOid);
  if (!order) throw new Error(`the emulator has no order ${orderOid}`);
  edit(order, state);
  await control(baseUrl, "PUT", `/snapshots/${name}`, state);
  await control(baseUrl, "POST", `/snapshots/${name}/load`);
}

/** Adds an address of the order's host's /24 that no order holds; returns it. */
export async function addIpAddress(baseUrl: string, orderOid: number): Promise<string> {
  let added = "";
  await editOrder(baseUrl, orderOid, (order, state) => {
    const subnet = state.hosts.find((host) => host.oid === order.hostOid)?.subnet;
    if (!subnet) throw new Error(`order ${orderOid} is on no host`);
    const taken = new Set(state.orders.flatMap((o) => [o.primaryIp, ...o.secondaryIps]));
    for (let octet = 250; octet > 1 && !added; octet -= 1)
      if (!taken.has(`${subnet}.${octet}`)) added = `${subnet}.${octet}`;
    if (!added) throw new Error(`host ${order.hostOid} has no free address`);
    order.secondaryIps.push(added);
  });
  return added;
}

/** Takes the order's last secondary address away; returns it. */
export async function removeIpAddress(baseUrl: string, orderOid: number): Promise<string> {
  let removed = "";
  await editOrder(baseUrl, orderOid, (order) => {
    removed = order.secondaryIps.pop() ?? "";
    if (!removed) throw new Error(`order ${orderOid} has no secondary address to take away`);
  });
  return removed;
}
