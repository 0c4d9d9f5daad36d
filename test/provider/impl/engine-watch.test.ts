// The engine watch (provider/impl/engine/engine-watch.ts) through its seams: the gRPC it asks with, the clock it waits on
// and the exit it calls. A scripted engine answers, is slow, refuses or goes away; a manual clock moves time only
// when the test says, so the rule for "gone" (seen answering, then every check refused for 2 s running, at least two
// checks) is checked at known points, with no wall-clock sleep. One test asks a real @grpc/grpc-js server on
// 127.0.0.1, so the status codes the rule reads are the library's own.
import * as grpc from "@grpc/grpc-js";
import * as net from "node:net";
import {
  WATCH_RULE,
  assertEngineAlive,
  engineConnected,
  stopWatchingEngine,
  watchEngine,
  type WatchClock,
  type WatchGrpc,
  type WatchRule,
} from "../../../provider/impl/engine/engine-watch.js";
import { rejectionOf, until } from "../../helpers/promises.js";

/** A clock whose waits end only when advance() passes their end. */
class ManualClock implements WatchClock {
  private at = 0;
  private readonly waits: { until: number; resolve(): void }[] = [];

  now(): number {
    return this.at;
  }

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => this.waits.push({ until: this.at + ms, resolve }));
  }

  /** Waits started and not yet over. */
  waiting(): number {
    return this.waits.length;
  }

  /** Moves time on by `ms` and ends the waits that are over. */
  advance(ms: number): void {
    this.at += ms;
    for (const wait of this.waits.filter((w) => w.until <= this.at)) {
      this.waits.splice(this.waits.indexOf(wait), 1);
      wait.resolve();
    }
  }
}

type Mode = "answers" | "unimplemented" | "slow" | "refuses";

/** An engine the test scripts: how it answers the next checks, how many it was asked, how many were open at once. */
class ScriptedEngine {
  mode: Mode = "answers";
  asked = 0;
  open = 0;
  mostOpen = 0;
  /** Slow answers, held until the test says their deadline passed. */
  readonly held: (() => void)[] = [];

  readonly grpc: WatchGrpc = scriptedGrpc(this);

