/** Every request that reached the emulator's routes, in the order they ended (RunningEmulator.requestLog, GET /__emulator/requests). */
import type { EndpointName } from "../contract/index.js";

/**
 * How a request ended: "answered" (a response was sent in full), "dropped" (an injected fault
 * destroyed the socket) or "client-gone" (the client closed the connection first; the work may
 * still have been done, e.g. during a delay-after-commit fault).
 */
export type RequestOutcome = "answered" | "dropped" | "client-gone";

export interface RequestLogEntry {
  method: string;
  route: EndpointName | "unknown";
  /** HTTP status sent; 0 when no answer reached the client (dropped or client gone). */
  status: number;
  outcome: RequestOutcome;
  account?: string;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  push(entry: RequestLogEntry): void {
    this.entries.push(entry);
  }

  all(): readonly RequestLogEntry[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }
}
