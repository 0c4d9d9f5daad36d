/**
 * The bill of one preview: each VPS the run changes, with its monthly fee before and after, the stack's totals
 * and the budget's verdict, from what `pulumi preview --json` carries (preview-json.ts). Nothing here is
 * quoted again: the fees are the ones the provider recorded (a state's `monthlyFeeUsd`) and quoted during the
 * preview (the check result's `plannedMonthlyFeeUsd`, docs/cost.md), so the bill says what the preview said.
 *
 * What a preview cannot know is said, not guessed: the credit RimuHosting gives when it cancels a VPS depends
 * on how far the order is paid, which the state does not record (the provider logs the credit when `pulumi up`
 * deletes the VPS); a fee not quoted during the preview is shown as not known, and the totals say they lack it.
 */
import { PRICED_INPUTS, formatMoney } from "../impl/money.js";
import type { PreviewDiagnostic, PreviewDigest, PreviewStep, ResourceState } from "./preview-json.js";

/** The types a VPS of this provider has in a preview: the native plugin's, and the dynamic `Vps`'s. */
export const NATIVE_VPS_TYPE = "rimuhosting:index:Vps";
export const DYNAMIC_VPS_TYPE = "pulumi-nodejs:dynamic/rimuhosting:Vps";
/** A dynamic resource registered without a type of its own: a Vps when its provider is this package's. */
const GENERIC_DYNAMIC_TYPE = "pulumi-nodejs:dynamic:Resource";

/** The input of a checked Vps holding the fee it will be billed once the run's change is applied. */
export const PLANNED_FEE = "plannedMonthlyFeeUsd";
/** The output holding the fee RimuHosting bills for the order now. */
const RECORDED_FEE = "monthlyFeeUsd";
/** How the CLI prints a value that is unknown until the update runs. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The stack config the budget is set with (the provider's settings, docs/cost.md). */
export const BUDGET_KEYS = {
  monthlyBudgetUsd: "rimuhosting:monthlyBudgetUsd",
  maxMonthlyIncreaseUsd: "rimuhosting:maxMonthlyIncreaseUsd",
  enforcement: "rimuhosting:budgetEnforcement",
} as const;

/** A monthly fee in USD, none (the VPS is not billed: not there before a create, gone after a delete), or unknown. */
export type Fee = { usd: number } | { none: true } | { unknown: string };

export type ChangeKind = "create" | "update" | "replace" | "delete" | "import" | "same";

export interface VpsChange {
  /** The resource's name in the program. */
  name: string;
  urn: string;
  kind: ChangeKind;
  /** What changes, `memoryMb 1024 → 2048` (the inputs the diff names; values only when they are plain). */
  changes: string[];
  before: Fee;
  after: Fee;
}

export interface Totals {
  /** Sums of the known fees. */
  before: number;
  after: number;
  /** VPSs whose fee before / after is not known (the sums leave them out). */
  unknownBefore: string[];
  unknownAfter: string[];
  /** False when the preview's JSON leaves out unchanged resources (run without --show-sames). */
  includesUnchanged: boolean;
}

export type VerdictStatus = "pass" | "warn" | "fail" | "unjudged" | "none";

export interface BudgetVerdict {
  status: VerdictStatus;
  /** One line per limit: what it is and how the run stands against it. */
  lines: string[];
  /** The provider's own messages about the budget (a failed or warned preview), verbatim. */
  providerMessages: string[];
}

export interface Bill {
  stack?: string;
  project?: string;
  /** The changed VPSs, in the preview's order (unchanged ones are counted in `unchanged`). */
  changes: VpsChange[];
  unchanged: { count: number; usd: number; unknown: string[] };
  totals: Totals;
  /** This run's change of the monthly bill: the sum of after − before over the changed VPSs (known ones). */
  increase: number;
  /**
   * What the run adds, as the provider's budget counts it against maxMonthlyIncreaseUsd: each new VPS's fee and
   * each growing change's growth; shrinks and deletes are not netted (docs/cost.md).
   */
  growth: number;
  budget: BudgetVerdict;
  /** The preview's errors other than the budget's. */
  previewErrors: string[];
  /** The preview failed (an error of the budget's or another): it stopped there, and lists only what came before. */
  stoppedEarly: boolean;
}

const roundCents = (value: number): number => Math.round(value * 100) / 100;

