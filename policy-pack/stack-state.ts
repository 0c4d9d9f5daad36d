/**
 * The VPSs the stack's state records, for monthly-budget to count those this run deletes (docs/cost.md, I5). The
 * engine hands a stack policy only the resources the program registers: a VPS the program no longer declares is
 * not among them, yet it is billed until the engine deletes it, after the run's orders and changes. The provider's
 * check, the guard at ordering and the bill count it at its fee now until then (the run's highest point), so the
 * pack does too, and to know it, it reads the stack's state as a user would: `pulumi stack export` of the stack the
 * engine names (PULUMI_ORGANIZATION, PULUMI_PROJECT, PULUMI_STACK, which the engine gives the pack), in the
 * environment the engine started the pack with (its backend and login). Nothing secret is decrypted: only each
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

/** The state of the stack the engine runs the pack for, through the `pulumi` CLI. */
function readThroughCli(): StateReading {
  const { PULUMI_ORGANIZATION: org, PULUMI_PROJECT: project, PULUMI_STACK: stack } = process.env;
  if (!project || !stack) return { why: "the engine did not name the stack (PULUMI_PROJECT, PULUMI_STACK)" };
  const name = org ? `${org}/${project}/${stack}` : stack;
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
let reader: () => StateReading = readThroughCli;
export function setStackStateReader(read: (() => StateReading) | undefined): void {
  reader = read ?? readThroughCli;
}

/** The stack's recorded VPSs, or why they could not be read. */
export const recordedVpss = (): StateReading => reader();

/** monthly-budget's words when the state cannot be read and the VPSs the run deletes might take it over. */
export const deletesUnread = (why: string): string =>
  `monthly-budget could not judge the stack's monthly fee: the VPSs this run deletes, billed until they are ` +
  `deleted, could not be read (${why}). Run the preview where \`pulumi stack export\` can read the stack, or ` +
  `delete those VPSs in a run of their own first.`;
