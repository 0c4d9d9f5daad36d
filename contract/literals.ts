/**
 * The value lists of the wire enums that appear in the package's public types, as plain literals.
 * No zod here on purpose: the public declarations import their types from this file, so a program's
 * compile never loads zod's typings for them (zod's typings need `esModuleInterop`, which older
 * `pulumi new typescript` projects do not set). enums.ts builds the zod enums from these lists.
 */

/** Data-centre codes: the documented enum plus DCFRANKFURT, which current clients use. */
export const DC_LOCATIONS = [
  "DCDALLAS",
  "DCDALLAS2",
  "DCHOUSTON",
  "DCATLANTA",
  "DCLONDON",
  "DCLONDON2",
  "DCSYDNEY",
  "DCBRISBANE",
  "DCNEWCASTLE",
  "DCAUCKLAND",
  "DCNY",
  "DCNY2",
  "DCFRANKFURT",
] as const;
/** A data-centre code, e.g. `DCDALLAS`. */
export type DcLocation = (typeof DC_LOCATIONS)[number];

/** VPS classes. */
export const VPS_TYPES = ["LOW_CONTENTION", "REGULAR", "DEDICATED"] as const;
/** A VPS class: `LOW_CONTENTION`, `REGULAR` or `DEDICATED`. */
export type VpsType = (typeof VPS_TYPES)[number];
