/**
 * What one run's changes take of each host, and the rule that judges them together (host-checks.ts applies it), so
 * that four VPSs on one host that each fit alone but not side by side fail the preview, not `pulumi up` halfway.
 *
 * The rule, in one sentence: when the changes this run has checked on a host do not fit on it together, the check
 * that finds it fails and names the ones to set aside, taken one at a time, each the one that takes the most of what
 * is short (memory before disk; ties to the other figure, then to the name that sorts last), until the rest fit.
 *
 * - It judges a set of claims, not a sequence: the same claims give the same verdict and the same names whatever
 *   order they were checked in, and the message lists them sorted, so it reads the same too. Which claims have been
 *   checked when the overflow is found is the engine's order, though (see below): 7, 6 and 6 GB on 10 GB free checked
 *   b, c, a fail on c and name c (a and b, 13 GB, would not fit either); checked a, b, they name a. So the message
 *   says it counts only the changes checked so far, and a later preview may name more.
 * - Taking the largest first sets aside as few as one figure allows: the 8 GB of three new VPSs of 4, 8 and 4 GB on a
 *   host with 10 GB free, not a 4 GB one.
 * - The engine checks one resource at a time and stops the preview at the first check that fails, so that check
 *   judges the claims checked until then; a change checked after it is not counted (it never reaches the provider).
 * - A claim stands once its check passes: room was found for it (its quote or the host's figures said yes), or what
 *   would judge it could not be had (a warning says so; host-checks.ts claimRoom says why it stands). A check that
 *   fails claims nothing. A resource checked again (the engine's second check in `pulumi up`, or a replacement) replaces
 *   its own claim, never adds a second one.
 * - In a run that applies changes (the native plugin's check runs in `pulumi up` too), once a change has started a
 *   failing check sets aside only its own claim: the others passed and may be under way (setAsideIn). Before then
 *   the native plugin's check cannot tell, so its message says what to do if the run is `pulumi up` (perhapsUnderWay).
 * - A change that has been applied (create, update) gives its claims up, and the host's figures are read again
 *   when next needed: they now hold it (AccountView.noteApplied). Claims last as long as the provider process,
 *   which the CLI starts for each run: nothing carries over.
 *
 * What RimuHosting says of a host's room is its free memory and disk (R5, for a host the account has a VPS on);
 * elsewhere its quote of one order of the claims' sizes on that host says whether they fit. It reports no free IP
 * addresses, so IPs are judged by each order's own quote, one VPS at a time.
 */

/** What a change takes of a host: memory and disk, in MB (a resize: its growth; a new VPS or a move: its sizes). */
export interface HostNeed {
  memoryMb: number;
  diskMb: number;
}

/** What a claim is for: a new VPS, a VPS moving to the host, or a resize's growth. Messages say it. */
export type ClaimKind = "new" | "move" | "grow";

/** A resource's claim on a host, with its name and kind for messages. */
export interface Claim extends HostNeed {
  name: string;
  kind: ClaimKind;
}

export class HostLedger {
  /** host oid -> resource key -> claim. */
  private readonly byHost = new Map<string, Map<string, Claim>>();
  /** Resources whose change (a create, an update) this run has started. */
  private readonly started = new Set<string>();

  /** `resource`'s change has started: this run applies changes (see `applying`). */
  start(resource: string): void {
    this.started.add(resource);
  }

  /**
   * Whether a change of this run has started, so the run is `pulumi up`, not a preview. The native plugin's check
   * carries no preview flag and runs the room checks in an update too (with --skip-preview, the only checks): this is
   * how it knows the claims checked before may belong to changes under way.
   */
  get applying(): boolean {
    return this.started.size > 0;
  }

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
    { memoryMb: 0, diskMb: 0 },
  );
}

const gb = (mb: number): number => Math.ceil(mb / 1024);