/** The resource name of a URN: `urn:pulumi:dev::proj::rimuhosting:index:Vps::web` → `web`. */
function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** Whether this state is a VPS of this provider (either front end). */
function isVps(state: ResourceState | undefined): boolean {
  if (!state) return false;
  if (state.type === NATIVE_VPS_TYPE || state.type === DYNAMIC_VPS_TYPE) return true;
  if (state.type !== GENERIC_DYNAMIC_TYPE) return false;
  const provider = state.inputs?.__provider ?? state.outputs?.__provider;
  return typeof provider === "string" && provider.includes("pulumi-rimuhosting");
}

/** Whether a create step adopts an existing order (the Vps input adoptOrderOid) instead of ordering one. */
function adopts(step: PreviewStep): boolean {
  const oid = step.newState?.inputs?.adoptOrderOid;
  return oid !== undefined && oid !== null && oid !== "";
}

/** The number a property holds, when it is a plain known number. */
function numberIn(bag: Record<string, unknown> | undefined, key: string): number | undefined {
  const value = bag?.[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The kind of change an engine operation is for the bill, or undefined for one that bills nothing. */
function kindOf(op: string): ChangeKind | undefined {
  switch (op) {
    case "create":
    case "update":
    case "delete":
    case "same":
      return op;
    case "refresh":
      return "same";
    case "replace":
    case "create-replacement":
      return "replace";
    case "import":
    case "import-replacement":
      return "import";
    default:
      // read (Vps.get: not this stack's to bill), delete-replaced / discard (halves of a replace), …
      return undefined;
  }
}

/** A value shown in a change: plain numbers and short strings; others (secrets, unknowns, objects) are not. */
function shown(value: unknown): string | undefined {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value !== "string" || value === "[secret]" || value === UNKNOWN || value.length > 40)
    return undefined;
  return value;
}

/** The provider's own inputs, never a change a user made. */
const isOwnKey = (key: string): boolean => key.startsWith("__") || key === PLANNED_FEE;

/**
 * The inputs the step changes: the diff's keys as the engine reports them, or, where it reports none (the
 * dynamic provider's updates), the inputs whose values differ between the old and the new state.
 */
function changedKeys(step: PreviewStep): string[] {
  const reported = step.op === "update" ? step.diffReasons : step.replaceReasons;
  if (reported && reported.length > 0) return reported.filter((key) => !isOwnKey(key));
  const [old, news] = [step.oldState?.inputs ?? {}, step.newState?.inputs ?? {}];
  const keys = [...new Set([...Object.keys(old), ...Object.keys(news)])].filter((key) => !isOwnKey(key));
  return keys.filter((key) => JSON.stringify(old[key]) !== JSON.stringify(news[key]));
}

/** `memoryMb 1024 → 2048` for each input the step changes. */
function describeChanges(step: PreviewStep): string[] {
  const old = { ...step.oldState?.outputs, ...step.oldState?.inputs };
  const news = step.newState?.inputs ?? {};
  return changedKeys(step).map((key) => {
    const [from, to] = [shown(old[key]), shown(news[key])];
    if (news[key] === UNKNOWN) return `${key} (known after up)`;
    return from !== undefined && to !== undefined ? `${key} ${from} → ${to}` : key;
  });
}

/** Why the fee after a change is not in the preview: the provider's message for the resource when it gave one. */
function unquotedReason(step: PreviewStep, diagnostics: readonly PreviewDiagnostic[]): string {
  for (const d of diagnostics) {
    if (d.urn !== step.urn) continue;
    const match = /price not quoted: ([^\n]*?)\.?$/m.exec(d.message);
    if (match) return match[1]!;
  }
  return "not quoted during the preview";
}

function feeBefore(step: PreviewStep): Fee {
  const fee = numberIn(step.oldState?.outputs, RECORDED_FEE);
  return fee !== undefined ? { usd: fee } : { unknown: "the state records no monthly fee" };
}

/** Only these inputs change the price; a change of others leaves the fee as it is. */
const PRICED: ReadonlySet<string> = new Set(PRICED_INPUTS);

function feeAfter(
  step: PreviewStep,
  kind: ChangeKind,
  before: Fee,
  diagnostics: readonly PreviewDiagnostic[],
): Fee {
  const planned = numberIn(step.newState?.inputs, PLANNED_FEE);
  if (planned !== undefined) return { usd: planned };
  // A provider from before plannedMonthlyFeeUsd: an unchanged VPS, or a change of no priced input, keeps its fee.
  const pricedChange = changedKeys(step).some((key) => PRICED.has(key));
  if ((kind === "same" || (kind === "update" && !pricedChange)) && "usd" in before) return before;
  return { unknown: unquotedReason(step, diagnostics) };
}

/** The steps of VPSs, one per resource (a replacement's halves folded into its logical step). */
function vpsSteps(steps: readonly PreviewStep[]): { step: PreviewStep; kind: ChangeKind }[] {
  const byUrn = new Map<string, { step: PreviewStep; kind: ChangeKind }>();
  for (const step of steps) {
    if (!isVps(step.newState) && !isVps(step.oldState)) continue;
    const kind = kindOf(step.op);
    if (!kind) continue;
    const seen = byUrn.get(step.urn);
    // The logical "replace" step carries the old and the new state; a shown create-replacement half adds nothing.
    if (seen && !(seen.kind === "replace" && step.op === "replace")) continue;
    byUrn.set(step.urn, { step, kind });
  }
  return [...byUrn.values()];
}

/** A number from the stack config as the preview prints it (a string), or a problem. */
function configNumber(config: Record<string, unknown>, key: string): number | string | undefined {
  const raw = config[key];
  if (raw === undefined) return undefined;
  const value = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw.trim()) : Number.NaN;
  if (typeof raw === "string" && raw.trim() === "") return `${key} is empty`;
  if (!Number.isFinite(value) || value < 0)
    return `${key} is ${JSON.stringify(raw)}, which is not an amount of USD (a number such as 50)`;
  return value;
}

