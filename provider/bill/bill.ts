/**
 * The bill of one preview (event-log.ts): each VPS of the stack with what the run does to it and its monthly fee
 * before and after, in whole cents, grouped by the provider whose budget covers it, and each budget's verdict
 * (judge.ts). Nothing is quoted again: the fees are the ones the provider recorded (a state's `monthlyFeeUsd`) and
 * quoted during the preview (the checked inputs' `plannedMonthlyFeeUsd`, docs/cost.md), so the bill says what the
 * preview said. A fee the preview does not know is "not priced", with the provider's reason, and is never $0.
 */
import { cents, notInUsd } from "../impl/cost/money.js";
import { accountTotalsIn } from "../impl/cost/ledger.js";
import { BUDGET_SETTINGS, type BudgetSetting } from "../impl/cost/setting.js";
import { CURRENT_FEE_KEY, PLANNED_FEE_KEY } from "../impl/budget/planned-fee.js";
import { CHECK_DEPLOYMENT_KEY } from "../impl/engine/deployment.js";
import { VPS_INPUT_FIELDS } from "../impl/fields/vps-fields.js";
import { isVpsResource } from "../impl/fields/vps-type-tokens.js";
import type { PolicyEvent, PolicyPackRun, PreviewLog, PreviewStep, StateMetadata } from "./event-log.js";
import type { ChangeKind, Fee } from "./fee.js";
import { judgeScope, type ScopeVerdict } from "./judge.js";

export type { ChangeKind, Fee } from "./fee.js";

/** The native plugin's provider resources; an explicit one carries its own budget arguments. */
const NATIVE_PROVIDER_TYPE = "pulumi:providers:rimuhosting";
/** The names the engine gives default providers (impl/engine/settings-source.ts says why not just "default…"). */
const DEFAULT_PROVIDER_NAME = /^default(_|$)/;
/** The output holding the fee RimuHosting bills for the order now. */
const RECORDED_FEE = "monthlyFeeUsd";
/** How the CLI writes a value that is unknown until the update runs. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** The key by which the CLI marks a secret value in an event log. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

export interface VpsLine {
  /** The resource's name in the program. */
  name: string;
  urn: string;
  kind: ChangeKind;
  /** What changes, `memoryMb 1024 → 2048` (the inputs that differ; values only when they are plain). */
  changes: string[];
  before: Fee;
  after: Fee;
  /** The explicit provider whose budget covers it; undefined: the stack config's. */
  provider?: string;
  /**
   * When RimuHosting ends the order (ISO time): it was cancelled outside Pulumi at the end of its billing period,
   * as the provider's warning in the preview says. The run changes nothing, yet its fee stops then.
   */
  endsAt?: string;
}

export interface Bill {
  stack?: string;
  project?: string;
  /** Every VPS of the stack the preview got to, in its order. */
  vpss: VpsLine[];
  /** One verdict per budget (the stack config's, each explicit provider's), for the VPSs it covers. */
  budgets: ScopeVerdict[];
  policies: PolicyEvent[];
  policyPacks: PolicyPackRun[];
  /** The preview's errors other than the budget's. */
  previewErrors: string[];
  /** The preview failed: it stopped there, and lists only what came before. */
  stoppedEarly: boolean;
}

/** The resource name of a URN: `urn:pulumi:dev::proj::rimuhosting:index:Vps::web` → `web`. */
const nameOf = (urn: string): string => urn.slice(urn.lastIndexOf("::") + 2);

/** Whether this state is a VPS of this provider (any type it is recorded under: impl/fields/vps-type-tokens.ts). */
function isVps(state: StateMetadata | null | undefined): boolean {
  return !!state && isVpsResource(state);
}

/** The cents a property holds, when it is a plain known number. */
function centsIn(bag: Record<string, unknown> | null | undefined, key: string): number | undefined {
  const value = bag?.[key];
  return typeof value === "number" && Number.isFinite(value) ? cents(value) : undefined;
}

const centsOf = (value: number | undefined): Fee | undefined =>
  value === undefined ? undefined : { cents: value };

