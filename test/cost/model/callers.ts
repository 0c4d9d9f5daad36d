/**
 * Which provider call of which stack's run made a request the emulator serves (landings.ts, for I3): the listing a
 * resize's guard judged on is the last listing its own call read before the resize (ordering/order-guard.ts reads
 * the account fresh for each judged change, and nothing between it and the change lists again), and only a call
 * knows it: a run's other calls (a create in parallel, an order's read-back) list too, meanwhile, and every run
 * reads with the same key and user agent. So engine.ts enters each provider call as a call of its own (an
 * AsyncLocalStorage, which follows the call's promises into its HTTP client), and each request the call's client
 * creates carries it in a header the model adds (Node's `http.client.request.created` channel, before the request is
 * sent). Nothing of the provider changes; a request of no call (by hand) carries none.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as diagnostics from "node:diagnostics_channel";
import type { IncomingHttpHeaders } from "node:http";

/** A call: its stack, and a number of its own. */
export interface Call {
  stack: string;
  id: number;
}

const HEADER = "x-model-call";
const calls = new AsyncLocalStorage<Call>();
let made = 0;

diagnostics.subscribe("http.client.request.created", (message) => {
  const call = calls.getStore();
  const request = (message as { request: { setHeader(name: string, value: string): void } }).request;
  if (call) request.setHeader(HEADER, `${call.stack} ${call.id}`);
});

/** Runs `call` (one provider call of `stack`'s run) as a call of its own: its requests say so. */
export const asCall = <T>(stack: string, call: () => T): T => calls.run({ stack, id: ++made }, call);

/** The call that made a request, from its headers (undefined: made by no call, as by hand). */
export function callOf(headers: IncomingHttpHeaders): Call | undefined {
  const match = /^(\S+) (\d+)$/.exec(String(headers[HEADER] ?? ""));
  return match ? { stack: match[1]!, id: Number(match[2]) } : undefined;
}
