/**
 * How a drift line prints a value (vps-drift.ts writes the lines; the drift report, provider/drift/report.ts, shows
 * the same values in its table): `none` for one that is absent (no cancellation scheduled), JSON for an object, the
 * value's text otherwise. One rule, so the report's rows read as the provider's lines.
 */
export const driftValue = (value: unknown): string =>
  value === undefined || value === null
    ? "none"
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);