/** A value shown in a change: plain numbers and short strings; others (secrets, unknowns, objects) are not. */
function shown(value: unknown): string | undefined {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value !== "string" || value === UNKNOWN || value.length > 40) return undefined;
  return value;
}

/** The provider's own inputs, never a change a user made. */
const isOwnKey = (key: string): boolean =>
  key.startsWith("__") ||
  [PLANNED_FEE_KEY, CURRENT_FEE_KEY, CHECK_DEPLOYMENT_KEY, "creationScope"].includes(key);

/** The inputs the step changes: those whose values differ between the old and the new state. */
function changedKeys(step: PreviewStep): string[] {
  const [old, news] = [step.old?.inputs ?? {}, step.new?.inputs ?? {}];
  const keys = [...new Set([...Object.keys(old), ...Object.keys(news)])].filter((key) => !isOwnKey(key));
  return keys.filter((key) => JSON.stringify(old[key]) !== JSON.stringify(news[key]));
}

/** `memoryMb 1024 → 2048` for each input the step changes. */
function describeChanges(step: PreviewStep): string[] {
  const old = { ...step.old?.outputs, ...step.old?.inputs };
  const news = step.new?.inputs ?? {};
  return changedKeys(step).map((key) => {
    if (news[key] === UNKNOWN) return `${key} (known after up)`;
    const [from, to] = [shown(old[key]), shown(news[key])];
    return from !== undefined && to !== undefined ? `${key} ${from} → ${to}` : key;
  });
}

const fieldKind = (key: string): string | undefined =>
  (VPS_INPUT_FIELDS as Record<string, string | undefined>)[key];

/** An update's kind: a move (a new host), a resize (the sizes or plan), both, or another update. */
function updateKind(step: PreviewStep): ChangeKind {
  const kinds = new Set(changedKeys(step).map(fieldKind));
  if (kinds.has("move")) return kinds.has("parameters") ? "move and resize" : "move";
  return kinds.has("parameters") ? "resize" : "update";
}

