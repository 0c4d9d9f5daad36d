/**
 * A change sent to an https address that stalls: what the client's timeout says depends on whether the request
 * can have reached the service. A TLS handshake that never finishes means the request was never sent (a socket is
 * usable for https only once its handshake is done), so nothing can be going on at RimuHosting; a handshake that
 * finished and an answer that never came means the service may have the change. Real TLS over 127.0.0.1.
 */
import net from "node:net";
import tls from "node:tls";
import type { AddressInfo } from "node:net";
import { RimuTimeoutError, createClient, type RimuClient } from "../../provider/client/index.js";
import { rejectionOf } from "../helpers/promises.js";
import { TEST_TLS_CERT, TEST_TLS_KEY } from "./support/tls-127.js";

const API_KEY = "tls-stall-key-0000-SECRET";

interface StallingServer {
  baseUrl: string;
  /** Bytes the server received (the ClientHello, then any request). */
  received(): number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, accepts every connection, and keeps each socket open without writing to it. */
async function listen(server: net.Server, counted: (socket: net.Socket) => void): Promise<StallingServer> {
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  let bytes = 0;
  server.on(server instanceof tls.Server ? "secureConnection" : "connection", (socket: net.Socket) => {
    counted(socket);
    socket.on("data", (chunk: Buffer) => (bytes += chunk.length));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}/r`,
    received: () => bytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let server: StallingServer | undefined;
let client: RimuClient | undefined;

afterEach(async () => {
  client?.close();
  await server?.close();
  client = server = undefined;
});

function clientOf(baseUrl: string): RimuClient {
  return createClient({ apiKey: API_KEY, baseUrl, timeouts: { mutationMs: 300 }, retry: { limit: 0 } });
}

describe("client: a change to an https address that stalls", () => {
  it("a handshake that never finishes says nothing was sent, not that RimuHosting may be making it", async () => {
    // A TCP listener that accepts and reads the ClientHello but never answers it.
    server = await listen(net.createServer(), () => undefined);
    client = clientOf(server.baseUrl);
    const error = await rejectionOf(client.setRunningState(42, "NOTRUNNING"), RimuTimeoutError);
    expect(server.received()).toBeGreaterThan(0); // the connection was made and the ClientHello came
    expect(error.message).toBe(
      "[RIMU_ERR_TIMEOUT] PUT /orders/{order}/vps/running-state: no connection within 300 ms " +
        "(timeouts.mutationMs); nothing was sent",
    );
    expect(error).toMatchObject({ noAnswer: true, waitedFor: "connection", timeoutKind: "mutation" });
  });

  it("a handshake that finishes and an answer that never comes says RimuHosting may be making it", async () => {
    let requests = 0;
    server = await listen(tls.createServer({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT }), () => requests++);
    // The client trusts Node's default CAs; this test's certificate is its own, trusted for this test alone.
    const defaults = tls.getCACertificates("default");
    tls.setDefaultCACertificates([...defaults, TEST_TLS_CERT]);
    try {
      client = clientOf(server.baseUrl);
      const error = await rejectionOf(client.setRunningState(42, "NOTRUNNING"), RimuTimeoutError);
      expect(requests).toBe(1); // the handshake finished
      expect(error.message).toBe(
        "[RIMU_ERR_TIMEOUT] PUT /orders/{order}/vps/running-state: no response within 300 ms " +
          "(timeouts.mutationMs); RimuHosting may still be making the change",
      );
      expect(error).toMatchObject({ noAnswer: true, waitedFor: "answer", timeoutKind: "mutation" });
    } finally {
      tls.setDefaultCACertificates(defaults);
    }
  });
});
