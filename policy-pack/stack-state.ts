/**
 * The VPSs the stack's state records, for monthly-budget to count those this run deletes (docs/cost.md, I5). The
 * engine hands a stack policy only the resources the program registers: a VPS the program no longer declares is
 * not among them, yet it is billed until the engine deletes it, after the run's orders and changes. The provider's
 * check, the guard at ordering and the bill count it at its fee now until then (the run's highest point), so the
 * pack does too, and to know it, it reads the stack's state as a user would: `pulumi stack export` of the stack its
 * resources' URNs name, in the environment the engine started the pack with (its backend and login). Nothing secret is decrypted: only each
 * VPS's URN, type and recorded fee are read.
 */
import { execFileSync } from "node:child_process";
import { isRimuHostingVps, readProperty } from "./readings";
import { RECORDED_FEE } from "./vps-names";

/** A VPS of the state: its URN, its name in the program, and the fee its state records (undefined: none). */
export interface RecordedVps {
  urn: string;
  name: string;
  feeUsd?: number;
}

export type StateReading = { vpss: RecordedVps[] } | { why: string };

interface ExportedResource {
  urn?: string;
  type?: string;
  custom?: boolean;
  delete?: boolean;
  outputs?: Record<string, unknown>;
}

/** The VPSs of an exported state (`pulumi stack export`'s JSON), leaving out those already pending deletion. */
export function recordedVpssOf(exported: unknown): RecordedVps[] {
  const resources =
    (exported as { deployment?: { resources?: ExportedResource[] } } | undefined)?.deployment?.resources ??
    [];
  return resources
    .filter((r) => r.custom !== false && !r.delete && typeof r.urn === "string" && typeof r.type === "string")
    .filter((r) => isRimuHostingVps(r.type!, r.outputs ?? {}))
    .map((r) => {
      const fee = readProperty(r.outputs ?? {}, RECORDED_FEE);
      return {
        urn: r.urn!,
        name: r.urn!.split("::").at(-1) ?? r.urn!,
        ...(fee.kind === "known" && typeof fee.value === "number" ? { feeUsd: fee.value } : {}),
      };
    });
}

/**
 * The stack and project of a URN (`urn:pulumi:<stack>::<project>::…`): the pack is not told them otherwise (a pack
 * started as an analyzer launcher gets no PULUMI_STACK), but every resource it is handed carries them.
 */
function stackOf(urns: readonly string[]): { stack: string; project: string } | undefined {
  for (const urn of urns) {
    const match = /^urn:pulumi:([^:]+)::([^:]+)::/.exec(urn);
    if (match) return { stack: match[1]!, project: match[2]! };
  }
  return undefined;
}

/**
 * The state of the stack whose resources have `urns`, through the `pulumi` CLI: `<org>/<project>/<stack>`, the org
 * from PULUMI_ORGANIZATION when the engine gives it, else `organization` (a self-managed backend's).
 */
function readThroughCli(urns: readonly string[]): StateReading {
  const named = stackOf(urns);
  if (!named) return { why: "no resource of the stack names it" };
  const name = `${process.env.PULUMI_ORGANIZATION || "organization"}/${named.project}/${named.stack}`;
  try {
    const text = execFileSync("pulumi", ["stack", "export", "--stack", name], {
      encoding: "utf8",
      timeout: 120_000,
      maxBuffer: 256 << 20,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { vpss: recordedVpssOf(JSON.parse(text)) };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split("\n")[0];
    return { why: `\`pulumi stack export --stack ${name}\` failed: ${stderr || String(error)}` };
  }
}

/** Test seam: where the state comes from (in-process tests have no stack). */
let reader: (urns: readonly string[]) => StateReading = readThroughCli;
export function setStackStateReader(read: ((urns: readonly string[]) => StateReading) | undefined): void {
  reader = read ?? readThroughCli;
}

/** The recorded VPSs of the stack whose resources have `urns`, or why they could not be read. */
export const recordedVpss = (urns: readonly string[]): StateReading => reader(urns);

/** monthly-budget's words when the state cannot be read and the VPSs the run deletes might take it over. */
export const deletesUnread = (why: string): string =>
  `monthly-budget could not judge the stack's monthly fee: the VPSs this run deletes, billed until they are ` +
  `deleted, could not be read (${why}). Run the preview where \`pulumi stack export\` can read the stack, or ` +
  `delete those VPSs in a run of their own first.`;
