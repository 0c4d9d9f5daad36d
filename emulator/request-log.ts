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
  /** When the request arrived, ISO 8601 (the emulator's clock). */
  time: string;
  /** The User-Agent header as sent (which tool made the request), when there was one. */
  userAgent?: string;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  push(entry: RequestLogEntry): void {
    this.entries.push(entry);
  }

  all(): readonly RequestLogEntry[] {
    return [...this.entries];
  }

  /** The `count` entries that ended last (the dashboard shows those, not a long run's whole log). */
  last(count: number): readonly RequestLogEntry[] {
    return this.entries.slice(-count);
  }

  get size(): number {
    return this.entries.length;
  }

  clear(): void {
    this.entries = [];
  }
}
