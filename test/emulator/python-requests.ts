/**
 * How pbkwee's rimuapi.py talks to the API, for the tests of its shapes (pbkwee-shapes.test.ts, pbkwee-scripts.test.ts).
 */
import * as http from "node:http";
import type { TestEmulator } from "../helpers/start-emulator.js";
import type { Envelope } from "../../contract/index.js";
import { DEMO_API_KEY } from "../../emulator/index.js";
import { record } from "./fixtures.js";

/**
 * The exact requests RimuHosting's own Python client (pbkwee/RimuHostingAPI rimuapi.py, python-requests
 * 2.x) puts on the wire, captured from it: the header set and order below, JSON bodies in Python's
 * json.dumps spacing, the body `null` with Content-Type application/json on every GET and DELETE,
 * matrix filters from urlencode with `&` turned into `;` (`:` -> %3A, space -> +), the placeholder
 * domains `None` and `na.com` in order slugs, and a form body with an empty `;ip=` for PTR. Sent with
 * node:http because fetch refuses a body on GET.
 */
export interface WireResponse {
  status: number;
  contentType: string;
  body: Record<string, unknown>;
}

export function pythonRequests(
  emu: TestEmulator,
  method: string,
  path: string,
  body: string,
  options: { contentType?: string; apiKey?: string | null } = {},
): Promise<WireResponse> {
  const headers: Record<string, string> = {
    "User-Agent": "python-requests/2.34.2",
    "Accept-Encoding": "gzip, deflate",
    Accept: "application/json",
    Connection: "keep-alive",
    "Content-Type": options.contentType ?? "application/json",
  };
  const apiKey = options.apiKey === undefined ? DEMO_API_KEY : options.apiKey;
  if (apiKey !== null) headers.Authorization = `rimuhosting apikey=${apiKey}`;
  headers["Content-Length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: emu.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers["content-type"]),
              body: JSON.parse(text) as Record<string, unknown>,
            });
          } catch (error) {
            reject(new Error(`${method} ${path}: not JSON (${res.statusCode}): ${text}`, { cause: error }));
          }
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** What rimuapi.py surfaces from an error: it looks for error_info.human_readable_message. */
export function humanMessage(res: WireResponse): string {
  return record<Envelope>(res.body).error_info?.human_readable_message ?? "";
}