/** The provider's messages about the budget among the preview's diagnostics. */
function isBudgetMessage(d: PreviewDiagnostic): boolean {
  return /RIMU_ERR_BUDGET|monthlyBudgetUsd|maxMonthlyIncreaseUsd/.test(d.message);
}

const usd = (amount: number): string => formatMoney({ amount, currency: "USD" });

function judgeBudget(
  config: Record<string, unknown>,
  totals: Totals,
  growth: number,
  growthKnown: boolean,
  diagnostics: readonly PreviewDiagnostic[],
  previewFailed: boolean,
): BudgetVerdict {
  const providerErrors = diagnostics.filter((d) => d.severity === "error" && isBudgetMessage(d));
  const providerWarnings = diagnostics.filter((d) => d.severity === "warning" && isBudgetMessage(d));
  const providerMessages = [...providerErrors, ...providerWarnings].map((d) => d.message.trim());
  const warnOnly = String(config[BUDGET_KEYS.enforcement] ?? "").trim() === "warn";
  const lines: string[] = [];
  let over = false;
  let unjudged = false;

  const budget = configNumber(config, BUDGET_KEYS.monthlyBudgetUsd);
  if (typeof budget === "string") {
    lines.push(`${budget}: the bill cannot judge it.`);
    unjudged = true;
  } else if (budget !== undefined) {
    const complete = totals.includesUnchanged && totals.unknownAfter.length === 0 && !previewFailed;
    if (!complete) {
      lines.push(
        `Monthly budget ${usd(budget)} (${BUDGET_KEYS.monthlyBudgetUsd}): not judged here, ${
          previewFailed
            ? "the preview stopped before the end"
            : !totals.includesUnchanged
              ? "the preview's JSON leaves out the unchanged VPSs (run it with --show-sames)"
              : `the fee after the run of ${totals.unknownAfter.join(", ")} is not known`
        }.`,
      );
      unjudged = true;
    } else {
      const fits = roundCents(totals.after) <= budget;
      over ||= !fits;
      lines.push(
        `Monthly budget ${usd(budget)} (${BUDGET_KEYS.monthlyBudgetUsd}): the stack's VPSs cost ${usd(totals.after)} a month after this run, ${
          fits
            ? `within it (${usd(roundCents(budget - totals.after))} to spare)`
            : `${usd(roundCents(totals.after - budget))} over it`
        }.`,
      );
    }
  }

  const maxIncrease = configNumber(config, BUDGET_KEYS.maxMonthlyIncreaseUsd);
  if (typeof maxIncrease === "string") {
    lines.push(`${maxIncrease}: the bill cannot judge it.`);
    unjudged = true;
  } else if (maxIncrease !== undefined) {
    if (!growthKnown || previewFailed) {
      lines.push(
        `Largest increase ${usd(maxIncrease)} a month (${BUDGET_KEYS.maxMonthlyIncreaseUsd}): not judged here, ${
          previewFailed ? "the preview stopped before the end" : "a changed VPS's fee is not known"
        }.`,
      );
      unjudged = true;
    } else {
      const fits = roundCents(growth) <= maxIncrease;
      over ||= !fits;
      lines.push(
        `Largest increase ${usd(maxIncrease)} a month (${BUDGET_KEYS.maxMonthlyIncreaseUsd}): this run adds ${usd(growth)} a month (new VPSs and growing changes; shrinks and deletes are not netted), ${fits ? "within it" : `${usd(roundCents(growth - maxIncrease))} over it`}.`,
      );
    }
  }

  let status: VerdictStatus;
  if (providerErrors.length > 0 || (over && !warnOnly)) status = "fail";
  else if (providerWarnings.length > 0 || over) status = "warn";
  else if (unjudged) status = "unjudged";
  else if (lines.length > 0) status = "pass";
  else status = "none";
  return { status, lines, providerMessages };
}

