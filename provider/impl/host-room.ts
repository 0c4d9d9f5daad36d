/**
 * What one run's changes take of each host, so that a preview judges them together: four VPSs on one host that
 * each fit alone but not side by side fail the preview, not `pulumi up` halfway through.
 *
 * The provider process serves every resource of a run (the dynamic-provider host, or the native plugin), so the
 * ledger lives in it, with the run's other shared reads (AccountView). A check that finds room claims it for its
 * resource; the next check on that host judges its own need beside every claim made before it. So:
 *
 * - whether a run's changes to one host fail the preview does not depend on the order the engine checks them in:
 *   when their sum does not fit, whichever is checked last is judged beside all the others and fails; when it
 *   fits, every one does. Which resource fails does depend on that order: the first one that does not fit beside
 *   those checked before it (a check that fails claims nothing, so it does not push later ones out);
 * - a resource checked again (the engine's second check in `pulumi up`, or a replacement) replaces its own claim,
 *   never adds a second one;
 * - a change that has been applied (create, update) gives its claims up, and the host's figures are read again
 *   when next needed: they now hold it (AccountView.noteApplied);
 * - claims last as long as the provider process, which the CLI starts for each run: nothing carries over.
 *
 * What RimuHosting says of a host's room is its free memory and disk (R5, for a host the account has a VPS on);
 * it reports no free IP addresses, so IPs are judged by each order's own quote, one VPS at a time.
 */

/** What a change takes of a host: memory and disk, in MB (a resize: its growth; a new VPS or a move: its sizes). */
export interface HostNeed {
  memoryMb: number;
  diskMb: number;
}

/** A resource's claim on a host, with its name for messages. */
export interface Claim extends HostNeed {
  name: string;
}

export class HostLedger {
  /** host oid -> resource key -> claim. */
  private readonly byHost = new Map<string, Map<string, Claim>>();

  /** The claims of other resources on `host`. */
  others(host: string, resource: string): Claim[] {
    return [...(this.byHost.get(host) ?? new Map<string, Claim>()).entries()]
      .filter(([key]) => key !== resource)
      .map(([, claim]) => claim);
  }

  /** Sets `resource`'s claim on `host`, replacing its earlier one there. */
  claim(host: string, resource: string, claim: Claim): void {
    let claims = this.byHost.get(host);
    if (!claims) {
      claims = new Map();
      this.byHost.set(host, claims);
    }
    claims.set(resource, claim);
  }

  /** Drops `resource`'s claim on `host` (its check failed, or its change no longer needs the host). */
  drop(host: string, resource: string): void {
    this.byHost.get(host)?.delete(resource);
  }

  /** Drops every claim of `resource` (its change was applied); returns the hosts it had claims on. */
  settle(resource: string): string[] {
    const hosts: string[] = [];
    for (const [host, claims] of this.byHost) if (claims.delete(resource)) hosts.push(host);
    return hosts;
  }
}

export function sumOf(needs: readonly HostNeed[]): HostNeed {
  return needs.reduce(
    (sum, need) => ({ memoryMb: sum.memoryMb + need.memoryMb, diskMb: sum.diskMb + need.diskMb }),
    {
      memoryMb: 0,
      diskMb: 0,
    },
  );
}

const gb = (mb: number): number => Math.ceil(mb / 1024);

/** "2048 MB memory and 20 GB disk", leaving out what is zero. */
export function needWords(need: HostNeed, more = false): string {
  const parts = [
    need.memoryMb > 0 ? `${need.memoryMb} MB ${more ? "more " : ""}memory` : "",
    need.diskMb > 0 ? `${gb(need.diskMb)} GB ${more ? "more " : ""}disk` : "",
  ].filter((part) => part !== "");
  return parts.join(" and ") || "nothing";
}

/** How many claims a message names; the rest are counted. */
const NAMED = 5;

/** "web-1 takes 2048 MB memory, web-2 takes …": the first few claims by name, and what the rest take. */
export function claimsWords(claims: readonly Claim[]): string {
  const named = claims.slice(0, NAMED).map((claim) => `${claim.name} takes ${needWords(claim)}`);
  const rest = claims.slice(NAMED);
  return (
    named.join(", ") + (rest.length > 0 ? ` and ${rest.length} more take ${needWords(sumOf(rest))}` : "")
  );
}

/** "web-1, web-2, web-3": the first few claims' names, and how many more. */
export function claimNames(claims: readonly Claim[]): string {
  const names = claims.slice(0, NAMED).map((claim) => claim.name);
  const rest = claims.length - names.length;
  return names.join(", ") + (rest > 0 ? ` and ${rest} more` : "");
}

/** A host's free figures as R5 reports them (either may be missing). */
export interface HostFree {
  memoryMb?: number;
  diskGb?: number;
}

/** Which of memory and disk `need` does not fit beside `others` in `free` (empty when it fits). */
export function shortOf(free: HostFree, others: readonly HostNeed[], need: HostNeed): ("memory" | "disk")[] {
  const taken = sumOf(others);
  const short: ("memory" | "disk")[] = [];
  if (need.memoryMb > 0 && free.memoryMb !== undefined && taken.memoryMb + need.memoryMb > free.memoryMb)
    short.push("memory");
  if (need.diskMb > 0 && free.diskGb !== undefined && gb(taken.diskMb + need.diskMb) > free.diskGb)
    short.push("disk");
  return short;
}

/**
 * Why `need` does not fit on `host` beside this run's `others`: what the host has free, what the others take
 * (by name), what this VPS needs, and what to do.
 */
export function sumRefusal(
  host: string,
  free: HostFree,
  others: readonly Claim[],
  need: HostNeed,
  more: boolean,
): string {
  const has = [
    free.memoryMb !== undefined ? `${free.memoryMb} MB memory` : "",
    free.diskGb !== undefined ? `${free.diskGb} GB disk` : "",
  ].filter((part) => part !== "");
  return (
    `host ${host} has ${has.join(" and ")} free, and this run's other changes on it take ${needWords(sumOf(others))} ` +
    `of that (${claimsWords(others)}): this VPS's ${needWords(need, more)} does not fit beside them, though it would alone. ` +
    `Ask for less, or spread these VPSs over other hosts (hostServerOid) and grow them in more than one run`
  );
}
