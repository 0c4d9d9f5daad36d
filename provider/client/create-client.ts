/**
 * createClient(): one typed method per resource R1–R17. Each method builds its path and body from
 * the contract (ENDPOINTS, request schemas, orderSlug, formatMatrix), sends it through the
 * transport with the endpoint's RETRY_POLICY, and returns the record unwrapped from its root key.
 */
import * as z from "zod";
import {
  ENDPOINTS,
  NewVpsRequest,
  RunningState,
  RunningVpsDataRequest,
  VpsMoveRequest,
  type DeleteServerResponse,
  type GetBillingMethodsResponse,
  type GetDataCentersResponse,
  type GetDataTransferUsageResponse,
  type GetDistrosResponse,
  type GetNewVmPricingResponse,
  type GetOrderResponse,
  type GetOrdersResponse,
  type GetPricingPlansResponse,
  type GetVpsStatusResponse,
  type JaxrsResponse,
  type NewVpsRequestInput,
  type PostNewVpsResponse,
  type PutCancelledResponse,
  type PutHostServerMoveResponse,
  type PutRunningStateResponse,
  type PutRunningVpsDataResponse,
  type ServerType,
} from "../../contract/index.js";
import { resolveClientConfig, type ClientConfig } from "./config.js";
import { createVpsReconciled, resolveCreationToken, suppliedCreationToken } from "./create-vps.js";
import { RimuValidationError } from "./errors.js";
import { endpointLabel, type OrderRef } from "./request-path.js";
import { RETRY_POLICY, RUNNING_STATE_RETRY } from "./retry-policy.js";
import { createTransport, type Transport } from "./transport.js";
import { parseRequest } from "./validate-request.js";

export interface ListOrdersFilter {
  /** Include cancelled/inactive orders (`include_inactive=Y`). Omitted: the service decides (active only). */
  includeInactive?: boolean;
  serverType?: ServerType;
  orderOids?: number[];
  /** Free-text search, e.g. a domain name. */
  search?: string;
  /** Orders whose meta_data has all these key/value pairs (no whitespace in keys or values). */
  metaSearch?: Record<string, string>;
  dcLocation?: string;
}

export interface CreateVpsOpts {
  /** Idempotency key stored in meta_data (letters, digits, '.', '_', '-'). Default: a random UUID. */
  creationToken?: string;
  /** How long to keep looking the token up after an ambiguous failure. Default 60 s (DEFAULT_CREATE_LOOKUP_GRACE_MS). */
  lookupGraceMs?: number;
  /**
   * The caller has just looked `creationToken` up and found no order carrying it: skip the pre-flight lookup
   * (an ambiguous failure is still followed by lookups). Default false.
   */
  tokenKnownUnused?: boolean;
}

export interface ListPricingPlansFilter {
  serverType?: ServerType;
  dcLocation?: string;
  priceUnder?: number;
}

export interface RimuClient {
  /** R1 GET /orders. */
  listOrders(filter?: ListOrdersFilter): Promise<GetOrdersResponse>;
  /** R2 GET /orders/{order}. */
  getOrder(order: OrderRef): Promise<GetOrderResponse>;
  /** R3 PUT /orders/{order}/cancelled: cancel at the end of the billing period (the VPS keeps running). */
  cancelOrder(order: OrderRef): Promise<PutCancelledResponse>;
  /**
   * R4 POST /orders/new-vps, with a creation token in meta_data (see create-vps.ts). A supplied
   * `creationToken` is an idempotency key: an active order carrying it is returned without POSTing.
   * After an ambiguous failure the token is looked up for up to `lookupGraceMs` and the request is
   * never sent again. A reconciled result has `reconciled: true` and no password echo.
   */
  createVps(request: NewVpsRequestInput, opts?: CreateVpsOpts): Promise<PostNewVpsResponse>;
  /** R5 GET /orders/{order}/vps. */
  getVpsStatus(order: OrderRef): Promise<GetVpsStatusResponse>;
  /** R6 DELETE /orders/{order}/vps: shut down and cancel now. */
  deleteVps(order: OrderRef): Promise<DeleteServerResponse>;
  /** R7 GET /orders/{order}/vps/data-transfer-usage. */
  getDataTransferUsage(order: OrderRef): Promise<GetDataTransferUsageResponse>;
  /** R8 PUT /orders/{order}/vps/host-server. `usedDiskMb` sizes the timeout (movePerGbMs per GB). */
  moveVps(
    order: OrderRef,
    request: z.input<typeof VpsMoveRequest>,
    opts?: { usedDiskMb?: number },
  ): Promise<PutHostServerMoveResponse>;
  /** R9 PUT /orders/{order}/vps/parameters: sizes are totals in MB. */
  changeParameters(
    order: OrderRef,
    params: z.input<typeof RunningVpsDataRequest>,
  ): Promise<PutRunningVpsDataResponse>;
  /** R10 PUT /orders/{order}/vps/reinstall: `null` sizes/dc keep the current values. */
  reinstallVps(order: OrderRef, request: NewVpsRequestInput): Promise<PostNewVpsResponse>;
  /** R11 PUT /orders/{order}/vps/running-state. */
  setRunningState(order: OrderRef, state: RunningState): Promise<PutRunningStateResponse>;
  /** R12 PUT /orders/{order}/ptr;ip=…: `ip` undefined = the VPS's first public IP; empty name clears. */
  setReverseDns(order: OrderRef, ip: string | undefined, domainName: string): Promise<JaxrsResponse>;
  /** R13 GET /billing-methods. */
  listBillingMethods(): Promise<GetBillingMethodsResponse>;
  /** R14 GET /distributions (no key sent). */
  listDistributions(): Promise<GetDistrosResponse>;
  /** R15 GET /pricing-plans (no key sent). */
  listPricingPlans(filter?: ListPricingPlansFilter): Promise<GetPricingPlansResponse>;
  /** R16 PUT /pricing-plans/new-vm-pricing: a price, nothing created (no key sent). */
  quoteNewVm(request: NewVpsRequestInput): Promise<GetNewVmPricingResponse>;
  /** R17 GET /data-centers (no key sent). */
  listDataCenters(): Promise<GetDataCentersResponse>;
  /** Destroys the keep-alive agents; later calls fail with RimuConfigError. */
  close(): void;
}