/** "2048 MB memory and 20 GB disk", leaving out what is zero. */
export function needWords(need: HostNeed): string {
  const parts = [
    need.memoryMb > 0 ? `${need.memoryMb} MB memory` : "",
    need.diskMb > 0 ? `${gb(need.diskMb)} GB disk` : "",
  ].filter((part) => part !== "");
  return parts.join(" and ") || "nothing";
}

/** A host's free figures as R5 reports them (either may be missing). */
export interface HostFree {
  memoryMb?: number;
  diskGb?: number;
}

export type Short = "memory" | "disk";

/** What `claims` together take more of than `free` holds (memory first; empty when they fit). */
export function shortOf(free: HostFree, claims: readonly HostNeed[]): Short[] {
  const taken = sumOf(claims);
  const short: Short[] = [];
  if (taken.memoryMb > 0 && free.memoryMb !== undefined && taken.memoryMb > free.memoryMb)
    short.push("memory");
  if (taken.diskMb > 0 && free.diskGb !== undefined && gb(taken.diskMb) > free.diskGb) short.push("disk");
  return short;
}

const figure = (claim: HostNeed, what: Short): number => (what === "memory" ? claim.memoryMb : claim.diskMb);

/** The claim the rule sets aside first when `what` is short: the most of it, then of the other, then the last name. */
function largest(claims: readonly Claim[], what: Short): Claim {
  const other: Short = what === "memory" ? "disk" : "memory";
  return claims.reduce((a, b) => {
    const by = figure(b, what) - figure(a, what) || figure(b, other) - figure(a, other);
    return by > 0 || (by === 0 && b.name > a.name) ? b : a;
  });
}

/**
 * The rule (see the header): the claims to set aside for the rest to fit, in the order it takes them; empty when all
 * fit. `shortOf` says what a set of claims takes too much of: from the host's free figures, or from RimuHosting's quote
 * of their sum (then "memory" for any refusal: it does not say which). A single claim always fits: its own check found
 * room for it alone.
 */
export async function setAside(
  claims: readonly Claim[],
  shortOf: (rest: Claim[]) => Short[] | Promise<Short[]>,
): Promise<Claim[]> {
  const rest = [...claims];
  const aside: Claim[] = [];
  for (let short = await shortOf(rest); rest.length > 1 && short.length > 0; short = await shortOf(rest)) {
    const next = largest(rest, short[0]!);
    rest.splice(rest.indexOf(next), 1);
    aside.push(next);
  }
  return aside;
}

/**
 * The claims a failing check sets aside. In a preview, the rule's (setAside). In a run that applies changes, the
 * claims checked before `mine` passed their checks and their changes may already be under way (a create that has
 * started cannot be left out of the run: leaving it out of the program would delete the new VPS), so the only change
 * the check can still keep out is its own: `mine` is set aside when the claims do not fit, whatever its size.
 */
export async function setAsideIn(
  applying: boolean,
  claims: readonly Claim[],
  mine: Claim,
  shortOf: (rest: Claim[]) => Short[] | Promise<Short[]>,
): Promise<Claim[]> {
  if (!applying) return setAside(claims, shortOf);
  return (await shortOf([...claims])).length > 0 ? [mine] : [];
}

