/**
 * Enumerations of the RimuHosting wire format: the values the API documents for its enum fields.
 * Enum values are upper-case strings on the wire.
 */
import * as z from "zod";
import { DC_LOCATIONS, VPS_TYPES } from "./literals.js";

/** Power state of a VPS (AboutOrder.running_state, RunningVPSInfo.running_state). */
export const RunningState = z.enum(["RUNNING", "NOTRUNNING", "RESTARTING", "POWERCYCLING"]);
export type RunningState = z.infer<typeof RunningState>;

/** Dedicated server or VPS. */
export const ServerType = z.enum(["VPS", "PHYSICAL"]);
export type ServerType = z.infer<typeof ServerType>;

/** Data-centre codes. The list is in literals.ts, which the public types use without loading zod. */
export const DcLocation = z.enum(DC_LOCATIONS);
export type DcLocation = z.infer<typeof DcLocation>;

/** VPS classes (listed in literals.ts, like the data-centre codes). */
export const VpsType = z.enum(VPS_TYPES);
export type VpsType = z.infer<typeof VpsType>;

export const BillingMethodType = z.enum([
  "TS_CC",
  "TS_PAYPAL",
  "TS_BANK",
  "TS_WIRE",
  "TS_OTHER",
  "TS_INVOICE",
]);
export type BillingMethodType = z.infer<typeof BillingMethodType>;

export const Currency = z.enum(["CUR_USD", "CUR_NZD", "CUR_AUD", "CUR_CAD", "CUR_GBP", "CUR_EUR"]);
export type Currency = z.infer<typeof Currency>;

/** What a host-server move should keep (VPSMoveRequest.pricing_change_option). */
export const PricingChangeOption = z.enum([
  "CHOOSE_SAME_RESOURCES",
  "CHOOSE_SAME_PRICING",
  "CHOOSE_BEST_OPTION",
]);
export type PricingChangeOption = z.infer<typeof PricingChangeOption>;

export const ResponseType = z.enum(["OK", "ERROR"]);
export type ResponseType = z.infer<typeof ResponseType>;

export const ResponseDisplayDurationType = z.enum(["SHORT", "REGULAR", "PERMANENT"]);
export type ResponseDisplayDurationType = z.infer<typeof ResponseDisplayDurationType>;