  /** The deadline of every held (slow) check passes. */
  deadlinePasses(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  heldChecks(): number {
    return this.held.length;
  }
}

/** The gRPC seam of `engine`: its Client asks the script instead of a server. */
function scriptedGrpc(engine: ScriptedEngine): WatchGrpc {
  return {
    Client: class {
      makeUnaryRequest(...args: unknown[]): unknown {
        const callback = args[6] as (error: { code?: number } | null) => void;
        engine.asked++;
        engine.open++;
        engine.mostOpen = Math.max(engine.mostOpen, engine.open);
        const answer = (error: { code?: number } | null) => {
          engine.open--;
          callback(error);
        };
        if (engine.mode === "slow") engine.held.push(() => answer({ code: grpc.status.DEADLINE_EXCEEDED }));
        else if (engine.mode === "refuses") setImmediate(() => answer({ code: grpc.status.UNAVAILABLE }));
        else if (engine.mode === "unimplemented")
          setImmediate(() => answer({ code: grpc.status.UNIMPLEMENTED }));
        else setImmediate(() => answer(null));
        return {};
      }
      close(): void {}
    },
    credentials: { createInsecure: () => ({}) },
    Metadata: class {},
    status: { UNAVAILABLE: grpc.status.UNAVAILABLE, DEADLINE_EXCEEDED: grpc.status.DEADLINE_EXCEEDED },
  };
}

let clock: ManualClock;
let engine: ScriptedEngine;
let exits: number[];
const stderr = jest.spyOn(process.stderr, "write");

beforeEach(() => {
  clock = new ManualClock();
  engine = new ScriptedEngine();
  exits = [];
  stderr.mockImplementation(() => true);
});
afterEach(() => {
  stopWatchingEngine();
  stderr.mockReset();
});
afterAll(() => stderr.mockRestore());

/** Starts the watch; its questions are sent as soon as asked unless `rule` says gatherMs (its own test below). */
const start = (grpcModule: WatchGrpc = engine.grpc, address = "127.0.0.1:1", rule: Partial<WatchRule> = {}) =>
  watchEngine(grpcModule, address, {
    clock,
    exit: (code) => void exits.push(code),
    rule: { gatherMs: 0, ...rule },
  });

/** The watch's loop is between checks: its last question was answered and judged. */
const betweenChecks = () =>
  until("the watch to wait for its next check (or to end)", () => clock.waiting() === 1 || exits.length > 0);

/** One check period: time moves on to the next check, and the watch has judged its answer. */
async function nextCheck(): Promise<void> {
  clock.advance(WATCH_RULE.checkEveryMs);
  await betweenChecks();
}

/** A real @grpc/grpc-js server on 127.0.0.1 answering the health check (SERVING), counting the checks. */
async function healthServer(): Promise<{ server: grpc.Server; port: number; checks(): number }> {
  const server = new grpc.Server();
  let checks = 0;
  server.addService(
    {
      Check: {
        path: "/grpc.health.v1.Health/Check",
        requestStream: false,
        responseStream: false,
        requestSerialize: (value: Buffer) => value,
        requestDeserialize: (bytes: Buffer) => bytes,
        responseSerialize: (value: Buffer) => value,
        responseDeserialize: (bytes: Buffer) => bytes,
      },
    },
    {
      Check: (_call: unknown, callback: grpc.sendUnaryData<Buffer>) => {
        checks++;
        callback(null, Buffer.from([8, 1])); // SERVING
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { server, port, checks: () => checks };
}

describe("the engine watch", () => {
  it("an engine that answers (or says UNIMPLEMENTED) is alive: no exit, and a change may go ahead", async () => {
    start();
    await betweenChecks();
    for (let i = 0; i < 5; i++) await nextCheck();
    engine.mode = "unimplemented";
    for (let i = 0; i < 5; i++) await nextCheck();
    await assertEngineAlive();
    expect(engine.asked).toBeGreaterThanOrEqual(11);
    expect(exits).toEqual([]);
  });

  it("a slow engine is alive, and is never asked twice at once", async () => {
    start();
    await betweenChecks();
    engine.mode = "slow";
    clock.advance(WATCH_RULE.checkEveryMs);
    await until("the slow check to be asked", () => engine.heldChecks() === 1);
    // A change asks while the slow check is open: it waits on the same question, not a second one.
    const change = assertEngineAlive();
    clock.advance(60_000); // however long the answer takes, no new check starts while one is open
    expect(engine.asked).toBe(2);
    engine.deadlinePasses();
    await change;
    await betweenChecks();
    expect(engine.mostOpen).toBe(1);
    expect(exits).toEqual([]);
  });

  it("an engine that goes away is gone once every check for 2 s running was refused, not before", async () => {
    start();
    await betweenChecks();
    engine.mode = "refuses";
    await nextCheck(); // the first refusal: t
    await nextCheck(); // t + 1 s
    expect(exits).toEqual([]);
    await nextCheck(); // t + 2 s: gone
    expect(exits).toEqual([1]);
    expect(stderr).toHaveBeenCalledWith(expect.stringMatching(/the Pulumi engine at 127\.0\.0\.1:1 is gone/));
    // A change asked for now is not sent.
    await rejectionOf(assertEngineAlive());
  });

  it("an answer, or a busy engine, in between breaks the run of refusals", async () => {
    start();
    await betweenChecks();
    for (const between of ["answers", "slow"] as const) {
      engine.mode = "answers";
      await nextCheck();
      engine.mode = "refuses";
      await nextCheck();
      await nextCheck();
      engine.mode = between;
      clock.advance(WATCH_RULE.checkEveryMs);
      if (between === "slow") {
        await until("the slow check to be asked", () => engine.heldChecks() === 1);
        engine.deadlinePasses();
      }
      await betweenChecks();
      engine.mode = "refuses";
      await nextCheck();
      await nextCheck(); // refused at t and t + 1 s since the break: not yet 2 s
      expect(exits).toEqual([]);
    }
  });

  it("with a first pause, asks nothing until it ends, but a change asks at once; an engine gone then is judged", async () => {
    start(engine.grpc, "127.0.0.1:1", { firstCheckAfterMs: WATCH_RULE.checkEveryMs });
    await until("the watch to wait out its first pause", () => clock.waiting() === 1);
    expect(engine.asked).toBe(0);
    // A change within the pause asks before it is sent: the engine is seen answering ...
    await assertEngineAlive();
    expect(engine.asked).toBe(1);
    // ... so once it goes away, the checks after the pause judge it gone.
    engine.mode = "refuses";
    clock.advance(WATCH_RULE.checkEveryMs);
    await betweenChecks();
    expect(engine.asked).toBe(2);
    await nextCheck();
    await nextCheck();
    expect(exits).toEqual([1]);
  });

  it("an engine that connected counts as seen alive: killed in the first pause, it is judged gone after it", async () => {
    start(engine.grpc, "127.0.0.1:1", { firstCheckAfterMs: WATCH_RULE.checkEveryMs });
    engineConnected();
    engine.mode = "refuses";
    await until("the watch to wait out its first pause", () => clock.waiting() === 1);
    clock.advance(WATCH_RULE.checkEveryMs);
    await betweenChecks();
    await nextCheck();
    await nextCheck();
    expect(engine.asked).toBe(3);
    expect(exits).toEqual([1]);
  });

  it("an address never seen answering is not judged: refusals there never exit, and changes go ahead", async () => {
    engine.mode = "refuses";
    start();
    await betweenChecks();
    for (let i = 0; i < 10; i++) await nextCheck();
    await assertEngineAlive();
    expect(exits).toEqual([]);
  });

  it("a change asked for while the engine refuses waits for the verdict: gone ends it, an answer lets it go", async () => {
    start();
    await betweenChecks();
    engine.mode = "refuses";
    let settled = false;
    const change = assertEngineAlive().finally(() => (settled = true));
    await until("the change's check to be judged", () => clock.waiting() === 2);
    engine.mode = "answers";
    clock.advance(WATCH_RULE.checkEveryMs);
    await change;
    expect(settled).toBe(true);

    await betweenChecks();
    engine.mode = "refuses";
    const doomed = assertEngineAlive();
    doomed.catch(() => undefined);
    await until("the change to wait beside the watch", () => clock.waiting() === 2); // refused at t
    clock.advance(WATCH_RULE.checkEveryMs);
    await until("the change to wait beside the watch", () => clock.waiting() === 2); // t + 1 s
    expect(exits).toEqual([]);
    clock.advance(WATCH_RULE.checkEveryMs); // t + 2 s: gone
    await rejectionOf(doomed);
    expect(exits).toEqual([1]);
  });

  it("changes asking within gatherMs share one question, sent after the last of them asked", async () => {
    start(engine.grpc, "127.0.0.1:1", { gatherMs: WATCH_RULE.gatherMs });
    clock.advance(WATCH_RULE.gatherMs); // the watch's first check
    await betweenChecks();
    const before = engine.asked;
    let sent = 0;
    const changes = [0, 1, 2].map(() => assertEngineAlive().then(() => void sent++));
    await until("the question to gather", () => clock.waiting() === 2);
    expect(engine.asked).toBe(before); // nothing asked yet: a change is not sent on an answer from before it asked
    clock.advance(WATCH_RULE.gatherMs);
    await Promise.all(changes);
    expect(sent).toBe(3);
    expect(engine.asked).toBe(before + 1);
    // The next change asks a question of its own: an answer that came before it asked does not let it go.
    const next = assertEngineAlive();
    await until("the next question to gather", () => clock.waiting() === 2);
    expect(engine.asked).toBe(before + 1);
    clock.advance(WATCH_RULE.gatherMs);
    await next;
    expect(engine.asked).toBe(before + 2);
  });

  it("against a real gRPC server: alive while it serves, gone after it shuts down and refuses for 2 s", async () => {
    const { server, port, checks } = await healthServer();
    try {
      start(grpc as unknown as WatchGrpc, `127.0.0.1:${port}`);
      await betweenChecks();
      await nextCheck();
      expect(checks()).toBe(2);
      await assertEngineAlive();
      expect(exits).toEqual([]);
    } finally {
      server.forceShutdown();
    }
    await nextCheck();
    await nextCheck();
    expect(exits).toEqual([]);
    await nextCheck();
    expect(exits).toEqual([1]);
  });

  it("stopWatchingEngine() closes its gRPC client: its connection to the engine ends", async () => {
    const { server, port, checks } = await healthServer();
    // A TCP relay in front of the server, counting the connections open through it.
    const open = new Set<net.Socket>();
    const relay = net.createServer((socket) => {
      open.add(socket);
      const upstream = net.connect(port, "127.0.0.1");
      socket.pipe(upstream).pipe(socket);
      const end = () => (open.delete(socket), socket.destroy(), upstream.destroy());
      socket.on("close", end).on("error", end);
      upstream.on("close", end).on("error", end);
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    try {
      start(grpc as unknown as WatchGrpc, `127.0.0.1:${(relay.address() as net.AddressInfo).port}`);
      await betweenChecks();
      expect([checks(), open.size]).toEqual([1, 1]);
      stopWatchingEngine();
      // An open client keeps its connection until its idle timeout (30 minutes in @grpc/grpc-js).
      await until("the watch's connection to the engine to close", () => open.size === 0, {
        timeoutMs: 10_000,
      });
    } finally {
      for (const socket of open) socket.destroy();
      relay.close();
      server.forceShutdown();
    }
  });
});
