/**
 * Requests Node's HTTP parser refuses before fastify sees them (a garbage request line, malformed or
 * oversized headers, an unknown method, a request that did not arrive in time) are answered here,
 * in the same error envelope as every other answer, and the connection is closed.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";
import { type EmulatorError, type EmulatorErrorCode, emuError } from "../errors.js";
import { errorBody } from "./error-handler.js";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

function codeOf(error: NodeJS.ErrnoException): EmulatorErrorCode {
  if (error.code === "HPE_HEADER_OVERFLOW") return "EMU_ERR_HEADERS_TOO_LARGE";
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return "EMU_ERR_REQUEST_TIMEOUT";
  return "EMU_ERR_BAD_REQUEST";
}

/** Writes an error envelope straight onto a socket and closes it. */
function writeRawError(socket: Socket, now: () => number, emu: EmulatorError): void {
  if (socket.writable) {
    const body = errorBody(now(), emu);
    const extra = Object.entries(emu.headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(
      `HTTP/1.1 ${emu.status} ${REASONS[emu.status]}\r\n${extra}` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** fastify's `clientErrorHandler`. */
export function clientErrorHandler(now: () => number): (error: Error, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection, or one already gone, has no one to answer.
    if ((error as NodeJS.ErrnoException).code === "ECONNRESET" || socket.destroyed) return;
    writeRawError(socket, now, emuError(codeOf(error as NodeJS.ErrnoException)));
  };
}

/** CONNECT (a proxy tunnel) never reaches fastify: Node hands it to the server's "connect" event. */
export function answerConnect(server: Server, now: () => number): void {
  server.on("connect", (_request: IncomingMessage, socket: Socket) => {
    writeRawError(
      socket,
      now,
      emuError("EMU_ERR_METHOD_NOT_ALLOWED", {
        message: "The API is not a proxy: CONNECT is not taken anywhere.",
        headers: { allow: "GET, POST, PUT, DELETE" },
      }),
    );
  });
}