const label = (name: keyof typeof ENDPOINTS) => endpointLabel(ENDPOINTS[name]);

/** A client over one transport (keep-alive agents, retry loop, log): the methods of each area together. */
export function createClient(config: ClientConfig): RimuClient {
  const transport = createTransport(resolveClientConfig(config));
  const reads = orderReads(transport.call);
  return {
    ...reads,
    createVps: createVpsMethod(transport, reads),
    ...orderChanges(transport.call),
    ...catalogReads(transport.call),
    close: () => transport.close(),
  };
}

type Call = Transport["call"];
type OrderReads = Pick<RimuClient, "listOrders" | "getOrder" | "getVpsStatus" | "getDataTransferUsage">;

/** R1, R2, R5, R7: reading orders. */
function orderReads(call: Call): OrderReads {
  return {
    listOrders: (filter = {}) =>
      call("listOrders", RETRY_POLICY.listOrders, {
        matrix: {
          include_inactive:
            filter.includeInactive === undefined ? undefined : filter.includeInactive ? "Y" : "N",
          server_type: filter.serverType,
          order_oids: filter.orderOids?.join(","),
          search: filter.search,
          meta_search: filter.metaSearch ? formatMetaSearch(filter.metaSearch) : undefined,
          dc_location: filter.dcLocation,
        },
      }),
    getOrder: (order) => call("getOrder", RETRY_POLICY.getOrder, { order }),
    getVpsStatus: (order) => call("getVpsStatus", RETRY_POLICY.getVpsStatus, { order }),
    getDataTransferUsage: (order) =>
      call("getDataTransferUsage", RETRY_POLICY.getDataTransferUsage, { order }),
  };
}

/** R4 with a creation token: the POST, and the look-ups that reconcile an ambiguous one (create-vps.ts). */
function createVpsMethod(transport: Transport, reads: OrderReads): RimuClient["createVps"] {
  return async (request, opts = {}) => {
    const parsed = parseRequest(NewVpsRequest, request, label("createVps"));
    const supplied = suppliedCreationToken(parsed, opts.creationToken);
    const lookupGraceMs = opts.lookupGraceMs;
    assertNonNegative("createVps", "lookupGraceMs", lookupGraceMs, "ms");
    return createVpsReconciled(
      {
        post: (body) =>
          transport.call("createVps", RETRY_POLICY.createVps, { json: wrap("createVps", body) }),
        listOrders: reads.listOrders,
        getOrder: reads.getOrder,
        getVpsStatus: reads.getVpsStatus,
        log: transport.log,
        pause: transport.pause,
        retry: transport.config.retry,
      },
      parsed,
      {
        token: supplied ?? resolveCreationToken(parsed, undefined),
        preflight: supplied !== undefined && opts.tokenKnownUnused !== true,
        lookupGraceMs,
      },
    );
  };
}

/** R3, R6, R8–R12: changing an existing order. Bodies are validated against the contract first. */
function orderChanges(
  call: Call,
): Pick<
  RimuClient,
  | "cancelOrder"
  | "deleteVps"
  | "moveVps"
  | "changeParameters"
  | "reinstallVps"
  | "setRunningState"
  | "setReverseDns"
