/**
 * A throwaway HTTP server on 127.0.0.1 (random port) for the few client tests the emulator cannot
 * serve: malformed response shapes, HTML bodies, and inspecting the exact request headers and
 * bodies the client sends. Everything else runs against the real emulator.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  socketId: number;
}

export interface TinyReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | object;
  /** Destroy the socket instead of answering. */
  drop?: boolean;
  /** Never answer (the client must time out). */
  hang?: boolean;
  /** Send the status line and headers, then nothing more (an answer that started and never finished). */
  headersOnly?: boolean;
}

export interface TinyServer {
  baseUrl: string;
  requests: SeenRequest[];
  connections(): number;
  close(): Promise<void>;
}

export async function startTinyServer(
  reply: (req: SeenRequest, index: number) => TinyReply,
): Promise<TinyServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const socketIds = new WeakMap<object, number>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        socketId: socketIds.get(req.socket) ?? -1,
      };
      requests.push(seen);
      const r = reply(seen, requests.length - 1);
      if (r.drop) {
        req.socket.destroy();
        return;
      }
      if (r.hang) return;
      if (r.headersOnly) {
        res.writeHead(r.status ?? 200, { "content-type": "application/json", ...r.headers });
        res.flushHeaders();
        return;
      }
      const body = typeof r.body === "string" ? r.body : JSON.stringify(r.body ?? {});
      res.writeHead(r.status ?? 200, { "content-type": "application/json", ...r.headers });
      res.end(body);
    });
  });
  server.on("connection", (socket) => {
    connections++;
    socketIds.set(socket, connections);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/r`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A minimal valid envelope + fields, under `rootKey`. */
export function okBody(rootKey: string, fields: Record<string, unknown> = {}): object {
  return { [rootKey]: { status_code: 200, response_type: "OK", human_readable_message: "ok", ...fields } };
}
