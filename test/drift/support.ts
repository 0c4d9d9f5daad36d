// `pulumi refresh --preview-only --json` digests as the real CLI (v3.259.0) prints them, cut to what the drift report
// reads: the dynamic Vps's drift as a diagnostic line (its steps stay `refresh`), the native plugin's as an `update`
// step with a detailed diff and its line, a gone VPS as a `delete` step.
const STACK = "urn:pulumi:prod::shop::pulumi:pulumi:Stack::shop-prod";
export const dynamicUrn = (name: string) =>
  `urn:pulumi:prod::shop::pulumi-nodejs:dynamic/rimuhosting:Vps::${name}`;
export const nativeUrn = (name: string) => `urn:pulumi:prod::shop::rimuhosting:index:Vps::${name}`;

const state = (urn: string, type: string, outputs: Record<string, unknown> = {}, id?: string) => ({
  urn,
  type,
  ...(id ? { id } : {}),
  inputs: {},
  outputs,
});
const stackStep = { op: "refresh", urn: STACK, oldState: state(STACK, "pulumi:pulumi:Stack") };

export function refreshJson(
  steps: unknown[],
  lines: string[] = [],
  summary: Record<string, number> = { same: 1 + steps.length },
): string {
  return JSON.stringify({
    config: { "rimuhosting:apiKey": "[secret]" },
    steps: [stackStep, ...steps],
    diagnostics: lines.length > 0 ? lines.map((message) => ({ message, severity: "info" })) : null,
    changeSummary: summary,
  });
}

export const unchangedStep = (name: string) => ({
  op: "refresh",
  urn: dynamicUrn(name),
  oldState: state(dynamicUrn(name), "pulumi-nodejs:dynamic/rimuhosting:Vps", { monthlyFeeUsd: 10 }, "1001"),
});

export const goneStep = (name: string) => ({
  op: "delete",
  urn: nativeUrn(name),
  oldState: state(
    nativeUrn(name),
    "rimuhosting:index:Vps",
    { monthlyFeeUsd: 16, domainName: `${name}.example.com` },
    "1003",
  ),
});

/** A moved and resized VPS on the dynamic Vps, as its host printed the line. */
export const MOVED_LINE =
  "[rimuhosting] web: changed outside Pulumi: memoryMb 1024 → 2048, primaryIp 192.0.2.10 → 198.18.1.10, " +
  "hostServerOid 764 → 835, monthlyFeeUsd 10 → 16.\n\n";
