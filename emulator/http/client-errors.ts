/**
 * Requests Node's HTTP parser refuses before fastify sees them (a garbage request line, malformed or
 * oversized headers, an unknown method, a request that did not arrive in time) are answered here,
 * in the same error envelope as every other answer, and the connection is closed.
 */
import type { Socket } from "node:net";
import { type EmulatorErrorCode, emuError } from "../errors.js";
import { errorBody } from "./error-handler.js";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

function codeOf(error: NodeJS.ErrnoException): EmulatorErrorCode {
  if (error.code === "HPE_HEADER_OVERFLOW") return "EMU_ERR_HEADERS_TOO_LARGE";
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return "EMU_ERR_REQUEST_TIMEOUT";
  return "EMU_ERR_BAD_REQUEST";
}

/** fastify's `clientErrorHandler`. */
export function clientErrorHandler(now: () => number): (error: Error, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection, or one already gone, has no one to answer.
    if ((error as NodeJS.ErrnoException).code === "ECONNRESET" || socket.destroyed) return;
    if (socket.writable) {
      const emu = emuError(codeOf(error as NodeJS.ErrnoException));
      const body = errorBody(now(), emu);
      socket.write(
        `HTTP/1.1 ${emu.status} ${REASONS[emu.status]}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
