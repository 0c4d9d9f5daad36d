/**
 * The bad-request sweep: well over 200 malformed or unexpected raw requests (URLs, methods, request
 * lines, headers, bodies), each sent on its own connection with node:net so nothing tidies it up
 * first. Every answer must be in the API's envelope (one root key; errors under `jaxrs_response`
 * with response_type ERROR and the HTTP status in status_code), and none may be a 5xx.
 *
 *   npm run build && node dist/tools/emulator-sweep.js
 */
import * as net from "node:net";
import { DEMO_API_KEY, startEmulator } from "../emulator/index.js";

export interface SweepCase {
  name: string;
  raw: string | Buffer;
}

export interface SweepAnswer {
  name: string;
  status: number;
  /** Why the answer is outside the envelope; undefined when it is inside. */
  problem?: string;
}

export interface SweepResult {
  requests: number;
  outsideEnvelope: SweepAnswer[];
  serverErrors: SweepAnswer[];
  byStatus: Record<number, number>;
}

const AUTH = `Authorization: rimuhosting apikey=${DEMO_API_KEY}\r\n`;

export function request(
  method: string,
  target: string,
  options: { headers?: string; body?: string } = {},
): string {
  const body = options.body ?? "";
  const length =
    body.length > 0 || ["POST", "PUT"].includes(method)
      ? `Content-Length: ${Buffer.byteLength(body)}\r\n`
      : "";
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${AUTH}${options.headers ?? ""}${length}\r\n${body}`;
}

const ORDER = "/r/orders/order-1-x";
/** Every path of the API, with an order segment where it takes one. */
const PATHS = [
  "/r/orders",
  ORDER,
  `${ORDER}/cancelled`,
  "/r/orders/new-vps",
  `${ORDER}/vps`,
  `${ORDER}/vps/data-transfer-usage`,
  `${ORDER}/vps/host-server`,
  `${ORDER}/vps/parameters`,
  `${ORDER}/vps/reinstall`,
  `${ORDER}/vps/running-state`,
  `${ORDER}/ptr`,
  "/r/billing-methods",
  "/r/distributions",
  "/r/pricing-plans",
  "/r/pricing-plans/new-vm-pricing",
  "/r/data-centers",
];

export function sweepCases(): SweepCase[] {
  const cases: SweepCase[] = [];
  const add = (name: string, raw: string | Buffer) => cases.push({ name, raw });

  // URLs: bad percent-encoding, over-long segments, odd paths and matrix parameters.
  for (const bad of ["%ZZ", "%", "%4", "%E0%A4%A", "%C0%AF", "x%ZZy", "%%", "%G1"]) {
    add(`url ${ORDER}${bad}`, request("GET", `${ORDER}${bad}`));
    add(`url /r/orders;search=${bad}`, request("GET", `/r/orders;search=${bad}`));
    add(`url ${ORDER}${bad}/vps`, request("GET", `${ORDER}${bad}/vps`));
  }
  for (const n of [101, 999, 1001, 4000, 7000]) {
    add(`url order segment of ${n} chars`, request("GET", `/r/orders/order-1-${"a".repeat(n)}`));
    add(`url matrix of ${n} chars`, request("GET", `/r/orders;search=${"b".repeat(n)}`));
  }
  for (const target of [
    "/",
    "/r",
    "/r/",
    "//r//orders",
    "/r/orders/../orders",
    "/r/./orders",
    "/r/orders/order-",
    "/r/orders/order-abc-x",
    "/r/orders/order-99999999999999999999999-x",
    "/r/orders/order--1-x",
    "/r/orders/order-1-x/nothing",
    "/r/orders/order-1-x/vps/nothing",
    "/r/ORDERS",
    "/r/orders;;;",
    "/r/orders;=",
    "/r/orders;include_inactive",
    "/r/orders;include_inactive=%ZZ",
    "/r/orders;order_oids=abc",
    "/r/orders;dc_location=DCMARS",
    "/r/orders;server_type=BOAT",
    "/r/orders?include_inactive=Y",
    "/r/orders#frag",
    "/r/pricing-plans;price_under=cheap",
    "/r/pricing-plans/new-vm-pricing;memory_mb=lots",
    "http://127.0.0.1/r/orders",
    "*",
    "/r/orders/order-1-x/ptr;ip=999.1.1.1",
    "/r/\u00e9",
    "/r/orders/order-1-x%2Fvps",
    "/r/distributions/%00",
    "/__emulator/requests",
    "/favicon.ico",
  ]) {
    add(`url ${target.slice(0, 60)}`, request("GET", target));
  }

  // Methods: every method each path does not take (405), and methods Node does not know.
  for (const path of PATHS) {
    for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      add(`method ${method} ${path}`, request(method, path, { body: method === "GET" ? "" : "{}" }));
    }
  }
  for (const method of ["FOO", "get", "G ET", "TRACE", "CONNECT", "PROPFIND", "M-SEARCH", "PURGE", "LINK"]) {
    add(`method ${method}`, request(method, method === "CONNECT" ? "127.0.0.1:80" : "/r/orders"));
  }

  // Request lines that are not HTTP.
  for (const [name, raw] of [
    ["garbage line", "GARBAGE\r\n\r\n"],
    ["empty lines, then garbage", "\r\n\r\nGARBAGE\r\n\r\n"],
    ["no version", "GET /r/orders\r\n\r\n"],
    ["HTTP/9.9", "GET /r/orders HTTP/9.9\r\nHost: x\r\n\r\n"],
    ["HTTP/0.9 style", "GET /r/orders HTTP/0.9\r\n\r\n"],
    ["lower-case version", "GET /r/orders http/1.1\r\nHost: x\r\n\r\n"],
    ["HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"],
    ["two spaces", "GET  /r/orders  HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["tab separated", "GET\t/r/orders\tHTTP/1.1\r\nHost: x\r\n\r\n"],
    ["bare LF line", "GET /r/orders HTTP/1.1\nHost: x\n\n"],
    ["space in target", "GET /r/or ders HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["NUL in target", "GET /r/or\u0000ders HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["control char in target", "GET /r/\u0007 HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["JSON instead of HTTP", '{"new_order_request": {}}\r\n\r\n'],
  ] as const) {
    add(`line ${name}`, raw);
  }
  add("line TLS ClientHello", Buffer.from("160301020001000100fc0303", "hex"));
  add("line random bytes", Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256)));
  add("line very long", `GET /r/${"x".repeat(20000)} HTTP/1.1\r\nHost: x\r\n\r\n`);

  // Headers: oversized, malformed, contradictory, and odd values of the ones the API reads.
  const get = (headers: string) =>
    `GET /r/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`;
  add("header 20 KB value", get(`X-Big: ${"h".repeat(20000)}\r\n`));
  add(
    "header 200 headers of 100 bytes",
    get(Array.from({ length: 200 }, (_, i) => `X-H${i}: ${"v".repeat(100)}\r\n`).join("")),
  );
  add("header 17 KB authorization", get(`Authorization: rimuhosting apikey=${"1".repeat(17000)}\r\n`));
  for (const [name, header] of [
    ["no colon", "NoColonHere\r\n"],
    ["space before colon", "X-Bad : v\r\n"],
    ["empty name", ": v\r\n"],
    ["control char in value", "X-Ctl: a\u0001b\r\n"],
    ["NUL in value", "X-Nul: a\u0000b\r\n"],
    ["obsolete folding", "X-Fold: a\r\n  b\r\n"],
    ["invalid name char", "X(Bad): v\r\n"],
    ["two content-lengths", "Content-Length: 1\r\nContent-Length: 2\r\n"],
    ["negative content-length", "Content-Length: -1\r\n"],
    ["text content-length", "Content-Length: abc\r\n"],
    ["content-length and chunked", "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n"],
    ["unknown transfer-encoding", "Transfer-Encoding: gzip\r\n"],
    ["chunked then identity", "Transfer-Encoding: chunked, identity\r\n"],
  ] as const) {
    add(`header ${name}`, get(header));
  }
  add("header no Host", "GET /r/orders HTTP/1.1\r\nConnection: close\r\n\r\n");
  add("header two Hosts", "GET /r/orders HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n");
  for (const auth of [
    "",
    "rimuhosting",
    "rimuhosting apikey=",
    "rimuhosting apikey=wrong",
    "Bearer abc",
    "Basic Zm9vOmJhcg==",
    `rimuhosting apikey=${DEMO_API_KEY}${DEMO_API_KEY}`,
    "rimuhosting apikey=\u00ff\u00fe",
  ]) {
    add(
      `header authorization '${auth.slice(0, 30)}'`,
      `GET /r/orders HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${auth}\r\n\r\n`,
    );
  }
  // Expect: Node answers an expectation other than 100-continue itself, before any route runs.
  for (const expectation of ["bogus", "100-continue, bogus", "200-ok"]) {
    add(
      `header Expect ${expectation}`,
      request("POST", "/r/orders/new-vps", { headers: `Expect: ${expectation}\r\n`, body: "{}" }),
    );
  }
  for (const accept of ["text/html", "application/xml", "*/*", "garbage/;;;"]) {
    add(`header Accept ${accept}`, request("GET", "/r/orders", { headers: `Accept: ${accept}\r\n` }));
  }

  // Bodies: not JSON, JSON of the wrong shape, wrong types, too large, malformed chunking.
  const create = (body: string, headers = "Content-Type: application/json\r\n") =>
    request("POST", "/r/orders/new-vps", { body, headers });
  for (const body of [
    "{",
    "}",
    "{'single': 'quotes'}",
    '{"a":1,}',
    "nul",
    "[1,2",
    '"unterminated',
    "\u0000\u0001",
    "<xml/>",
    "a=b&c=d",
    "NaN",
    '{"new_order_request": }',
  ]) {
    add(`body not JSON ${JSON.stringify(body).slice(0, 30)}`, create(body));
  }
  for (const body of [
    "[]",
    "1",
    '"text"',
    "true",
    "null",
    "{}",
    '{"new_order_request": []}',
    '{"new_order_request": "x"}',
    '{"new_order_request": {"instantiation_options": "x"}}',
    '{"new_order_request": {"instantiation_options": {"domain_name": 7}}}',
    '{"new_order_request": {"instantiation_options": {"domain_name": "not a domain"}}}',
    '{"new_order_request": {"instantiation_options": {"domain_name": "a.example.com"}, "vps_parameters": {"memory_mb": "lots"}}}',
    '{"new_order_request": {"instantiation_options": {"domain_name": "a.example.com"}, "vps_parameters": {"memory_mb": -5}}}',
    '{"new_order_request": {"instantiation_options": {"domain_name": "a.example.com"}, "vps_parameters": {"memory_mb": 1e309}}}',
    '{"new_order_request": {"instantiation_options": {"domain_name": "a.example.com", "distro": "nope"}}}',
    '{"new_order_request": {"instantiation_options": {"domain_name": "a.example.com"}, "dc_location": "DCMARS"}}',
    '{"new_order_request": {"instantiation_options": {"domain_name": "a.example.com"}, "ip_request": {"num_ips": 99}}}',
    '{"__proto__": {"polluted": true}}',
    '{"constructor": {"prototype": {"polluted": true}}}',
    '{"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}}',
  ]) {
    add(`body shape ${body.slice(0, 40)}`, create(body));
  }
  add(
    "body form-encoded create",
    create("domain_name=a.example.com", "Content-Type: application/x-www-form-urlencoded\r\n"),
  );
  add("body text/plain JSON", create('{"new_order_request": {}}', "Content-Type: text/plain\r\n"));
  add("body unknown content type", create("{}", "Content-Type: application/x-nonsense\r\n"));
  add(
    "body content type with bad charset",
    create("{}", "Content-Type: application/json; charset=klingon\r\n"),
  );
  add("body 2 MiB", create(`{"x": "${"z".repeat(2 * 1024 * 1024)}"}`));
  add(
    "body shorter than Content-Length then more",
    request("PUT", `${ORDER}/vps/running-state`, { body: "{}" }).replace(
      "Content-Length: 2",
      "Content-Length: 1",
    ),
  );
  for (const [name, chunked] of [
    ["bad chunk size", "zz\r\n{}\r\n0\r\n\r\n"],
    ["chunk size too small", "1\r\n{}\r\n0\r\n\r\n"],
    ["missing chunk CRLF", "2\r\n{}0\r\n\r\n"],
  ] as const) {
    add(
      `body chunked ${name}`,
      `POST /r/orders/new-vps HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${AUTH}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`,
    );
  }
  for (const [path, body] of [
    [`${ORDER}/vps/running-state`, '{"running_state": "EXPLODED"}'],
    [`${ORDER}/vps/parameters`, '{"running_vps_data": {"memory_mb": "x"}}'],
    [`${ORDER}/vps/host-server`, '{"vps_move_request": {"host_server_oid": {}}}'],
    [`${ORDER}/ptr;ip=1.2.3.4`, "domain_name=%ZZ"],
    ["/r/pricing-plans/new-vm-pricing", '{"new_order_request": {"vps_parameters": {"memory_mb": -1}}}'],
  ] as const) {
    add(`body PUT ${path}`, request("PUT", path, { body, headers: "Content-Type: application/json\r\n" }));
  }
  return cases;
}

/** The status of each HTTP response in `text` and whether its body is in the envelope. */
function judge(name: string, received: string): SweepAnswer {
  // An interim answer (100 Continue to an Expect) comes before the real one, which is what is judged.
  const text = received.replace(/^(?:HTTP\/1\.[01] 1\d\d[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n)+/, "");
  const head = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n/.exec(text);
  if (!head) return { name, status: 0, problem: `no HTTP response (${JSON.stringify(text.slice(0, 80))})` };
  const status = Number(head[1]);
  const rest = text.slice(head[0].length);
  const length = /content-length:\s*(\d+)/i.exec(head[2]!);
  const body = length ? rest.slice(0, Number(length[1])) : rest;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { name, status, problem: `body is not JSON: ${JSON.stringify(body.slice(0, 80))}` };
  }
  const keys = Object.keys(parsed as object);
  if (keys.length !== 1) return { name, status, problem: `root keys ${JSON.stringify(keys)}` };
  const record = (parsed as Record<string, { status_code?: number; response_type?: string }>)[keys[0]!]!;
  if (record.status_code !== status) return { name, status, problem: `status_code ${record.status_code}` };
  if (status >= 400 && (keys[0] !== "jaxrs_response" || record.response_type !== "ERROR")) {
    return { name, status, problem: `error under ${keys[0]} with response_type ${record.response_type}` };
  }
  return { name, status };
}

/** Sends raw bytes on a new connection; resolves with everything the server sent before closing. */
export function sendRaw(port: number, raw: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy());
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.write(raw);
  });
}

async function send(port: number, testCase: SweepCase): Promise<SweepAnswer> {
  return judge(testCase.name, await sendRaw(port, testCase.raw));
}

/** Runs every case against a fresh emulator on loopback. */
export async function runSweep(): Promise<SweepResult> {
  const emulator = await startEmulator({ timeScale: 0 });
  try {
    const answers: SweepAnswer[] = [];
    for (const testCase of sweepCases()) answers.push(await send(emulator.port, testCase));
    const byStatus: Record<number, number> = {};
    for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    return {
      requests: answers.length,
      outsideEnvelope: answers.filter((a) => a.problem !== undefined),
      serverErrors: answers.filter((a) => a.status >= 500),
      byStatus,
    };
  } finally {
    await emulator.close();
  }
}

async function main(): Promise<void> {
  const result = await runSweep();
  console.log(`bad-request sweep: ${result.requests} raw requests over node:net`);
  console.log(`  answers by status: ${JSON.stringify(result.byStatus)}`);
  console.log(`  outside the envelope: ${result.outsideEnvelope.length}`);
  for (const a of result.outsideEnvelope) console.log(`    ${a.name}: ${a.status} ${a.problem}`);
  console.log(`  5xx: ${result.serverErrors.length}`);
  for (const a of result.serverErrors) console.log(`    ${a.name}: ${a.status}`);
  if (result.outsideEnvelope.length > 0 || result.serverErrors.length > 0) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
