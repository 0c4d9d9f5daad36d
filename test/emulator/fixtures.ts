/** Shared steps for the emulator tests: create a VPS, read records out of their root keys. */
import type {
  AboutOrder,
  Envelope,
  PostNewVpsResponse,
  PutRunningStateResponse,
  RunningState,
} from "../../contract/index.js";
import type { TestEmulator } from "../helpers/start-emulator.js";

export type Json = Record<string, unknown>;

/** The record under the single root key; fails when there is not exactly one. */
export function record<T = Json>(body: unknown): T {
  const keys = Object.keys(body as Json);
  if (keys.length !== 1) throw new Error(`expected exactly one root key, got ${JSON.stringify(keys)}`);
  return (body as Json)[keys[0]!] as T;
}

export function rootKey(body: unknown): string {
  return Object.keys(body as Json)[0]!;
}

export async function createVps(
  emu: TestEmulator,
  request: Json = {},
  options: { apiKey?: string; domain?: string } = {},
): Promise<PostNewVpsResponse> {
  const res = await emu.api(
    "POST",
    "/orders/new-vps",
    {
      new_order_request: {
        instantiation_options: { domain_name: options.domain ?? "web1.example.com", distro: "deb12.64" },
        ...request,
      },
    },
    { apiKey: options.apiKey },
  );
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
  return record<PostNewVpsResponse>(res.body);
}

export function orderPath(order: Pick<AboutOrder, "order_oid">, suffix = ""): string {
  return `/orders/order-${order.order_oid}-x${suffix}`;
}

export async function getOrder(emu: TestEmulator, oid: number, apiKey?: string): Promise<AboutOrder> {
  const res = await emu.api("GET", `/orders/order-${oid}-x`, undefined, { apiKey });
  if (res.status !== 200) throw new Error(`get order failed: ${res.status} ${res.text}`);
  return record<{ about_order: AboutOrder }>(res.body).about_order;
}

export interface ErrorShape {
  status: number;
  errorClass: string | null | undefined;
  fieldName: string | null | undefined;
  code: string | null | undefined;
}

/** Checks the docs/rimuhosting-api.md 4.3 error envelope and returns what tests usually assert on. */
export function errorOf(res: { status: number; body: unknown }): ErrorShape {
  expect(rootKey(res.body)).toBe("jaxrs_response");
  const env = record<Envelope>(res.body);
  expect(env.response_type).toBe("ERROR");
  expect(env.status_code).toBe(res.status);
  expect(typeof env.error_info?.human_readable_message).toBe("string");
  expect(typeof env.error_info?.full_error_message).toBe("string");
  return {
    status: res.status,
    errorClass: env.error_info?.error_class,
    fieldName: env.error_info?.field_name,
    code: env.error_info?.error_title,
  };
}

/** A clock whose work() records the realistic duration asked for and returns at once. */
export function recordingClock(): import("../../emulator/clock.js").Clock & { worked: number[] } {
  const worked: number[] = [];
  return {
    worked,
    now: () => Date.now(),
    work: async (ms: number) => {
      worked.push(ms);
    },
    sleep: (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
    dispose: () => undefined,
  };
}

/** Sets the running state of `order` (R11), which must succeed; its record. */
export async function setState(emu: TestEmulator, order: AboutOrder, state: RunningState) {
  const res = await emu.api("PUT", orderPath(order, "/vps/running-state"), {
    running_state_change_request: { running_state: state },
  });
  expect(res.status).toBe(200);
  expect(rootKey(res.body)).toBe("put_running_state_response");
  return record<PutRunningStateResponse>(res.body);
}
