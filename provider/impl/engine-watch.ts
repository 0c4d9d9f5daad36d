/**
 * A provider whose engine is gone stops. The engine starts each provider in a process group of its own, so when the
 * `pulumi` process is killed (SIGKILL, an OOM kill, a CI job's kill of the CLI) the provider lives on as an orphan
 * and would finish the update it was in: the next resize, a reinstall, a power-off, with no engine to record them.
 *
 * Both front ends get the engine's address as their first argument (the dynamic-provider host and the native
 * plugin alike). As Pulumi's own provider framework does, the provider asks the engine's gRPC server for its health
 * (grpc.health.v1.Health/Check) every second; an engine that does not implement the service answers UNIMPLEMENTED,
 * which is an answer. When the engine was seen answering and then twice in a row nothing listens at its address
 * (UNAVAILABLE: the connection is refused), the engine is gone and the process exits at once, abandoning what
 * it was waiting for. Every request that changes something first asks the same question (assertEngineAlive),
 * so no change is sent in the second between two checks.
 */
import { dynamicHost, hostSdkModule } from "./engine-log.js";

/** The parts of @grpc/grpc-js the watch needs (the native plugin's bundled copy, or the dynamic host's own). */
export interface WatchGrpc {
  Client: new (
    address: string,
    credentials: unknown,
  ) => {
    makeUnaryRequest(
      method: string,
      serialize: (value: Buffer) => Buffer,
      deserialize: (bytes: Buffer) => Buffer,
      argument: Buffer,
      metadata: unknown,
      options: { deadline: number },
      callback: (error: { code?: number } | null) => void,
    ): unknown;
    close(): void;
  };
  credentials: { createInsecure(): unknown };
  Metadata: new () => unknown;
  status: { UNAVAILABLE: number; DEADLINE_EXCEEDED: number };
}

/** How often the engine is asked, and how many refusals in a row mean it is gone. */
const INTERVAL_MS = 1_000;
const REFUSALS = 2;
/** An engine too busy to answer within this is alive (only a refused connection counts). */
const ANSWER_DEADLINE_MS = 5_000;
const HEALTH_CHECK = "/grpc.health.v1.Health/Check";

type Answer = "answered" | "refused" | "no answer";

interface Watch {
  ask(): Promise<Answer>;
  timer: NodeJS.Timeout;
  seenAlive: boolean;
  address: string;
  gone(): never;
}

let watch: Watch | undefined;

/**
 * Starts watching the engine at `address` with `grpc`; `exit` ends the process (tests pass their own). Once per
 * process: a second call does nothing.
 */
export function watchEngine(
  grpc: WatchGrpc,
  address: string,
  exit: (code: number) => never = (code) => process.exit(code),
): void {
  if (watch) return;
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const empty = Buffer.alloc(0);
  const ask = (): Promise<Answer> =>
    new Promise((resolve) => {
      client.makeUnaryRequest(
        HEALTH_CHECK,
        (value) => value,
        (bytes) => bytes,
        empty, // an empty HealthCheckRequest: the whole server
        new grpc.Metadata(),
        { deadline: Date.now() + ANSWER_DEADLINE_MS },
        (error) =>
          resolve(
            error?.code === grpc.status.UNAVAILABLE
              ? "refused"
              : error?.code === grpc.status.DEADLINE_EXCEEDED
                ? "no answer" // busy, not gone
                : "answered", // UNIMPLEMENTED included: something that speaks gRPC answered
          ),
      );
    });
  let refusals = 0;
  const current: Watch = {
    ask,
    seenAlive: false,
    address,
    timer: setInterval(() => {
      void ask().then((answer) => {
        if (answer === "answered") {
          current.seenAlive = true;
          refusals = 0;
        } else if (answer === "refused" && current.seenAlive && ++refusals >= REFUSALS) current.gone();
      });
    }, INTERVAL_MS),
    gone() {
      clearInterval(current.timer);
      process.stderr.write(
        `rimuhosting: the Pulumi engine at ${address} is gone; stopping without making any further change.\n`,
      );
      client.close();
      return exit(1);
    },
  };
  current.timer.unref(); // the watch never keeps the process alive on its own
  watch = current;
  void ask().then((answer) => (current.seenAlive ||= answer === "answered"));
}

/**
 * Before a request that changes something: resolves when the engine answers (or nothing watches it); exits the
 * process when it is gone. A refusal is asked again once, after a moment, before the engine is given up.
 */
export async function assertEngineAlive(): Promise<void> {
  const current = watch;
  if (!current) return;
  for (let attempt = 1; ; attempt++) {
    const answer = await current.ask();
    if (answer !== "refused") {
      if (answer === "answered") current.seenAlive = true;
      return;
    }
    if (!current.seenAlive) return; // never reached: not an engine this watch can judge
    if (attempt >= REFUSALS) current.gone();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Stops and forgets the watch (tests). */
export function stopWatchingEngine(): void {
  if (watch) clearInterval(watch.timer);
  watch = undefined;
}

/**
 * In the dynamic-provider host: watches its engine with the host SDK's own @grpc/grpc-js (engine-log.ts finds
 * both); anywhere else (a test, a program) does nothing.
 */
export function watchDynamicHostEngine(): void {
  const host = dynamicHost();
  const grpc = host && (hostSdkModule(host.main, "@grpc/grpc-js") as WatchGrpc | undefined);
  if (host && grpc) watchEngine(grpc, host.address);
}
