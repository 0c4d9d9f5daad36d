/**
 * A TCP listener on 127.0.0.1 that never accepts a connection: its accept queue (backlog 1) is full, so the kernel
 * drops every further connection attempt and a client's connect() waits until its own time limit, as behind a
 * firewall that drops SYNs. Nothing is sent to it and nothing answers.
 *
 * The listener lives in a worker thread whose event loop is blocked right after listen(), so libuv never calls
 * accept(); the test fills the queue with connections of its own until one no longer completes.
 */
import * as net from "node:net";
import { Worker } from "node:worker_threads";

export interface NeverAcceptingListener {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

const LISTENER = `
const { parentPort, workerData } = require("node:worker_threads");
const net = require("node:net");
const server = net.createServer(() => undefined);
server.listen({ host: "127.0.0.1", port: 0, backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  // Blocks this thread until close(): its event loop never runs, so no connection is ever accepted.
  Atomics.wait(new Int32Array(workerData), 0, 0);
  server.close();
});
`;

/** How long a filling connection may take before the queue counts as full (the kernel's SYN retry is 1 s). */
const FULL_AFTER_MS = 700;

export async function neverAcceptingListener(): Promise<NeverAcceptingListener> {
  const release = new SharedArrayBuffer(4);
  const worker = new Worker(LISTENER, { eval: true, workerData: release });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  const fillers: net.Socket[] = [];
  const close = async (): Promise<void> => {
    for (const socket of fillers) socket.destroy();
    Atomics.store(new Int32Array(release), 0, 1);
    Atomics.notify(new Int32Array(release), 0);
    await worker.terminate();
  };
  for (;;) {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    fillers.push(socket);
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), FULL_AFTER_MS);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!connected) break;
    if (fillers.length > 32) {
      await close();
      throw new Error("the listener kept taking connections: its accept queue never filled");
    }
  }
  return { url: `http://127.0.0.1:${port}`, close };
}
