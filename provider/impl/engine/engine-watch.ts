/**
 * A provider whose engine is gone stops. The engine starts each provider in a process group of its own, so when the
 * `pulumi` process is killed (SIGKILL, an OOM kill, a CI job's kill of the CLI) the provider lives on as an orphan
 * and would finish the update it was in: the next resize, a reinstall, a power-off, with no engine to record them.
 *
 * Both front ends get the engine's address as their first argument (the dynamic-provider host and the native
 * plugin alike). The provider asks the engine's gRPC server for its health (grpc.health.v1.Health/Check), one
 * question at a time: the next is asked CHECK_EVERY_MS after the last was answered, so checks never overlap. Pulumi's
 * own provider framework asks the same question every 5 minutes and cancels its work on any error but UNIMPLEMENTED;
 * here it is every second, because a change started in those minutes would still run with no engine to record it.
 *
 * The rule for "gone": the engine was seen answering (or, for the native plugin, connecting to it), and since then
 * every check for GONE_AFTER_MS running (at least two) found nothing listening at its address (UNAVAILABLE: the
 * connection is refused). Any other outcome breaks the run: an answer (UNIMPLEMENTED too: something that speaks
 * gRPC answered) and an engine too busy to answer within ANSWER_DEADLINE_MS (alive, only slow). An address never
 * seen answering is not judged. Once gone, the process exits at once, abandoning what it was waiting for. Every
 * request that changes something first asks the same question (assertEngineAlive), and waits for the verdict when
 * the answer is a refusal, so no change is sent in the second between two checks. A question is sent gatherMs
 * after it is first asked for, and answers every change that asked meanwhile: each waits for an answer that came
 * after it asked, and a fleet's changes share a few questions instead of each asking one.
 */
import { RIMU_ERROR_CODES } from "../../client/errors.js";
import { dynamicHost, hostSdkModule } from "./engine-log.js";
import { VpsError } from "./errors.js";

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

/** The watch's time: what it is now, and a wait that never keeps the process alive on its own. */
export interface WatchClock {
  now(): number;
  wait(ms: number): Promise<void>;
}

/** How the watch judges; the defaults are the rule in the header. Tests shorten nothing: they drive the clock. */
export interface WatchRule {
  /** Pause between the answer to one check and the next check. */
  checkEveryMs: number;
  /** How long every check must have been refused, running, for the engine to be gone. */
  goneAfterMs: number;
  /** An engine that has not answered within this is alive and busy (only a refused connection counts). */
  answerDeadlineMs: number;
  /**
   * Pause before the first periodic check. A change asks before it is sent (assertEngineAlive) whatever this is;
   * the native plugin waits one pause, so that its first answer to the engine does not wait on the question.
   */
  firstCheckAfterMs: number;
  /**
   * How long a question waits before it is sent, so that the changes asking meanwhile share it; each change still
   * waits for an answer that came after it asked. Sent as soon as asked, a 500-VPS update's host spent about 1 ms of
   * CPU a VPS more (docs/benchmarks.md).
   */
  gatherMs: number;
}

export const WATCH_RULE: Readonly<WatchRule> = {
  checkEveryMs: 1_000,
  goneAfterMs: 2_000,
  answerDeadlineMs: 5_000,
  firstCheckAfterMs: 0,
  gatherMs: 20,
};

const HEALTH_CHECK = "/grpc.health.v1.Health/Check";

export type Answer = "answered" | "refused" | "no answer";

/** The real clock: Date.now, and timers that are unref'd (the watch never keeps the process alive). */
const REAL_CLOCK: WatchClock = {
  now: () => Date.now(),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
};

interface Watch {
  /** The check in flight, or a new one: at most one question is ever open, and each answer is judged once. */
  ask(): Promise<Answer>;
  seenAlive(): boolean;
  /** The engine was seen alive some other way (it connected to the provider). */
  sawEngine(): void;
  stopped: boolean;
  /** Stops the watch and closes its gRPC client (its channel would hold a connection to the engine). */
  stop(): void;
  rule: WatchRule;
  clock: WatchClock;
}

/**
 * Per process on purpose: the watch on the engine that started the process. When that engine dies the process
 * stops, not a run; one engine, one watch.
 */
let watch: Watch | undefined;

/**
 * Starts watching the engine at `address` with `grpc`. Once per process: a second call does nothing. Seams for tests:
 * `exit` ends the process, `clock` is the watch's time, `rule` its numbers.
 */
