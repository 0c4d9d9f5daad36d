/**
 * The requests whose answers are not out yet, so that closing the emulator lets each one finish: app.ts's
 * preClose hook ends the clock's waits, then waits for these, and only then are the connections closed. A
 * client whose operation ran to completion gets its answer, whether or not the state file made it wait.
 * A request still sending its body is not waited for (its client may never finish it): it is cut off.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";

export class InFlight {
  /** Each request not yet answered, and a promise that resolves when it is (or its connection closes). */
  private readonly pending = new Map<IncomingMessage, Promise<void>>();

  /** Follows every request of `server` until its answer is sent or its connection closes. */
  constructor(server: Server) {
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      const ended = new Promise<void>((resolve) => {
        response.once("finish", resolve);
        response.once("close", resolve);
      });
      this.pending.set(request, ended);
      void ended.then(() => this.pending.delete(request));
    });
  }

  /** Resolves once no request that has arrived whole is waiting for its answer. */
  async settled(): Promise<void> {
    for (;;) {
      const whole = [...this.pending].filter(([request]) => request.complete).map(([, ended]) => ended);
      if (whole.length === 0) return;
      await Promise.all(whole);
    }
  }
}
