/**
 * A bill as data (`rimuhosting-bill --format json`): the figures the Markdown shows, from the same computation
 * (totals.ts, outcome.ts), in a documented shape with a version (docs/cost.md, "The bill as data"). Amounts are whole
 * cents of USD a month; a fee is `{ cents }`, `{ none: true }` (not billed: before a create, after a delete) or
 * `{ unknown: why }` (not priced, never 0). Fields are only ever added within a version; a change to what a field
 * means or a field removed is a new version, which `--compare-to` of an older command refuses by name.
 */
import type { Bill, ChangeKind, Fee } from "./bill.js";
import { BILL_FORMAT, BILL_FORMAT_VERSION, type Comparison, type MissingBaseline } from "./compare.js";
import type { AccountFigures, VerdictStatus } from "./judge.js";
import type { Outcome } from "./outcome.js";
import { finding, resourceOf } from "./policy-lines.js";
import { changeCents, columnSum, percentOf } from "./totals.js";

export interface BillDocument {
  format: typeof BILL_FORMAT;
  version: typeof BILL_FORMAT_VERSION;
  project: string | null;
  stack: string | null;
  currency: "USD";
  /** fail: the command exits 1 for this bill; warn: a warning, a policy finding, a VPS not priced… */
  status: Outcome["status"];
  /** False when the preview failed: the bill lists only the VPSs before it stopped. */
  complete: boolean;
  /**
   * The Markdown's "Stack total" row and headline: the fees known before and after (a fee not priced is left out
   * and its VPS named in notPriced), and the change over the priced VPSs with its percentage of their fees before.
   */
  totals: {
    beforeCents: number;
    afterCents: number;
    changeCents: number;
    percent: number | null;
    notPriced: string[];
  };
  vpss: {
    name: string;
    urn: string;
    kind: ChangeKind;
    changes: string[];
    provider: string | null;
    before: Fee;
    after: Fee;
    changeCents: number | null;
    /** When RimuHosting ends the order, cancelled outside Pulumi (absent: it does not). */
    endsAt?: string;
  }[];
  budgets: {
    provider: string | null;
    status: VerdictStatus;
    lines: string[];
    providerMessages: string[];
    afterCents: number;
    increaseCents: number;
    notPriced: string[];
    /**
     * The account the budget covers, as the provider's check said it in the preview (null: it gave none): before the
     * run, judged (the run's highest point, a VPS it deletes still billed), after (its deletes made; absent when a
     * deleted VPS's fee is not known), spare (the budget less judged; absent without a monthly budget), and this
     * stack's own change (absent when a fee is not priced), with how many VPSs it deletes.
     */
    account: AccountFigures | null;
  }[];
  thresholds: { status: VerdictStatus; lines: string[] };
  policyPacks: { name: string; version: string }[];
  policies: {
    pack: string;
    policy: string;
    enforcementLevel: string;
    resource: string | null;
    message: string;
  }[];
  previewErrors: string[];
  /** With `--compare-to`: this bill against the baseline; null without it. */
  comparison: Comparison | MissingBaseline | null;
}

/** The bill as data (see the header). */
export function billDocument(
  bill: Bill,
  outcome: Outcome,
  comparison: BillDocument["comparison"] = null,
): BillDocument {
  const { change } = outcome;
  return {
    format: BILL_FORMAT,
    version: BILL_FORMAT_VERSION,
    project: bill.project ?? null,
    stack: bill.stack ?? null,
    currency: "USD",
    status: outcome.status,
    complete: !bill.stoppedEarly,
    totals: {
      beforeCents: columnSum(bill.vpss.map((v) => v.before)).cents,
      afterCents: columnSum(bill.vpss.map((v) => v.after)).cents,
      changeCents: change.afterCents - change.beforeCents,
      percent: percentOf(change) ?? null,
      notPriced: change.unpriced,
    },
    vpss: bill.vpss.map((v) => ({
      name: v.name,
      urn: v.urn,
      kind: v.kind,
      changes: v.changes,
      provider: v.provider ?? null,
      before: v.before,
      after: v.after,
      changeCents: changeCents(v) ?? null,
      ...(v.endsAt === undefined ? {} : { endsAt: v.endsAt }),
    })),
    budgets: bill.budgets.map((b) => ({
      provider: b.provider ?? null,
      status: b.status,
      lines: b.lines,
      providerMessages: b.providerMessages,
      afterCents: b.afterCents,
      increaseCents: b.increaseCents,
      notPriced: b.unpriced,
      account: b.account ?? null,
    })),
    thresholds: outcome.thresholds,
    policyPacks: bill.policyPacks.map((p) => ({ name: p.name, version: p.version })),
    policies: bill.policies.map((p) => ({
      pack: p.policyPackName,
      policy: p.policyName,
      enforcementLevel: p.enforcementLevel,
      resource: resourceOf(p) ?? null,
      message: finding(p),
    })),
    previewErrors: bill.previewErrors,
    comparison,
  };
}

/** The document as the command prints it: indented, one trailing newline. */
export const renderJson = (doc: BillDocument): string => `${JSON.stringify(doc, null, 2)}\n`;