export function watchEngine(
  grpc: WatchGrpc,
  address: string,
  seams: { exit?: (code: number) => void; clock?: WatchClock; rule?: Partial<WatchRule> } = {},
): void {
  if (watch) return;
  const exit = seams.exit ?? ((code: number) => process.exit(code));
  const clock = seams.clock ?? REAL_CLOCK;
  const rule: WatchRule = { ...WATCH_RULE, ...seams.rule };
  // Made with the first question (the native plugin's comes after a pause), not when the watch starts.
  let client: InstanceType<WatchGrpc["Client"]> | undefined;
  const empty = Buffer.alloc(0);
  let open: Promise<Answer> | undefined;
  let seenAlive = false;
  /** When the current run of refusals began, and how many checks it holds. */
  let refusedSince: number | undefined;
  let refusals = 0;

  const question = (): Promise<Answer> =>
    new Promise((resolve) => {
      client ??= new grpc.Client(address, grpc.credentials.createInsecure());
      client.makeUnaryRequest(
        HEALTH_CHECK,
        (value) => value,
        (bytes) => bytes,
        empty, // an empty HealthCheckRequest: the whole server
        new grpc.Metadata(),
        { deadline: Date.now() + rule.answerDeadlineMs },
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

  /** The rule in the header: true once every check for goneAfterMs running (two or more) was refused. */
  const isGone = (answer: Answer): boolean => {
    if (answer !== "refused" || !seenAlive) {
      if (answer === "answered") seenAlive = true;
      refusedSince = undefined;
      refusals = 0;
      return false;
    }
    refusedSince ??= clock.now();
    refusals++;
    return refusals >= 2 && clock.now() - refusedSince >= rule.goneAfterMs;
  };

  const gone = (): void => {
    current.stop();
    process.stderr.write(
      `rimuhosting: the Pulumi engine at ${address} is gone; stopping without making any further change.\n`,
    );
    exit(1);
  };

  const current: Watch = {
    ask() {
      if (open) return open;
      const gathered = rule.gatherMs > 0 ? clock.wait(rule.gatherMs) : Promise.resolve();
      // A watch stopped while the question gathered asks nothing (its client is closed); its callers see it stopped.
      open = gathered
        .then(() => (current.stopped ? "no answer" : question()))
        .then((answer) => {
          open = undefined;
          if (!current.stopped && isGone(answer)) gone();
          return answer;
        });
      return open;
    },
    seenAlive: () => seenAlive,
    sawEngine: () => void (seenAlive = true),
    stopped: false,
    stop() {
      current.stopped = true;
      client?.close();
      client = undefined;
    },
    rule,
    clock,
  };
  watch = current;

  void (async () => {
    if (rule.firstCheckAfterMs > 0) await clock.wait(rule.firstCheckAfterMs);
    while (!current.stopped) {
      await current.ask();
      if (current.stopped) return;
      await clock.wait(rule.checkEveryMs);
    }
  })();
}

/**
 * Before a request that changes something: resolves when the engine answers or is busy (or nothing watches it, or
 * it was never seen answering); when it refuses, asks again until the rule gives its verdict. A gone engine ends
 * the process (with a test's `exit`, which returns, this rejects: the change is not sent).
 */
export async function assertEngineAlive(): Promise<void> {
  const current = watch;
  if (!current) return;
  for (;;) {
    if (current.stopped) throw engineGone();
    const answer = await current.ask();
    if (current.stopped) throw engineGone();
    if (answer !== "refused" || !current.seenAlive()) return;
    await current.clock.wait(current.rule.checkEveryMs);
  }
}

/** What a change asked for after the engine is gone rejects with (only seen where `exit` returns: tests). */
const engineGone = (): VpsError =>
  new VpsError(RIMU_ERROR_CODES.RimuTransientError, "The Pulumi engine is gone; the change was not sent.");

/**
 * The engine connected to the provider: it is alive, as if it had answered. The native plugin says so on each
 * connection, so a plugin whose first periodic check waits (WatchRule.firstCheckAfterMs) still judges an engine that
 * was killed during that pause.
 */
export function engineConnected(): void {
  watch?.sawEngine();
}

/** Stops and forgets the watch, closing its gRPC client (tests). */
export function stopWatchingEngine(): void {
  watch?.stop();
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
