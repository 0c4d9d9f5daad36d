/**
 * The route table: every resource R1–R17 of docs/rimuhosting-api.md §2 with its method, path, auth,
 * request wrapper and response root key. Client and emulator both read it.
 *
 * Paths are relative to the base URL, which ends in `/r`. `{order}` stands for the
 * `order-{oid}-{domain}` segment.
 */
import type * as z from "zod";
import * as res from "./responses.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface Endpoint<S extends z.ZodType = z.ZodType> {
  /** Reference id (R1…R17). */
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Whether the Authorization header is required (§1 "Unauthenticated resources"). */
  readonly auth: boolean;
  /** Single key of the JSON response object (§4.1). */
  readonly rootKey: string;
  readonly response: S;
  /** Wrapper key our client puts around the body (§4.2); the server accepts any single key. */
  readonly requestWrapper?: string;
  /**
   * Whether a call changes anything at RimuHosting (orders, a VPS, DNS). Said here, not inferred from the method:
   * the price quote R16 is a PUT that changes nothing. The client checks that its engine is alive before each
   * call that mutates (provider/impl/engine/engine-watch.ts), and tests count these calls as changes.
   */
  readonly mutates: boolean;
}

const endpoint = <S extends z.ZodType>(e: Endpoint<S>): Endpoint<S> => e;

export const ENDPOINTS = {
  listOrders: endpoint({
    id: "R1",
    mutates: false,
    method: "GET",
    path: "/orders",
    auth: true,
    rootKey: "get_orders_response",
    response: res.GetOrdersResponse,
  }),
  getOrder: endpoint({
    id: "R2",
    mutates: false,
    method: "GET",
    path: "/orders/{order}",
    auth: true,
    rootKey: "get_order_response",
    response: res.GetOrderResponse,
  }),
  cancelOrder: endpoint({
    id: "R3",
    mutates: true,
    method: "PUT",
    path: "/orders/{order}/cancelled",
    auth: true,
    rootKey: "put_cancelled_response",
    response: res.PutCancelledResponse,
  }),
  createVps: endpoint({
    id: "R4",
    mutates: true,
    method: "POST",
    path: "/orders/new-vps",
    auth: true,
    rootKey: "post_new_vps_response",
    response: res.PostNewVpsResponse,
    requestWrapper: "new_order_request",
  }),
  getVpsStatus: endpoint({
    id: "R5",
    mutates: false,
    method: "GET",
    path: "/orders/{order}/vps",
    auth: true,
    rootKey: "get_vps_status_response",
    response: res.GetVpsStatusResponse,
  }),
  deleteVps: endpoint({
    id: "R6",
    mutates: true,
    method: "DELETE",
    path: "/orders/{order}/vps",
    auth: true,
    rootKey: "delete_server_response",
    response: res.DeleteServerResponse,
  }),
  getDataTransferUsage: endpoint({
    id: "R7",
    mutates: false,
    method: "GET",
    path: "/orders/{order}/vps/data-transfer-usage",
    auth: true,
    rootKey: "get_data_transfer_usage_and_other_vps_status_information",
    response: res.GetDataTransferUsageResponse,
  }),
  moveVps: endpoint({
    id: "R8",
    mutates: true,
    method: "PUT",
    path: "/orders/{order}/vps/host-server",
    auth: true,
    rootKey: "put_host_server_move_response",
    response: res.PutHostServerMoveResponse,
    requestWrapper: "vps_move_request",
  }),
  changeParameters: endpoint({
    id: "R9",
    mutates: true,
    method: "PUT",
    path: "/orders/{order}/vps/parameters",
    auth: true,
    rootKey: "put_running_vps_data_response",
    response: res.PutRunningVpsDataResponse,
    requestWrapper: "running_vps_data",
  }),
  reinstallVps: endpoint({
    id: "R10",
    mutates: true,
    method: "PUT",
    path: "/orders/{order}/vps/reinstall",
    auth: true,
    rootKey: "post_new_vps_response",
    response: res.PostNewVpsResponse,
    requestWrapper: "new_order_request",
  }),
  setRunningState: endpoint({
    id: "R11",
    mutates: true,
    method: "PUT",
    path: "/orders/{order}/vps/running-state",
    auth: true,
    rootKey: "put_running_state_response",
    response: res.PutRunningStateResponse,
    requestWrapper: "running_state_change_request",
  }),
  setReverseDns: endpoint({
    id: "R12",
    mutates: true,
    method: "PUT",
    path: "/orders/{order}/ptr",
    auth: true,
    rootKey: "jaxrs_response",
    response: res.ErrorResponse,
  }),
  listBillingMethods: endpoint({
    id: "R13",
    mutates: false,
    method: "GET",
    path: "/billing-methods",
    auth: true,
    rootKey: "get_billing_methods_response",
    response: res.GetBillingMethodsResponse,
  }),
  listDistributions: endpoint({
    id: "R14",
    mutates: false,
    method: "GET",
    path: "/distributions",
    auth: false,
    rootKey: "get_distros_response",
    response: res.GetDistrosResponse,
  }),
  listPricingPlans: endpoint({
    id: "R15",
    mutates: false,
    method: "GET",
    path: "/pricing-plans",
    auth: false,
    rootKey: "get_pricing_plans_response",
    response: res.GetPricingPlansResponse,
  }),
  quoteNewVm: endpoint({
    id: "R16",
    mutates: false,
    method: "PUT",
    path: "/pricing-plans/new-vm-pricing",
    auth: false,
    rootKey: "get_new_vm_pricing_response",
    response: res.GetNewVmPricingResponse,
    requestWrapper: "new_order_request",
  }),
  listDataCenters: endpoint({
    id: "R17",
    mutates: false,
    method: "GET",
    path: "/data-centers",
    auth: false,
    rootKey: "get_data_centers_response",
    response: res.GetDataCentersResponse,
  }),
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

/** Root key of error responses (§4.3). */
export const ERROR_ROOT_KEY = "jaxrs_response";

/** `error_class` values for authentication failures (§4.3). */
export const AUTH_ERROR_CLASSES = ["PermissionException", "LoginRequired"] as const;

/** The auth header scheme (§1): `Authorization: rimuhosting apikey=<KEY>`. */
export const AUTH_SCHEME = "rimuhosting";
export function authorizationHeader(apiKey: string): string {
  return `${AUTH_SCHEME} apikey=${apiKey}`;
}
/** Extracts the key from an Authorization header, or undefined if it is not of our scheme. */
export function parseAuthorizationHeader(header: string | undefined): string | undefined {
  const match = /^rimuhosting\s+apikey=(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}
