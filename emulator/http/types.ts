/** What the emulator attaches to fastify: per-request state and the shared dependencies of its plugins. */
import type { FastifyRequest } from "fastify";
import type { EndpointName } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import type { ChaosController } from "../chaos/controller.js";
import type { TimeControl } from "../clock.js";
import type { EmulatorContext } from "../domain/context.js";
import type { Matrix } from "../domain/matrix-filters.js";
import type { FaultController } from "../faults.js";
import type { RateLimiter } from "../rate-limit.js";
import type { ResolvedOptions } from "../options.js";
import type { RequestLog } from "../request-log.js";
import type { SnapshotShelf } from "../state/snapshots.js";
import type { ListingRenderer } from "../wire/listing.js";

export interface RequestState {
  endpoint: EndpointName | undefined;
  matrix: Matrix;
  /** The authenticated account (always set on endpoints that need a key). */
  account: DemoAccount | undefined;
  /** An armed "drop-after-commit" fault: do the work, then destroy the socket instead of answering. */
  dropAfterCommit: boolean;
  /** An armed "delay-after-commit" fault: do the work, then wait this long before answering. */
  delayAfterCommitMs: number;
  /** An injected fault destroyed the socket (logged as "dropped"). */
  dropped: boolean;
}

export interface EmulatorDeps {
  ctx: EmulatorContext;
  faults: FaultController;
  chaos: ChaosController;
  /** The clock's controls, unless the emulator runs on a clock given in code that has none. */
  time: TimeControl | undefined;
  snapshots: SnapshotShelf;
  rateLimiter: RateLimiter;
  requestLog: RequestLog;
  listings: ListingRenderer;
  options: ResolvedOptions;
  /**
   * Set in code by a test that chooses the order in which concurrent requests are served (test/cost's model, through
   * fast-check's scheduler): each API request waits for it, named by its endpoint, before anything is done. The
   * request is handed over too (the model reads which order it changes).
   */
  turn?: (endpoint: string, request: FastifyRequest) => Promise<void>;
  /**
   * Set in code by a test that holds answers (test/provider/impl/order-guard-parallel.test.ts): each API answer waits
   * for it, named by its endpoint, once what the request does is done (an order placed is listed meanwhile), with
   * the request (test/cost's model reads what landed).
   */
  answerTurn?: (endpoint: string, request: FastifyRequest) => Promise<void>;
}

declare module "fastify" {
  interface FastifyRequest {
    emu: RequestState;
  }
  interface FastifyContextConfig {
    /** The contract endpoint a route implements. */
    endpoint?: EndpointName;
    /** A /__emulator control route: not logged, no faults, no latency. */
    control?: boolean;
  }
  interface FastifyInstance {
    emulator: EmulatorDeps;
  }
}
