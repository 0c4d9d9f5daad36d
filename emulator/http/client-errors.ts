/**
 * Requests Node's HTTP parser refuses before fastify sees them (a garbage request line, malformed or
 * oversized headers, an unknown method, a request that did not arrive in time, an expectation it does not
 * meet) are answered here, in the same error envelope as every other answer, and the connection is closed.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { EMU_ERRORS, type EmulatorError, type EmulatorErrorCode, emuError } from "../errors.js";
import { errorBody } from "./error-handler.js";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  417: "Expectation Failed",
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

/**
 * An `Expect` other than 100-continue: Node answers it with a bare 417 before any route runs, unless the
 * server's "checkExpectation" event has a listener, which then answers instead. The body the client may still
 * send is not read, so the connection is closed after the answer.
 */
export function answerExpectation(server: Server, now: () => number): void {
  server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => {
    const emu = emuError("EMU_ERR_EXPECTATION_FAILED", {
      message: `Expect: ${request.headers.expect ?? ""} is not an expectation this API meets. ${EMU_ERRORS.EMU_ERR_EXPECTATION_FAILED.message}`,
    });
    const body = errorBody(now(), emu);
    response.shouldKeepAlive = false;
    response.writeHead(emu.status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    });
    response.end(body);
  });
}
