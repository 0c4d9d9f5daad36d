/**
 * THE table of the control API (/__emulator/*, on with `control`): each route's method, path, summary, body and
 * answer. Routes are registered from it (controlRoute) and the OpenAPI description is written from it (openapi.ts),
 * so the two cannot disagree; test/emulator/openapi.test.ts fails on a route registered some other way.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type * as z from "zod";
import { ChaosSettingsSchema } from "../chaos/rule.js";
import { FaultSpecSchema } from "../options.js";
import { RateLimitUpdateSchema } from "../rate-limit.js";
import { EmulatorState } from "../state/schema.js";
import {
  AccountsAnswer,
  AdvanceAnswer,
  AdvanceBody,
  ArmedFaults,
  ChaosAnswer,
  DashboardFile,
  HostsAnswer,
  OpenApiAnswer,
  OrdersAnswer,
  RateLimitAnswer,
  RequestLogAnswer,
  RequestsQuery,
  ResetAnswer,
  SnapshotList,
  SnapshotLoaded,
  SnapshotSummary,
  TimeAnswer,
  TimeScaleBody,
} from "./schemas.js";

export interface ControlRouteSpec {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Under /__emulator, in OpenAPI's form: `{name}` is a path parameter. */
  path: string;
  summary: string;
  /** Its query parameters, if any: each field of the object is one. */
  query?: z.ZodObject;
  /** The JSON body it takes, if any. */
  body?: z.ZodType;
  /** The body of its 200 answer: JSON, unless `contentType` says otherwise. */
  answer: z.ZodType;
  /** The 200 answer's Content-Type when it is not JSON (the dashboard's files); `answer` is then its text. */
  contentType?: string;
  /** Its other answers (in the error envelope), by status, with what causes each. */
  errors?: Record<number, string>;
}

const NAMED = "The snapshot name: 1 to 64 letters, digits, '.', '_' or '-'.";

