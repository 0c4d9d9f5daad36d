/** Every request the emulator saw, in order (RunningEmulator.requestLog, GET /__emulator/requests). */
import type { EndpointName } from "../contract/index.js";

export interface RequestLogEntry {
  method: string;
  route: EndpointName | "unknown";
  /** HTTP status sent; 0 when an injected fault dropped the connection instead. */
  status: number;
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
