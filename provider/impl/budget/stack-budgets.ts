/**
 * The monthly budgets the stacks of one account judge it by (docs/cost.md, "Several stacks on one account"). A budget
 * is each run's own setting, and each run judges the whole account by it: two stacks on one account with budgets of
 * $10 and $20 both pass runs that end the account at $20, and neither says why. What a run can know of the other
 * stacks' settings is what their runs on this machine left: each preview writes the budget its stack judged by to a
 * small file in the system's temporary directory named by a hash of the account's URL and key (never the key), one
 * entry per stack, and reads the others'. A stack whose entry of the last day names another budget (or none) is
 * said, once a run, as a warning. Runs on other machines (another CI runner, a colleague's laptop) are not seen:
 * the docs say so, and say to set one budget on every stack of an account. Without a lock, two writes at the same
 * moment can lose one entry; the next run writes it again.
 *
 * Owns: the file and its entries, and the warning's words.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cents, dollars } from "../cost/money.js";

const PREFIX = "pulumi-rimuhosting-budgets-";
/** Entries older than this are forgotten: a stack's setting of last week may well have changed since. */
export const STACK_BUDGET_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** One stack's budget, as its last run on this machine judged by it. */
interface Entry {
  /** The monthly budget in cents, or null for none. */
  budgetCents: number | null;
  at: number;
}

/** The stack a resource belongs to: `<project>/<stack>` of its creationScope (`<project>/<stack>/<name>`). */
export function stackOfScope(resource: string): string | undefined {
  const parts = resource.split("/");
  return parts.length >= 3 && !resource.startsWith("domain:") ? parts.slice(0, -1).join("/") : undefined;
}

const fileOf = (accountKey: string, dir: string): string =>
  path.join(dir, `${PREFIX}${createHash("sha256").update(accountKey).digest("hex").slice(0, 32)}.json`);

function read(file: string): Record<string, Entry> {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, Entry>;
  } catch {
    return {};
  }
}

function write(file: string, entries: Record<string, Entry>): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, JSON.stringify(entries), { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch {
    // Not shared: the warning is a courtesy, never a failed check.
  }
}

/** "$10.00", or "no monthly budget". */
const budgetWords = (budgetCents: number | null): string =>
  budgetCents === null ? "no monthly budget" : `a monthly budget of ${dollars(budgetCents)}`;

/** "3 minutes ago", "2 hours ago". */
function ago(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  return minutes < 120
    ? `${minutes} minute${minutes === 1 ? "" : "s"} ago`
    : `${Math.round(minutes / 60)} hours ago`;
}

/**
 * Records `stack`'s monthly budget on the account `accountKey` and returns the warning when another stack's run of
 * the last day judged it by another (undefined otherwise); the caller asks once a run per account. `name`: how the
 * setting is named (`rimuhosting:monthlyBudgetUsd`). `dir` and `now`: the temporary directory and the clock (tests).
 */
export function otherStacksBudgets(
  at: { accountKey: string; stack: string },
  budgetUsd: number | undefined,
  name: string,
  opts: { dir?: string; now?: number } = {},
): string | undefined {
  const now = opts.now ?? Date.now();
  const file = fileOf(at.accountKey, opts.dir ?? os.tmpdir());
  const entries = Object.fromEntries(
    Object.entries(read(file)).filter(([, e]) => now - e.at < STACK_BUDGET_MAX_AGE_MS),
  );
  const budgetCents = budgetUsd === undefined ? null : cents(budgetUsd);
  entries[at.stack] = { budgetCents, at: now };
  write(file, entries);
  const others = Object.entries(entries)
    .filter(([stack, e]) => stack !== at.stack && e.budgetCents !== budgetCents)
    .sort(([, a], [, b]) => b.at - a.at);
  if (others.length === 0) return undefined;
  const named = others
    .slice(0, 3)
    .map(([stack, e]) => `stack ${stack} ran ${ago(now - e.at)} with ${budgetWords(e.budgetCents)}`);
  const rest = others.length - named.length;
  return (
    `another stack on this account judges it by another budget: ${named.join("; ")}` +
    `${rest > 0 ? ` (and ${rest} more)` : ""}, where this run has ${budgetWords(budgetCents)} (${name}). Each ` +
    `run judges the whole account by its own budget, so the account can end at the largest of them with every ` +
    `run passing. Set the same monthly budget on every stack of the account (seen from the runs of the last day ` +
    `on this machine only)`
  );
}