export const CONTROL_ROUTES = {
  armFault: {
    method: "POST",
    path: "/faults",
    summary: "Arm a one-shot fault (docs/emulator.md#fault-injection).",
    body: FaultSpecSchema,
    answer: ArmedFaults,
    errors: { 400: "A bad fault spec; field_name names the field." },
  },
  listFaults: { method: "GET", path: "/faults", summary: "The faults still armed.", answer: ArmedFaults },
  listRequests: {
    method: "GET",
    path: "/requests",
    summary: "Every request that reached a route (or the last N), in the order they ended.",
    query: RequestsQuery,
    answer: RequestLogAnswer,
    errors: { 400: "A `last` that is not a whole number, 1 or more." },
  },
  listOrders: {
    method: "GET",
    path: "/snapshot",
    summary: "Every order of every account, for assertions on the final state.",
    answer: OrdersAnswer,
  },
  listAccounts: {
    method: "GET",
    path: "/accounts",
    summary: "Each demo account with its active orders and what they are billed a month.",
    answer: AccountsAnswer,
  },
  listHosts: {
    method: "GET",
    path: "/hosts",
    summary: "Each host server's room: memory, disk, IPs and VPSs.",
    answer: HostsAnswer,
  },
  getRateLimit: {
    method: "GET",
    path: "/rate-limit",
    summary: "The rate limit in force.",
    answer: RateLimitAnswer,
  },
  setRateLimit: {
    method: "PUT",
    path: "/rate-limit",
    summary: "Set the rate limit per API key (every key starts a new window), or end it with requests: null.",
    body: RateLimitUpdateSchema,
    answer: RateLimitAnswer,
    errors: { 400: "A bad limit; field_name names the field." },
  },
  reset: {
    method: "POST",
    path: "/reset",
    summary:
      "A fresh state, an empty request log, no faults, the chaos rules the emulator started with; the rate limit stays, every key's window new.",
    answer: ResetAnswer,
  },
  listSnapshots: { method: "GET", path: "/snapshots", summary: "The saved snapshots.", answer: SnapshotList },
  saveSnapshot: {
    method: "POST",
    path: "/snapshots/{name}",
    summary: "Save the whole state under a name (replacing a snapshot of that name).",
    answer: SnapshotSummary,
    errors: { 400: NAMED },
  },
  getSnapshot: {
    method: "GET",
    path: "/snapshots/{name}",
    summary: "A saved snapshot: the state file's JSON, the file --load-snapshot starts from.",
    answer: EmulatorState,
    errors: { 404: "No snapshot of that name." },
  },
  putSnapshot: {
    method: "PUT",
    path: "/snapshots/{name}",
    summary: "Keep a state (a downloaded snapshot, a state file) under a name, to load it later.",
    body: EmulatorState,
    answer: SnapshotSummary,
    errors: { 400: `${NAMED} Or a body that is not a state of this emulator's version.` },
  },
  loadSnapshot: {
    method: "POST",
    path: "/snapshots/{name}/load",
    summary:
      "Replace the whole state with a saved snapshot's (the request log, faults and chaos rules stay).",
    answer: SnapshotLoaded,
    errors: { 404: "No snapshot of that name." },
  },
  getChaos: {
    method: "GET",
    path: "/chaos",
    summary: "The chaos rules and their seed.",
    answer: ChaosAnswer,
  },
  setChaos: {
    method: "PUT",
    path: "/chaos",
    summary:
      "Replace every chaos rule; their draws start again from the seed (the current one when none is given).",
    body: ChaosSettingsSchema,
    answer: ChaosAnswer,
    errors: { 400: "A bad rule; field_name names it (rules.<index>.<field>)." },
  },
  getTime: {
    method: "GET",
    path: "/time",
    summary: "The emulator's date, the time scale, and the work waiting on the clock (by order).",
    answer: TimeAnswer,
  },
  setTime: {
    method: "PUT",
    path: "/time",
    summary: "Set the time scale, for work already waiting too.",
    body: TimeScaleBody,
    answer: TimeAnswer,
    errors: { 400: "A time scale out of bounds, or an emulator on a clock given in code." },
  },
  advanceTime: {
    method: "POST",
    path: "/time/advance",
    summary:
      "Move the emulator's date (to a date, or by days), ending the work in progress and the cancellations it passes; or finish an order's work now (a create answers at once, RUNNING), or every order's.",
    body: AdvanceBody,
    answer: AdvanceAnswer,
    errors: {
      400: "A date that is not ISO 8601 or is earlier than the emulator's, orderOid with a move, or an emulator on a clock given in code.",
      404: "No order of that id.",
    },
  },
  openApi: {
    method: "GET",
    path: "/openapi.json",
    summary: "This description of the control API (OpenAPI 3.1).",
    answer: OpenApiAnswer,
  },
  dashboard: {
    method: "GET",
    path: "/",
    summary:
      "The dashboard: accounts, orders, faults, chaos rules, hosts and requests, refreshed every second.",
    answer: DashboardFile,
    contentType: "text/html; charset=utf-8",
  },
  dashboardScript: {
    method: "GET",
    path: "/dashboard.js",
    summary: "The dashboard's script.",
    answer: DashboardFile,
    contentType: "text/javascript; charset=utf-8",
  },
  dashboardStyle: {
    method: "GET",
    path: "/dashboard.css",
    summary: "The dashboard's style sheet.",
    answer: DashboardFile,
    contentType: "text/css; charset=utf-8",
  },
  dashboardIcon: {
    method: "GET",
    path: "/favicon.svg",
    summary: "The dashboard's icon.",
    answer: DashboardFile,
    contentType: "image/svg+xml",
  },
} as const satisfies Record<string, ControlRouteSpec>;

export type ControlRouteId = keyof typeof CONTROL_ROUTES;

/**
 * Registers the control route `id` from the table; the handler's answer must be of the table's `answer` type. A
 * non-JSON answer is sent with the table's `contentType`.
 */
export function controlRoute<K extends ControlRouteId>(
  app: FastifyInstance,
  id: K,
  handler: (
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<z.input<(typeof CONTROL_ROUTES)[K]["answer"]>>,
): void {
  const spec: ControlRouteSpec = CONTROL_ROUTES[id];
  app.route({
    method: spec.method,
    url: spec.path.replace(/\{(\w+)\}/g, ":$1"),
    config: { control: true },
    handler: spec.contentType
      ? async (request, reply) => {
          const body = await handler(request, reply);
          return reply.header("content-type", spec.contentType).send(body);
        }
      : handler,
  });
}
