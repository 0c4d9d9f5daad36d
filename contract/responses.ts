/**
 * Response records (docs/rimuhosting-api.md §3.26): each is the envelope plus its own fields, and each
 * travels under exactly one root key (§4.1), recorded as its endpoint's `rootKey` in ENDPOINTS (endpoints.ts).
 */
import * as z from "zod";
import { Amount, Envelope } from "./common.js";
import {
  AboutOrder,
  BillingMethodData,
  DataLocationInfo,
  DataTransferUsageInfo,
  DistroInfo,
  FilterEcho,
  HostServerInfo,
  PricingPlanInfo,
  ResourceChangeResult,
  RunningVpsInfo,
} from "./records.js";
import {
  NewVpsRequest,
  RunningStateChangeRequest,
  RunningVpsDataRequest,
  VpsMoveRequest,
} from "./requests.js";

const envelope = Envelope.shape;

export const GetOrdersResponse = z.looseObject({
  ...envelope,
  about_orders: z.array(AboutOrder).nullish(),
  order_filter: FilterEcho.nullish(),
});
export type GetOrdersResponse = z.infer<typeof GetOrdersResponse>;

export const GetOrderResponse = z.looseObject({ ...envelope, about_order: AboutOrder });
export type GetOrderResponse = z.infer<typeof GetOrderResponse>;

/** R3 (PUT cancelled): record undocumented; we answer with the order as it now stands. */
export const PutCancelledResponse = z.looseObject({ ...envelope, about_order: AboutOrder.nullish() });
export type PutCancelledResponse = z.infer<typeof PutCancelledResponse>;

export const PostNewVpsResponse = z.looseObject({
  ...envelope,
  about_order: AboutOrder,
  new_order_request: NewVpsRequest.nullish(),
  running_vps_info: RunningVpsInfo.nullish(),
  setup_messages: z.array(z.string()).nullish(),
});
export type PostNewVpsResponse = z.infer<typeof PostNewVpsResponse>;

export const GetVpsStatusResponse = z.looseObject({
  ...envelope,
  running_vps_info: RunningVpsInfo,
  host_server_info: HostServerInfo.nullish(),
  about_order: AboutOrder.nullish(),
});
export type GetVpsStatusResponse = z.infer<typeof GetVpsStatusResponse>;

export const DeleteServerResponse = z.looseObject({
  ...envelope,
  cancel_messages: z.array(z.string()).nullish(),
  about_order: AboutOrder.nullish(),
});
export type DeleteServerResponse = z.infer<typeof DeleteServerResponse>;

export const GetDataTransferUsageResponse = z.looseObject({
  ...envelope,
  data_transfer_usage_info: DataTransferUsageInfo.nullish(),
  running_vps_info: RunningVpsInfo.nullish(),
  host_server_info: HostServerInfo.nullish(),
});
export type GetDataTransferUsageResponse = z.infer<typeof GetDataTransferUsageResponse>;

export const PutHostServerMoveResponse = z.looseObject({
  ...envelope,
  about_order: AboutOrder,
  move_messages: z.array(z.string()).nullish(),
  move_request: VpsMoveRequest.nullish(),
  vps_move_request: VpsMoveRequest.nullish(),
  running_vps_info: RunningVpsInfo.nullish(),
});
export type PutHostServerMoveResponse = z.infer<typeof PutHostServerMoveResponse>;

export const PutRunningVpsDataResponse = z.looseObject({
  ...envelope,
  about_order: AboutOrder,
  resource_change_request: RunningVpsDataRequest.nullish(),
  resource_change_result: ResourceChangeResult,
});
export type PutRunningVpsDataResponse = z.infer<typeof PutRunningVpsDataResponse>;

export const PutRunningStateResponse = z.looseObject({
  ...envelope,
  running_vps_info: RunningVpsInfo,
  host_server_info: HostServerInfo.nullish(),
  is_restarted: z.boolean().nullish(),
  is_pinging: z.boolean().nullish(),
  running_state_messages: z.array(z.string()).nullish(),
  about_order: AboutOrder.nullish(),
  request: RunningStateChangeRequest.nullish(),
});
export type PutRunningStateResponse = z.infer<typeof PutRunningStateResponse>;

export const GetBillingMethodsResponse = z.looseObject({
  ...envelope,
  billing_methods: z.array(BillingMethodData).nullish(),
});
export type GetBillingMethodsResponse = z.infer<typeof GetBillingMethodsResponse>;

export const GetDistrosResponse = z.looseObject({ ...envelope, distro_infos: z.array(DistroInfo).nullish() });
export type GetDistrosResponse = z.infer<typeof GetDistrosResponse>;

export const GetPricingPlansResponse = z.looseObject({
  ...envelope,
  plan_filter: FilterEcho.nullish(),
  pricing_plan_infos: z.array(PricingPlanInfo).nullish(),
});
export type GetPricingPlansResponse = z.infer<typeof GetPricingPlansResponse>;

export const GetNewVmPricingResponse = z.looseObject({
  ...envelope,
  monthly_recurring_amt: Amount.nullish(),
});
export type GetNewVmPricingResponse = z.infer<typeof GetNewVmPricingResponse>;

export const GetDataCentersResponse = z.looseObject({
  ...envelope,
  data_center_infos: z.array(DataLocationInfo).nullish(),
});
export type GetDataCentersResponse = z.infer<typeof GetDataCentersResponse>;

export const ErrorResponse = Envelope;
export type ErrorResponse = z.infer<typeof ErrorResponse>;
