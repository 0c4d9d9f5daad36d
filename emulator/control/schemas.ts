/**
 * The bodies of the control API's answers, as zod schemas: the routes' handlers are typed by them and the OpenAPI
 * description (openapi.ts) is written from them. Records that other modules own and may grow (a request log entry, an
 * order in the snapshot) are loose: their fields listed here are promised, more may come.
 */
import * as z from "zod";
import { ChaosRuleSchema } from "../chaos/rule.js";
import { FaultSpecSchema, OPTION_BOUNDS } from "../options.js";
import { RateLimitSchema } from "../rate-limit.js";

export const ArmedFaults = z.object({ armed: z.array(FaultSpecSchema) });

export const RequestsQuery = z.object({
  last: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ description: "Only the N requests that ended last; without it, all of them." }),
});

export const RequestLogAnswer = z.object({
  requests: z.array(
    z.looseObject({
      method: z.string(),
      route: z.string().meta({ description: 'The endpoint name (contract ENDPOINTS), or "unknown".' }),
      status: z.number().int().meta({ description: "0 when no answer reached the client." }),
      outcome: z.enum(["answered", "dropped", "client-gone"]),
      account: z.string().optional(),
      time: z.string().meta({ description: "When the request arrived, ISO 8601 (the emulator's clock)." }),
      userAgent: z.string().optional().meta({ description: "The User-Agent header, when one was sent." }),
    }),
  ),
  total: z.number().int().meta({ description: "How many requests the whole log holds." }),
});

export const OrdersAnswer = z.object({
  orders: z.array(
    z.looseObject({
      account: z.string(),
      orderOid: z.number().int(),
      domainName: z.string(),
      runningState: z.string(),
      cancelled: z.boolean(),
      cancellationDate: z
        .string()
        .nullable()
        .meta({ description: "ISO 8601; in the future when scheduled." }),
      active: z.boolean().meta({ description: "Listed by R1 without include_inactive." }),
      serverType: z.string(),
      planCode: z.string(),
      dc: z.string(),
      hostOid: z.string().nullable().meta({ description: "null for a dedicated server." }),
      ips: z.array(z.string()).meta({ description: "The primary IP first." }),
      monthlyFeeUsd: z.number(),
      ptr: z.record(z.string(), z.string()),
      rootAuthorizedKeys: z.string().nullable(),
    }),
  ),
  now: z.string().meta({ description: "The emulator's date (ISO 8601) the orders are seen at." }),
});

export const AccountsAnswer = z.object({
  accounts: z.array(
    z.object({
      name: z.string(),
      holder: z.string(),
      activeOrders: z.number().int(),
      monthlyTotalUsd: z.number().meta({ description: "What R13 bills a month for the active orders." }),
    }),
  ),
});

export const HostsAnswer = z.object({
  hosts: z.array(
    z.object({
      oid: z.string(),
      name: z.string(),
      dc: z.string(),
      memUsableMb: z.number().int().meta({ description: "The host's memory less what it keeps for itself." }),
      memFreeMb: z.number().int(),
      diskTotalGb: z.number(),
      diskFreeGb: z.number(),
      freeIps: z.number().int(),
      vpss: z.number().int().meta({ description: "VPSs on the host (not removed)." }),
      runningVpss: z.number().int(),
    }),
  ),
});

export const RateLimitAnswer = z.object({
  rateLimit: RateLimitSchema.nullable().meta({ description: "null: no limit." }),
});

/** A dashboard file's text (HTML, script, style sheet, icon); its content type is in the table. */
export const DashboardFile = z.string();

export const ResetAnswer = z.object({ reset: z.literal(true) });

export const SnapshotSummary = z.object({
  name: z.string(),
  savedAt: z.string().meta({ description: "When it was saved, ISO 8601." }),
  orders: z.number().int().meta({ description: "How many orders (of every account) it holds." }),
});
export const SnapshotList = z.object({ snapshots: z.array(SnapshotSummary) });
export const SnapshotLoaded = z.object({ loaded: z.string(), orders: z.number().int() });

export const ChaosAnswer = z.object({
  seed: z.number().int(),
  rules: z.array(
    z.object({
      ...ChaosRuleSchema.shape,
      matched: z.number().int().meta({ description: "Requests of its route it has seen." }),
      acted: z.number().int().meta({ description: "Requests it acted on (its probability drew it)." }),
    }),
  ),
});

export const TimeScaleBody = z.strictObject({
  timeScale: z.number().min(OPTION_BOUNDS.timeScale.min).max(OPTION_BOUNDS.timeScale.max),
});
const EmulatorDate = z
  .string()
  .meta({ description: "The emulator's date and time, ISO 8601 (the machine's until moved)." });
export const TimeAnswer = z.object({
  timeScale: z.number(),
  now: EmulatorDate,
  work: z.array(
    z.object({
      orderOid: z.number().int().nullable(),
      remainingMs: z.number().int().meta({ description: "Left at the current time scale." }),
    }),
  ),
});
export const AdvanceBody = z.strictObject({
  orderOid: z.number().int().positive().optional().meta({
    description: "Finish this order's work now; with neither now nor days, and without it, every order's.",
  }),
  now: z.string().optional().meta({
    description:
      "Move the emulator's date to this ISO 8601 date (2027-01-15) or date and time (2027-01-15T09:30:00Z), never back.",
  }),
  days: z
    .number()
    .positive()
    .max(3660)
    .optional()
    .meta({ description: "Move the emulator's date this many days ahead (0.5 is twelve hours)." }),
});
export const AdvanceAnswer = z.object({
  finished: z.number().int().meta({ description: "Waits of work in progress it ended." }),
  now: EmulatorDate,
  ordersEnded: z.array(z.number().int()).meta({
    description: "Orders whose scheduled cancellation date the move passed: shut down and removed now.",
  }),
});

export const OpenApiAnswer = z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) });

/** The error answer: the RimuHosting error envelope every failure of the emulator is sent in. */
export const ErrorEnvelope = z.looseObject({
  jaxrs_response: z.looseObject({
    status_code: z.number().int(),
    error_info: z.looseObject({
      error_title: z.string().meta({ description: "The emulator's error code, e.g. EMU_ERR_VALIDATION." }),
      field_name: z.string().nullable(),
      human_readable_message: z.string(),
    }),
  }),
});
