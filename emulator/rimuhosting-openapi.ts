/**
 * The OpenAPI 3.1 description of the emulated RimuHosting API (GET /r/openapi.json), written from the contract's
 * route table (ENDPOINTS), the response schemas the emulator checks its answers with and the request schemas its
 * routes validate with (routes/request-bodies.ts). Each place the emulator guesses what the real service does
 * carries an `x-emulator-guess` with the reason (docs/emulator.md#where-the-emulator-guesses says the same in prose).
 */
import type * as z from "zod";
import {
  ENDPOINTS,
  ERROR_ROOT_KEY,
  type Endpoint,
  type EndpointName,
  ErrorResponse,
} from "../contract/index.js";
import { schemaOf } from "./control/openapi.js";
import { REQUEST_BODIES } from "./routes/request-bodies.js";

/** Where the document is served, under the API's base path. */
export const RIMUHOSTING_OPENAPI_PATH = "/openapi.json";

const STATUS_GUESS =
  "RimuHosting documents no HTTP status for its errors but the 403 of a bad API key; this status is the emulator's choice.";

/** The matrix parameters (`;name=value` after a path segment) each route reads, with what each does. */
const MATRIX_PARAMETERS: Partial<Record<EndpointName, Record<string, string>>> = {
  listOrders: {
    include_inactive: "Y to list cancelled orders too; N (the default) active ones only.",
    server_type: "VPS or PHYSICAL (also server-type).",
    order_oids: "Comma-separated order ids (also order_oid).",
    search: "Matches the domain, order id, IP addresses or description.",
    meta_search: "key:value pairs separated by spaces; all must match.",
    dc_location: "A data centre code, any case (also dc-location).",
  },
  setReverseDns: { ip: "The address whose name is set; without it, the primary IP." },
  listPricingPlans: {
    server_type: "VPS or PHYSICAL (also server-type).",
    dc_location: "A data centre code (also dc-location).",
    price_under: "Plans under this monthly price in USD (0: no bound).",
    price_over: "Plans over this monthly price in USD (0: no bound).",
  },
};

/** What the emulator guesses, by route: about the operation, and about some of its answers (by status). */
const GUESSES: Partial<Record<EndpointName, { operation?: string; responses?: Record<string, string> }>> = {
  listOrders: {
    operation:
      "The default of include_inactive (N), and the values RimuHosting's own tools send outside the documented set (None, True/False, ALL as a server_type), are inferred.",
    responses: {
      "200": "The fields of order_filter are unknown; the emulator echoes the matrix parameters' names.",
    },
  },
  cancelOrder: {
    operation:
      "The billing period is modelled as 30 days from the order date; RimuHosting does not publish its length.",
    responses: {
      "200":
        "The answer of /cancelled is undocumented: the emulator answers put_cancelled_response with about_order.",
    },
  },
  createVps: {
    operation:
      "Defaults (plan, distribution, data centre), minimum sizes (128 MB memory, 1024 MB disk), at most 4 IPs per VPS and the price formula are inferred.",
  },
  getVpsStatus: {
    responses: {
      "200":
        "host_disk_gb_free is inferred: RimuHosting says host information includes free disk but names no field.",
      "404":
        "The status of a cancelled order's VPS (404) is inferred from clients that treat an error as 'destroyed'.",
    },
  },
  deleteVps: {
    responses: {
      "200":
        "The credit is the monthly fee times the unused part of the 30-day period, to the cent; RimuHosting says only that unused time is credited.",
      "409":
        "A DELETE of an already cancelled order is undocumented; the emulator answers 409 EMU_ERR_ORDER_CANCELLED.",
    },
  },
  getDataTransferUsage: {
    responses: {
      "200":
        "The fields of data_transfer_usage_info are unknown; the emulator's own are allowance_gb, current_month_start, current_month_used_mb, previous_month_start, previous_month_used_mb and disk_used_mb.",
      "404": "The status of a cancelled order's VPS (404) is inferred.",
    },
  },
  changeParameters: {
    operation: "A resize of a stopped VPS leaves it stopped (inferred).",
  },
  moveVps: { operation: "A move of a stopped VPS leaves it stopped (inferred)." },
  listPricingPlans: {
    responses: {
      "200": "The fields of plan_filter are unknown; the price formula is not public (inferred).",
    },
  },
  quoteNewVm: {
    operation:
      "The quote judges the request as a create would (plan, sizes, IPs, distribution, host room), reserving nothing, and the GET form with matrix parameters (memory_mb, disk_space_mb, dc_location, pricing_plan_code) is inferred.",
  },
};

/** The order segment `order-<order_oid>-<anything>`: only the number is read. */
const ORDER_PARAMETER = {
  name: "order",
  in: "path",
  required: true,
  description: "order-<order_oid>-<domain>: only the number is read (the domain part may be anything).",
  schema: { type: "string", pattern: "^order-\\d+(-.*)?$" },
};

const envelope = (rootKey: string, schema: z.ZodType) => ({
  "application/json": {
    schema: { type: "object", properties: { [rootKey]: schemaOf(schema, "output") }, required: [rootKey] },
  },
});

