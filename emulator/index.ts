/**
 * The local RimuHosting REST emulator: startEmulator() (listening on 127.0.0.1, random port by default).
 *
 * fastify is an optional peer dependency, so the published types of this entry point name nothing of
 * fastify's: a program that imports it compiles without fastify installed. buildEmulator() (a fastify
 * instance that never listens) and RunningEmulator.app are for this repository's tests and benches and are
 * left out of the published declarations (@internal, stripInternal).
 */
import type { FastifyInstance } from "fastify";
import type { EndpointName } from "../contract/index.js";
import { buildEmulator } from "./app.js";
import { type OrderSnapshot, snapshotOrders } from "./domain/snapshot.js";
import { type FaultSpec, FaultSpecSchema, type StartEmulatorOptions } from "./options.js";
import type { RequestLogEntry } from "./request-log.js";

export { DEMO_ACCOUNTS, DEMO_API_KEY, DEMO_SECOND_API_KEY, type DemoAccount } from "./accounts.js";
/** @internal */
export { buildEmulator } from "./app.js";
export type { FaultSpec, StartEmulatorOptions, RequestLogEntry, OrderSnapshot, EndpointName };

export interface RunningEmulator {
  /** "http://127.0.0.1:<port>/r" */
  baseUrl: string;
  port: number;
  /** @internal The fastify instance (its types need fastify installed). */
  app: FastifyInstance;
  /** Arms a one-shot fault (validated; throws on a bad spec). */
  injectFault(spec: FaultSpec): void;
  /** Every request seen, in order (a preview reads, and asks for price quotes with PUT). */
  requestLog(): readonly RequestLogEntry[];
  /** All orders of every account, for assertions on final state (nothing left running or billed). */
  snapshot(): OrderSnapshot[];
  /** Idempotent; leaves nothing running and the state file (if any) written. */
  close(): Promise<void>;
}

export async function startEmulator(opts: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const app = await buildEmulator(opts);
  const { host, port, logger } = app.emulator.options;
  // fastify logs "Server listening at …" as it starts listening; the command's banner says that, and must come first.
  const level = app.log.level;
  if (logger) app.log.level = "silent";
  try {
    await app.listen({ host, port });
  } finally {
    if (logger) app.log.level = level;
  }
  const address = app.server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${urlHost}:${actualPort}/r`,
    port: actualPort,
    app,
    injectFault: (spec) => app.emulator.faults.arm(FaultSpecSchema.parse(spec)),
    requestLog: () => app.emulator.requestLog.all(),
    snapshot: () => snapshotOrders(app.emulator.ctx),
    close: () => (closing ??= app.close().then(() => undefined)),
  };
}
