/**
 * Event logs of previews written by hand, in the shape `pulumi preview --event-log` writes (CLI v3.259.0:
 * test/bill/fixtures/policy.events is one recorded from the real CLI): a prelude with the stack config, a
 * resourcePreEvent per step, diagnostics, policy events, then the summary and the closing cancel event.
 */
import { budgetSoFarWords } from "../../provider/impl/cost/ledger";

export const STACK = "urn:pulumi:prod::shop";
export const NATIVE = "rimuhosting:index:Vps";
export const urn = (name: string, type = NATIVE): string => `${STACK}::${type}::${name}`;
export const providerRef = (name: string): string =>
  `${STACK}::pulumi:providers:rimuhosting::${name}::0a6c9c1e-5a5e-4f0c-9a59-0d1f7e7f4a11`;

export interface VpsSpec {
  name: string;
  op: string;
  type?: string;
  /** The recorded fee (old state's monthlyFeeUsd). */
  fee?: number;
  /** The checked inputs' plannedMonthlyFeeUsd. */
  planned?: number;
  old?: Record<string, unknown>;
  news?: Record<string, unknown>;
  /** The explicit provider serving it (default: the default provider). */
  provider?: string;
}

type Event = Record<string, unknown>;

/** `web`, resized from `from` to `to` MB of memory: billed `fee` now, `planned` after. */
export const resized = (fee: number, planned: number, from = 1024, to = 2048): VpsSpec => ({
  name: "web",
  op: "update",
  fee,
  planned,
  old: { memoryMb: from },
  news: { memoryMb: to },
});

/** The step of a VPS as the CLI writes it: old state for what existed, new state (the checked inputs) for what will. */
export function vpsStep(spec: VpsSpec): Event {
  const type = spec.type ?? NATIVE;
  const u = urn(spec.name, type);
  const provider = providerRef(spec.provider ?? "default_0_1_0");
  const old =
    spec.op === "create"
      ? null
      : {
          type,
          urn: u,
          inputs: { ...spec.old },
          outputs: { ...spec.old, ...(spec.fee !== undefined && { monthlyFeeUsd: spec.fee }) },
          provider,
        };
  const news =
    spec.op === "delete"
      ? null
      : {
          type,
          urn: u,
          inputs: {
            ...spec.old,
            ...spec.news,
            ...(spec.planned !== undefined && { plannedMonthlyFeeUsd: spec.planned }),
          },
          outputs: {},
          provider,
        };
  return {
    resourcePreEvent: { metadata: { op: spec.op, urn: u, type, old, new: news, provider }, planning: true },
  };
}

/** An explicit provider's step, with its arguments. */
export function providerStep(name: string, args: Record<string, unknown>): Event {
  const u = `${STACK}::pulumi:providers:rimuhosting::${name}`;
  const state = { type: "pulumi:providers:rimuhosting", urn: u, inputs: args, outputs: args, provider: "" };
  return { resourcePreEvent: { metadata: { op: "same", urn: u, type: state.type, old: state, new: state } } };
}

/**
 * The provider's line of the account's totals so far (impl/budget/budget.ts says it with a check), in its own words
 * (cost/ledger.ts): the account from `before` to `after` dollars a month with the changes of `count` VPSs checked,
 * against a monthly budget of `budget`, as the stack config (or provider `provider`'s argument) names it.
 */
export function accountLine(
  about: string,
  figures: { before: number; after: number; count: number; budget?: number; increase?: number },
  provider?: string,
): Event {
  const name = (key: string) =>
    provider === undefined ? `rimuhosting:${key}` : `provider '${provider}': ${key}`;
  const totals = {
    count: figures.count,
    beforeCents: Math.round(figures.before * 100),
    afterCents: Math.round(figures.after * 100),
    increaseCents: Math.round((figures.increase ?? Math.max(0, figures.after - figures.before)) * 100),
    adders: [],
    unknown: [],
  };
  const words = budgetSoFarWords(
    { monthlyBudgetUsd: figures.budget },
    totals,
    { monthlyBudgetUsd: name("monthlyBudgetUsd"), maxMonthlyIncreaseUsd: name("maxMonthlyIncreaseUsd") },
    true,
  );
  return diagnostic("info", `${about}: ${words}.`, about);
}

export const diagnostic = (severity: string, message: string, about?: string): Event => ({
  diagnosticEvent: { ...(about && { urn: urn(about) }), message: `${message}\n`, color: "never", severity },
});

export const policy = (policyName: string, level: string, message: string, about?: string): Event => ({
  policyEvent: {
    ...(about && { resourceUrn: urn(about) }),
    message: `What the policy checks.\n${message}\n`,
    color: "never",
    policyName,
    policyPackName: "rimuhosting-guard",
    policyPackVersion: "0.1.0",
    policyPackVersionTag: "0.1.0",
    enforcementLevel: level,
  },
});

/** The whole log: config, events, and the summary (failed when an error or a mandatory policy is among them). */
export function previewLog(
  config: Record<string, string>,
  events: Event[],
  opts: { packs?: boolean; failed?: boolean } = {},
): string {
  const failed =
    opts.failed ??
    events.some(
      (e) =>
        (e.diagnosticEvent as { severity?: string } | undefined)?.severity === "error" ||
        (e.policyEvent as { enforcementLevel?: string } | undefined)?.enforcementLevel === "mandatory",
    );
  const all: Event[] = [
    { preludeEvent: { config: { "rimuhosting:apiKey": "[secret]", ...config } } },
    ...events,
    {
      summaryEvent: {
        maybeCorrupt: false,
        durationSeconds: 1,
        resourceChanges: {},
        PolicyPacks: opts.packs ? { "rimuhosting-guard|local|/pack": "0.1.0" } : {},
        isPreview: true,
        result: failed ? "failed" : "succeeded",
      },
    },
    { cancelEvent: {} },
  ];
  return (
    all.map((e, i) => JSON.stringify({ sequence: i, timestamp: 1700000000 + i, ...e })).join("\n") + "\n"
  );
}

/** A preview log of these VPSs. */
export const vpsLog = (specs: VpsSpec[], config: Record<string, string> = {}, extra: Event[] = []): string =>
  previewLog(config, [...specs.map(vpsStep), ...extra]);
