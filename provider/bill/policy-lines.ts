/**
 * The policy packs' verdicts in the bill: each pack that ran in the preview, and each policy it reported, as the
 * event log carries them (`policyEvent`; `pulumi preview --json` leaves them out). A mandatory violation fails
 * the preview and the bill; an advisory one warns.
 */
import type { Bill } from "./bill.js";
import type { PolicyEvent } from "./event-log.js";
import { code } from "./md-text.js";

/** Whether a policy's finding fails the run (mandatory; remediate-level findings too). */
export const isMandatory = (p: PolicyEvent): boolean => p.enforcementLevel !== "advisory";

/** The name of the resource a finding is about; undefined for the stack. */
export const resourceOf = (p: PolicyEvent): string | undefined =>
  p.resourceUrn && !p.resourceUrn.includes("::pulumi:pulumi:Stack::")
    ? p.resourceUrn.slice(p.resourceUrn.lastIndexOf("::") + 2)
    : undefined;

/** The resource a finding is about: its name, or "the stack". */
const about = (p: PolicyEvent): string => {
  const name = resourceOf(p);
  return name === undefined ? "the stack" : code(name);
};

/** A finding's message without the policy's description (its first line, when there are more). */
export function finding(p: PolicyEvent): string {
  const lines = p.message.trim().split("\n");
  return (lines.length > 1 ? lines.slice(1) : lines).join(" ").trim();
}

export function policyLines(bill: Bill): string[] {
  if (bill.policyPacks.length === 0)
    return [
      "**Policy packs:** none ran in this preview (`pulumi preview --policy-pack …` adds their verdicts here).",
    ];
  const out: string[] = [];
  for (const pack of bill.policyPacks) {
    const found = bill.policies.filter((p) => p.policyPackName === pack.name);
    const mandatory = found.filter(isMandatory).length;
    const advisory = found.length - mandatory;
    const status =
      mandatory > 0
        ? `❌ ${mandatory} mandatory violation${mandatory === 1 ? "" : "s"}`
        : advisory > 0
          ? "⚠️ advisory only"
          : "✅ no violations";
    const extra = mandatory > 0 && advisory > 0 ? `, ⚠️ ${advisory} advisory` : "";
    const passed = pack.passed.size > 0 ? ` (passed: ${[...pack.passed].sort().map(code).join(", ")})` : "";
    out.push(
      `**Policy pack ${code(pack.name)} ${pack.version}: ${status}${extra}.**${found.length === 0 ? passed : ""}`,
    );
    for (const p of found)
      out.push(
        `- ${isMandatory(p) ? "❌" : "⚠️"} ${code(p.policyName)} (${p.enforcementLevel}) on ${about(p)}: ${finding(p)}`,
      );
  }
  return out;
}
