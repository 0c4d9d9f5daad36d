/**
 * A bill's verdict with the command line's limits, worked out once for both renderings: the stack's monthly change,
 * the thresholds' verdict, whether the bill fails (exit 1), its overall status, and whether it is quiet (a change
 * under `--quiet-under` with nothing else to say: the Markdown is then one line).
 */
import type { Bill } from "./bill.js";
import {
  isUnder,
  judgeThresholds,
  thresholdText,
  type Change,
  type Threshold,
  type ThresholdVerdict,
} from "./judge.js";
import { isMandatory } from "./policy-lines.js";
import { changeOf } from "./totals.js";

/** The command line's limits: `--warn-over`, `--fail-over`, `--quiet-under`. */
export interface Limits {
  warn: Threshold[];
  fail: Threshold[];
  quiet: Threshold[];
}

export interface Outcome {
  change: Change;
  thresholds: ThresholdVerdict;
  /** fail: the command exits 1 for it; warn: something to look at (a warning, a finding, a VPS not priced). */
  status: "pass" | "warn" | "fail";
  /** Under the quiet threshold, with nothing else to say: `quietUnder` names the threshold. */
  quiet: boolean;
  quietUnder: string;
}

export function outcomeOf(bill: Bill, limits: Limits): Outcome {
  const change = changeOf(bill);
  const thresholds = judgeThresholds(change, { warn: limits.warn, fail: limits.fail });
  const statuses = [...bill.budgets.map((b) => b.status), thresholds.status];
  const fails = statuses.includes("fail") || bill.policies.some(isMandatory);
  const worth =
    statuses.includes("warn") ||
    // A stack over a budget is said in full, even when this run (lowering or keeping it) passes.
    bill.budgets.some((b) => b.overButNotBlocked) ||
    bill.policies.length > 0 ||
    bill.stoppedEarly ||
    change.unpriced.length > 0 ||
    bill.vpss.some((v) => v.endsAt !== undefined);
  const quiet = !fails && !worth && limits.quiet.length > 0 && limits.quiet.every((t) => isUnder(change, t));
  return {
    change,
    thresholds,
    status: fails ? "fail" : worth ? "warn" : "pass",
    quiet,
    quietUnder: limits.quiet.map(thresholdText).join(" and "),
  };
}
