/**
 * The budget's rules as the pack applies them: the provider's own cost model (provider/impl/cost/, docs/cost.md),
 * not a copy. `cost/` is that folder: in a clone of the repository a link to provider/impl/cost, in the release's
 * tarball the files the pack imports from it (tools/release/policy-pack.ts copies them), so the pack still runs from
 * its own directory with its own node_modules, without the provider. test/cost/three-judges.test.ts runs the pack,
 * the provider's check and the bill through one table of cases.
 *
 * What is the pack's own: a deleted VPS's fee as the stack's state records it (the pack reads no account).
 */
import { cents } from "./cost/money";
import type { VpsFee } from "./cost/verdict";

export { cents, dollars, type Priced } from "./cost/money";
export { MAX_BUDGET_USD } from "./cost/setting";
export {
  addsOf,
  judgementOf,
  limitsPassed,
  totalsOf,
  verdictOf,
  type Adder,
  type BudgetTotals,
  type Judgement,
  type Limit,
  type Limits,
  type RunVerdict,
  type VpsFee,
} from "./cost/verdict";

/**
 * A VPS the run deletes, at the fee its state records (provider/impl/cost/fee.ts's "deleted": billed until the
 * delete is made, so the budget judges the run's highest point).
 */
export function deletedFee(name: string, nowUsd: number | undefined): VpsFee {
  if (nowUsd === undefined) return { name, after: { why: "its state records no fee" } };
  return { name, nowCents: cents(nowUsd), after: { cents: cents(nowUsd) } };
}