/** The bill of a preview (see the header). */
export function billOf(preview: PreviewDigest): Bill {
  const steps = preview.steps ?? [];
  const diagnostics = preview.diagnostics ?? [];
  const changes: VpsChange[] = [];
  const unchanged = { count: 0, usd: 0, unknown: [] as string[] };
  const totals: Totals = {
    before: 0,
    after: 0,
    unknownBefore: [],
    unknownAfter: [],
    includesUnchanged: false,
  };
  let increase = 0;
  let growth = 0;
  let growthKnown = true;

  for (const { step, kind } of vpsSteps(steps)) {
    const name = nameOf(step.urn);
    const takenOver = kind === "import" || (kind === "create" && adopts(step));
    const created: Fee = kind === "create" || kind === "import" ? { none: true } : feeBefore(step);
    const after: Fee = kind === "delete" ? { none: true } : feeAfter(step, kind, created, diagnostics);
    // An adopted or imported VPS is billed already: the stack takes its fee over, the account pays nothing more
    // (the provider's budget counts it the same way). The preview carries no fee apart from the planned one.
    const before: Fee = takenOver ? after : created;
    if ("usd" in before) totals.before += before.usd;
    else if ("unknown" in before) totals.unknownBefore.push(name);
    if ("usd" in after) totals.after += after.usd;
    else if ("unknown" in after) totals.unknownAfter.push(name);
    const delta =
      ("usd" in after ? after.usd : "none" in after ? 0 : NaN) -
      ("usd" in before ? before.usd : "none" in before ? 0 : NaN);
    if (!Number.isNaN(delta)) increase += delta;
    if (kind !== "delete") {
      if (Number.isNaN(delta)) growthKnown = false;
      else growth += Math.max(0, delta);
    }
    if (kind === "same") {
      unchanged.count++;
      if ("usd" in after) unchanged.usd += after.usd;
      else unchanged.unknown.push(name);
      continue;
    }
    const changed = kind === "update" || kind === "replace" ? describeChanges(step) : [];
    changes.push({ name, urn: step.urn, kind, changes: changed, before, after });
  }

  // The JSON lists unchanged resources only with --show-sames; the change summary counts them either way.
  const sameShown = steps.filter((s) => s.op === "same").length;
  totals.includesUnchanged =
    preview.changeSummary !== undefined && (preview.changeSummary.same ?? 0) <= sameShown;
  totals.before = roundCents(totals.before);
  totals.after = roundCents(totals.after);
  increase = roundCents(increase);
  growth = roundCents(growth);
  unchanged.usd = roundCents(unchanged.usd);

  const previewErrors = diagnostics
    .filter((d) => d.severity === "error" && !isBudgetMessage(d))
    .map((d) => d.message.trim());
  const failed = diagnostics.some((d) => d.severity === "error");
  const budget = judgeBudget(preview.config ?? {}, totals, growth, growthKnown, diagnostics, failed);

  const first = steps[0]?.urn.split("::");
  return {
    stack: first?.[0]?.replace(/^urn:pulumi:/, ""),
    project: first?.[1],
    changes,
    unchanged,
    totals,
    increase,
    growth,
    budget,
    previewErrors,
    stoppedEarly: failed,
  };
}