/** The bill's kind of an engine operation, or undefined for one that bills nothing. */
function kindOf(step: PreviewStep): ChangeKind | undefined {
  switch (step.op) {
    case "create": {
      const oid = step.new?.inputs?.adoptOrderOid;
      return oid !== undefined && oid !== null && oid !== "" ? "adopt" : "create";
    }
    case "update":
      return updateKind(step);
    case "delete":
    case "same":
      return step.op;
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

/** Why the fee after a change is not in the preview: the provider's words for the resource when it gave them. */
function unpricedReason(urn: string, log: PreviewLog): string {
  for (const d of log.diagnostics) {
    if (d.urn !== urn) continue;
    const match =
      /price not quoted: ([^\n]*?)\.?$/m.exec(d.message) ??
      /the budget cannot count this VPS's change \(([^\n]*)\);/.exec(d.message);
    if (match) return match[1]!;
    // A quote the preview printed in another currency (impl/budget/money.ts's price lines, formatMoney): "NZ$18.00
    // a month". It is not in plannedMonthlyFeeUsd because the budget counts USD only: say that, as the provider does.
    const foreign = FOREIGN_QUOTE.exec(d.message);
    if (foreign) return notInUsd(foreign[1]!);
  }
  return "the preview carries no quote for it";
}

/** A monthly price in a currency other than US dollars, as formatMoney writes it ("NZ$18.00", "€9.57", "XYZ 9.57"). */
const FOREIGN_QUOTE = /((?:[A-Z]{1,3}\$|[€£¥₹]|\b[A-Z]{3}[\s\u00a0])[\d,]+(?:\.\d+)?) a month/;

/** The date the provider's preview warns RimuHosting will cancel the VPS at (impl/lifecycle/gone-order.ts). */
function endsAt(urn: string, log: PreviewLog): string | undefined {
  for (const d of log.diagnostics)
    if (d.urn === urn) {
      const match = /RimuHosting will cancel VPS order \d+ at (\S+?): it was cancelled/.exec(d.message);
      if (match) return match[1]!;
    }
  return undefined;
}

/** What an adopted order is billed now: from the provider's adoption line (impl/budget/money.ts adoptionLine). */
function adoptedFee(urn: string, log: PreviewLog): Fee {
  for (const d of log.diagnostics) {
    if (d.urn !== urn) continue;
    const match = /adopting order \d+: (?:billed )?\$([\d,]+\.\d\d)/.exec(d.message);
    if (match) return { cents: cents(Number(match[1]!.replace(/,/g, ""))) };
  }
  // As the provider counts an order whose fee it does not know: as new.
  return { none: true };
}

function feeBefore(step: PreviewStep, kind: ChangeKind, log: PreviewLog): Fee {
  if (kind === "create") return { none: true };
  // What the adopted order is billed now, as the provider's check gave it (or, from older providers, said it).
  if (kind === "adopt")
    return centsOf(centsIn(step.new?.inputs, CURRENT_FEE_KEY)) ?? adoptedFee(step.urn, log);
  // What the order is billed now as the provider's check read it from the account: the budget's figure. The state's
  // record may be older (a VPS resized by hand and not refreshed: the run changes nothing, so its fee must not rise).
  const live =
    kind === "import" || kind === "delete" ? undefined : centsIn(step.new?.inputs, CURRENT_FEE_KEY);
  if (live !== undefined) return { cents: live };
  // An import reads the order: the fee it is billed now is in the new state's outputs.
  const state = kind === "import" ? step.new : step.old;
  const fee = centsIn(state?.outputs, RECORDED_FEE);
  if (fee !== undefined) return { cents: fee };
  return kind === "import" ? { none: true } : { unknown: "the state records no monthly fee" };
}

/** Only these inputs change the price; a change of others leaves the fee as it is. */
const PRICED_KINDS = new Set(["parameters", "move", "replace"]);

function feeAfter(step: PreviewStep, kind: ChangeKind, before: Fee, log: PreviewLog): Fee {
  if (kind === "delete") return { none: true };
  const planned = centsIn(step.new?.inputs, PLANNED_FEE_KEY);
  if (planned !== undefined) return { cents: planned };
  // A provider from before plannedMonthlyFeeUsd: a VPS whose priced inputs do not change keeps its fee.
  const priced = changedKeys(step).some((key) => PRICED_KINDS.has(fieldKind(key) ?? ""));
  if ((kind === "same" || kind === "update") && !priced && "cents" in before) return before;
  return { unknown: unpricedReason(step.urn, log) };
}

/** The steps of VPSs, one per resource (a replacement's halves folded into its logical step). */
function vpsSteps(steps: readonly PreviewStep[]): { step: PreviewStep; kind: ChangeKind }[] {
  const byUrn = new Map<string, { step: PreviewStep; kind: ChangeKind }>();
  for (const step of steps) {
    if (!isVps(step.new) && !isVps(step.old)) continue;
    const kind = kindOf(step);
    if (!kind) continue;
    const seen = byUrn.get(step.urn);
    // The logical "replace" step carries the old and the new state; a create-replacement half adds nothing. A
    // refresh step (`preview --refresh` logs one per resource before the step the run takes) yields to that step.
    const supersedes = seen?.step.op === "refresh" || (seen?.kind === "replace" && step.op === "replace");
    if (seen && !supersedes) continue;
    byUrn.set(step.urn, { step, kind });
  }
  return [...byUrn.values()];
}

/** The explicit provider (its URN) serving a step, or undefined for a default provider or the dynamic Vps's. */
function explicitProviderUrn(step: PreviewStep): string | undefined {
  const ref = step.provider || step.new?.provider || step.old?.provider || "";
  const urn = ref.slice(0, ref.lastIndexOf("::"));
  const type = urn.split("::")[2];
  return type === NATIVE_PROVIDER_TYPE && !DEFAULT_PROVIDER_NAME.test(nameOf(urn)) ? urn : undefined;
}

/** A setting's value as the bill can read it: secrets and unknowns become a reason it cannot. */
function readable(value: unknown): unknown {
  if (value === UNKNOWN) return { unreadable: "it is not known until the update runs" };
  if (value === "[secret]" || (typeof value === "object" && value !== null && SECRET_SIG in value))
    return { unreadable: "it is a secret, which the preview does not show" };
  return value;
}

/** The budget settings of the stack config, or of the explicit provider at `urn` (its arguments). */
function settingsOf(log: PreviewLog, urn: string | undefined): Partial<Record<BudgetSetting, unknown>> {
  const settings: Partial<Record<BudgetSetting, unknown>> = {};
  const step = urn === undefined ? undefined : log.steps.find((s) => s.urn === urn);
  const args = step?.new?.inputs ?? step?.old?.inputs ?? {};
  for (const key of BUDGET_SETTINGS) {
    const value = urn === undefined ? log.config[`rimuhosting:${key}`] : args[key];
    if (value !== undefined) settings[key] = readable(value);
  }
  return settings;
}

/** The provider's messages about the budget among the preview's diagnostics. */
const isBudgetMessage = (message: string): boolean =>
  /RIMU_ERR_BUDGET|monthlyBudgetUsd|maxMonthlyIncreaseUsd|budgetEnforcement/.test(message);

/** The bill of a preview (see the header). */
export function billOf(log: PreviewLog): Bill {
  const vpss: VpsLine[] = [];
  const providerUrns = new Map<string, string | undefined>();
  for (const { step, kind } of vpsSteps(log.steps)) {
    const before = feeBefore(step, kind, log);
    const after = feeAfter(step, kind, before, log);
    const changes = ["update", "resize", "move", "move and resize", "replace"].includes(kind)
      ? describeChanges(step)
      : [];
    const urn = explicitProviderUrn(step);
    const provider = urn === undefined ? undefined : nameOf(urn);
    providerUrns.set(provider ?? "", urn);
    const ends = kind === "delete" ? undefined : endsAt(step.urn, log);
    vpss.push({
      name: nameOf(step.urn),
      urn: step.urn,
      kind,
      changes,
      before,
      after,
      provider,
      ...(ends ? { endsAt: ends } : {}),
    });
  }

  // Each budget message belongs to the budget of the VPS it is about; one about a VPS the preview did not get to
  // (it stopped there) to the budget it names: an explicit provider's argument, or the stack config.
  const byUrn = new Map(vpss.map((v) => [v.urn, v]));
  const messages = new Map<string, { severity: string; message: string }[]>();
  for (const d of log.diagnostics) {
    // Of the provider's lines, only those of the account's totals so far (the budget's figures, judge.ts).
    const accountLine = d.severity === "info" && accountTotalsIn(d.message) !== undefined;
    if (!accountLine && (d.severity === "info" || d.severity === "debug" || !isBudgetMessage(d.message)))
      continue;
    const listed = d.urn ? byUrn.get(d.urn) : undefined;
    const key = listed ? (listed.provider ?? "") : (/provider '([^']+)'/.exec(d.message)?.[1] ?? "");
    if (!providerUrns.has(key))
      providerUrns.set(
        key,
        key === ""
          ? undefined
          : log.steps.find((s) => s.urn.endsWith(`::${NATIVE_PROVIDER_TYPE}::${key}`))?.urn,
      );
    messages.set(key, [...(messages.get(key) ?? []), { severity: d.severity, message: d.message.trim() }]);
  }
  if (providerUrns.size === 0) providerUrns.set("", undefined);
  const budgets = [...providerUrns].map(([key, urn]) => {
    const provider = key === "" ? undefined : key;
    return judgeScope({
      provider,
      settings: settingsOf(log, urn),
      vpss: vpss.filter((v) => v.provider === provider),
      providerMessages: messages.get(key) ?? [],
      complete: !log.failed,
    });
  });

  const previewErrors = log.diagnostics
    .filter(
      (d) => d.severity === "error" && !isBudgetMessage(d.message) && d.message.trim() !== "preview failed",
    )
    .map((d) => d.message.trim());
  const first = (vpss[0]?.urn ?? log.steps[0]?.urn)?.split("::");
  return {
    stack: first?.[0]?.replace(/^urn:pulumi:/, ""),
    project: first?.[1],
    vpss,
    budgets,
    policies: log.policies,
    policyPacks: log.policyPacks,
    previewErrors,
    stoppedEarly: log.failed,
  };
}