/** The error answers a route can give, by status, with what causes each. */
function errorStatuses(spec: Endpoint, name: EndpointName): Record<string, string> {
  const errors: Record<string, string> = {
    "400":
      "A bad request: field_name names the field (a value out of range, an unknown plan, distro or data centre).",
  };
  if (spec.auth)
    errors["403"] = "No API key (LoginRequired), or one that is not valid (PermissionException).";
  if (spec.path.includes("{order}")) errors["404"] = "No such order of this account (or its VPS is removed).";
  if (spec.mutates && name !== "setReverseDns")
    errors["409"] =
      "The change cannot be made now: the host has no room, the disk would shrink, the order is cancelled.";
  errors["429"] = "Over the rate limit (when one is set): retry after the Retry-After header's seconds.";
  errors["503"] = "A fault or chaos rule of the emulator (docs/emulator.md#fault-injection).";
  return errors;
}

function requestBody(name: EndpointName, spec: Endpoint): Record<string, unknown> | undefined {
  const body = (REQUEST_BODIES as Partial<Record<EndpointName, z.ZodType>>)[name];
  if (!body) return undefined;
  const record = schemaOf(body, "input");
  const wrapper = spec.requestWrapper;
  const json = wrapper
    ? {
        description: `The record, bare or wrapped in one key (${wrapper} by convention; the emulator accepts any key).`,
        anyOf: [record, { type: "object", properties: { [wrapper]: record }, required: [wrapper] }],
      }
    : record;
  return {
    required: name !== "setReverseDns" && !body.safeParse({}).success,
    content: {
      "application/json": { schema: json },
      ...(name === "setReverseDns" ? { "application/x-www-form-urlencoded": { schema: record } } : {}),
    },
  };
}

function operation(name: EndpointName, spec: Endpoint, method = spec.method): Record<string, unknown> {
  const guess = GUESSES[name];
  const matrix = MATRIX_PARAMETERS[name];
  const errors = Object.entries(errorStatuses(spec, name)).map(([status, description]) => [
    status,
    {
      description,
      content: envelope(ERROR_ROOT_KEY, ErrorResponse),
      ...(guess?.responses?.[status] || status !== "403"
        ? { "x-emulator-guess": guess?.responses?.[status] ?? STATUS_GUESS }
        : {}),
    },
  ]);
  const body = method === spec.method ? requestBody(name, spec) : undefined;
  return {
    operationId: method === spec.method ? name : `${name}Get`,
    summary: `${spec.id} ${name}`,
    description:
      method === spec.method
        ? `RimuHosting's ${spec.id} (docs/rimuhosting-api.md#${spec.id.toLowerCase()}).`
        : `${spec.id} as a GET: the request's sizes as matrix parameters (memory_mb, disk_space_mb, dc_location, pricing_plan_code).`,
    tags: [spec.path.startsWith("/orders") ? "orders" : "catalog"],
    ...(spec.auth ? {} : { security: [] }),
    ...(spec.path.includes("{order}") ? { parameters: [ORDER_PARAMETER] } : {}),
    ...(matrix ? { "x-matrix-parameters": matrix } : {}),
    ...(body ? { requestBody: body } : {}),
    ...(guess?.operation ? { "x-emulator-guess": guess.operation } : {}),
    responses: {
      "200": {
        description: "OK",
        content: envelope(spec.rootKey, spec.response),
        ...(guess?.responses?.["200"] ? { "x-emulator-guess": guess.responses["200"] } : {}),
      },
      ...Object.fromEntries(errors),
    },
  };
}

export function rimuhostingApiDescription(): {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
} {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, method: string, op: Record<string, unknown>) => {
    paths[path] = { ...paths[path], [method.toLowerCase()]: op };
  };
  for (const [name, spec] of Object.entries(ENDPOINTS) as [EndpointName, Endpoint][]) {
    add(spec.path, spec.method, operation(name, spec));
  }
  // R16's GET form of the PUT quote (routes/catalog.ts).
  add(ENDPOINTS.quoteNewVm.path, "GET", operation("quoteNewVm", ENDPOINTS.quoteNewVm, "GET"));
  return {
    openapi: "3.1.0",
    info: {
      title: "RimuHosting API (as the emulator serves it)",
      version: "1",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
      description:
        "The RimuHosting REST API routes the pulumi-rimuhosting emulator serves, with the records it answers. Answers are JSON under one root key; errors come under jaxrs_response. Filters are matrix parameters (;name=value after the path segment; x-matrix-parameters lists them). Where RimuHosting documents nothing and the emulator guesses, x-emulator-guess says so.",
    },
    servers: [{ url: "/r", description: "The emulator serving this document (its API under /r)." }],
    security: [{ apiKey: [] }],
    tags: [
      { name: "orders", description: "Orders and their VPSs (R1–R12)." },
      {
        name: "catalog",
        description: "Billing methods, distributions, plans, prices and data centres (R13–R17).",
      },
    ],
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description:
            "Authorization: rimuhosting apikey=<KEY> (the emulator's demo keys: docs/emulator.md).",
        },
      },
    },
    paths,
  };
}