/** "web-1, web-2 and web-3". */
function namesWords(claims: readonly Claim[]): string {
  const names = claims.map((claim) => claim.name);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}`;
}

/** How many claims a message lists one by one; the rest are counted. */
const LISTED = 8;

/** "big (new) takes 8192 MB memory, h836-a grows by 2048 MB memory, …", sorted by name. */
function claimsWords(claims: readonly Claim[]): string {
  const sorted = [...claims].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const words = (claim: Claim) =>
    claim.kind === "grow"
      ? `${claim.name} grows by ${needWords(claim)}`
      : `${claim.name} (${claim.kind === "new" ? "new" : "moving here"}) takes ${needWords(claim)}`;
  const listed = sorted.slice(0, LISTED).map(words);
  const rest = sorted.slice(LISTED);
  return (
    listed.join(", ") + (rest.length > 0 ? ` and ${rest.length} more take ${needWords(sumOf(rest))}` : "")
  );
}

/** What to do about the claims set aside, in the words of their kind. */
function advice(aside: readonly Claim[]): string {
  const placed = aside.filter((claim) => claim.kind !== "grow");
  const grown = aside.filter((claim) => claim.kind === "grow");
  const them = (claims: readonly Claim[]) => (claims.length === 1 ? "it" : "them");
  const parts: string[] = [];
  if (placed.length > 0)
    parts.push(
      `leave ${namesWords(placed)} out of this run, or give ${them(placed)} another host (hostServerOid` +
        (placed.some((claim) => claim.kind === "new")
          ? ", or leave it out of a new VPS to let RimuHosting choose)"
          : ")"),
    );
  if (grown.length > 0)
    parts.push(
      `grow ${namesWords(grown)} by less, or move ${them(grown)} to a host with room first (hostServerOid)`,
    );
  return parts.join("; ");
}

/**
 * Why this run's changes on `host` do not fit together: what the host has free (or what RimuHosting said of their
 * sum), every claim checked so far with what it takes, the ones the rule sets aside, and what to do about them.
 */
export function roomRefusal(
  host: string,
  claims: readonly Claim[],
  aside: readonly Claim[],
  room: { free: HostFree } | { says: string },
  run: RunKind = { applying: false },
): string {
  const changes = claims.every((claim) => claim.kind === "new") ? "new VPSs" : "changes";
  const total = needWords(sumOf(claims));
  let has: string;
  if ("free" in room) {
    const figures = [
      room.free.memoryMb !== undefined ? `${room.free.memoryMb} MB memory` : "",
      room.free.diskGb !== undefined ? `${room.free.diskGb} GB disk` : "",
    ].filter((part) => part !== "");
    has = `host ${host} has ${figures.join(" and ")} free, and this run's ${changes} on it take ${total} together`;
  } else {
    has =
      `host ${host} has no room for this run's ${changes} on it together (${total}; RimuHosting says: ` +
      `${room.says.replace(/[.\s]+$/, "")})`;
  }
  const verdict = run.applying
    ? `This run is applying changes, and the ones checked before ${namesWords(aside)} passed their checks and may ` +
      `already be under way, so leave them be: ${advice(aside)}`
    : `Without ${namesWords(aside)} the rest fit: ${advice(aside)}${perhapsUnderWay(aside, run)}`;
  return `${has}: ${claimsWords(claims)}. ${verdict}. ${notCounted(host)}`;
}

/**
 * What the check knows of its run: whether a change of it has started (so it applies changes), and, when the check
 * cannot tell a preview from `pulumi up` (the native plugin's), the claim of the change it checks.
 */
export interface RunKind {
  applying: boolean;
  mayApply?: { mine: Claim };
}

/**
 * The native plugin's check before any change of its run started: in a preview the rule's advice stands, but in
 * `pulumi up --skip-preview` a change set aside that was checked before may have started already (its create can be
 * on its way before this check), and leaving a started new VPS out of the program deletes it. Said, not guessed.
 */
function perhapsUnderWay(aside: readonly Claim[], run: RunKind): string {
  const mine = run.mayApply?.mine;
  const before = aside.filter((claim) => claim !== mine);
  if (!mine || before.length === 0) return "";
  const verb = before.length === 1 ? "passed its check" : "passed their checks";
  return (
    `. In \`pulumi up\` without a preview, ${namesWords(before)} ${verb} before ${mine.name} and may already be ` +
    `under way: then leave ${mine.name} out instead`
  );
}

/**
 * The engine stops a preview at the first check that fails, so a failing check has counted only the changes checked
 * before it, in an order that varies from run to run: the message says so, since the ones it names may not be all.
 */
const notCounted = (host: string): string =>
  `This counts the changes on host ${host} checked so far in this run; changes not yet checked are not counted, ` +
  `so a later preview may name more`;