> {
  return {
    cancelOrder: (order) => call("cancelOrder", RETRY_POLICY.cancelOrder, { order }),

    deleteVps: (order) => call("deleteVps", RETRY_POLICY.deleteVps, { order }),

    async moveVps(order, request, opts = {}) {
      const body = parseRequest(VpsMoveRequest, request, label("moveVps"));
      assertNonNegative("moveVps", "usedDiskMb", opts.usedDiskMb, "MB");
      return call("moveVps", RETRY_POLICY.moveVps, {
        order,
        json: wrap("moveVps", body),
        usedDiskMb: opts.usedDiskMb,
      });
    },

    async changeParameters(order, params) {
      const body = parseRequest(RunningVpsDataRequest, params, label("changeParameters"));
      return call("changeParameters", RETRY_POLICY.changeParameters, {
        order,
        json: wrap("changeParameters", body),
      });
    },

    async reinstallVps(order, request) {
      const body = parseRequest(NewVpsRequest, request, label("reinstallVps"));
      return call("reinstallVps", RETRY_POLICY.reinstallVps, { order, json: wrap("reinstallVps", body) });
    },

    async setRunningState(order, state) {
      const runningState = parseRequest(RunningState, state, label("setRunningState"));
      return call("setRunningState", RETRY_POLICY.setRunningState, {
        order,
        json: wrap("setRunningState", { running_state: runningState }),
        retry: RUNNING_STATE_RETRY[runningState],
      });
    },

    async setReverseDns(order, ip, domainName) {
      if (typeof domainName !== "string") {
        throw new RimuValidationError(
          `${label("setReverseDns")}: domainName must be a string ("" clears the PTR)`,
          { fieldName: "domain_name", endpoint: label("setReverseDns") },
        );
      }
      return call("setReverseDns", RETRY_POLICY.setReverseDns, {
        order,
        matrix: { ip: ip || undefined },
        form: { domain_name: domainName },
      });
    },
  };
}

/** R13–R17: billing methods and the catalogue (R14–R17 need no key). */
function catalogReads(
  call: Call,
): Pick<
  RimuClient,
  "listBillingMethods" | "listDistributions" | "listPricingPlans" | "quoteNewVm" | "listDataCenters"
> {
  return {
    listBillingMethods: () => call("listBillingMethods", RETRY_POLICY.listBillingMethods),
    listDistributions: () => call("listDistributions", RETRY_POLICY.listDistributions),
    listPricingPlans: (filter = {}) =>
      call("listPricingPlans", RETRY_POLICY.listPricingPlans, {
        matrix: {
          "server-type": filter.serverType,
          "dc-location": filter.dcLocation,
          price_under: filter.priceUnder,
        },
      }),
    async quoteNewVm(request) {
      const body = parseRequest(NewVpsRequest, request, label("quoteNewVm"));
      return call("quoteNewVm", RETRY_POLICY.quoteNewVm, { json: wrap("quoteNewVm", body) });
    },
    listDataCenters: () => call("listDataCenters", RETRY_POLICY.listDataCenters),
  };
}

/** Refuses an option that must be a non-negative number (a NaN or negative limit would never end or fail). */
function assertNonNegative(
  name: "createVps" | "moveVps",
  field: string,
  value: number | undefined,
  unit: string,
): void {
  if (value === undefined || (Number.isFinite(value) && value >= 0)) return;
  throw new RimuValidationError(`${label(name)}: ${field} must be a non-negative number of ${unit}`, {
    fieldName: field,
    endpoint: label(name),
  });
}

/** `{ <requestWrapper>: body }` (docs/rimuhosting-api.md §4.2), with the wrapper name from the route table. */
function wrap(name: keyof typeof ENDPOINTS, body: unknown): Record<string, unknown> {
  const wrapper = (ENDPOINTS[name] as { requestWrapper?: string }).requestWrapper;
  return wrapper ? { [wrapper]: body } : (body as Record<string, unknown>);
}

/** `key:value key:value` (R1 meta_search). Whitespace would split a pair, so it is refused. */
function formatMetaSearch(pairs: Record<string, string>): string {
  const entries = Object.entries(pairs);
  for (const [key, value] of entries) {
    if (!key || /\s/.test(key) || typeof value !== "string" || /\s/.test(value)) {
      throw new RimuValidationError(
        `${label("listOrders")}: metaSearch keys must be non-empty, and keys and values must be strings without whitespace`,
        { fieldName: "metaSearch", endpoint: label("listOrders") },
      );
    }
  }
  return entries.map(([key, value]) => `${key}:${value}`).join(" ");
}
