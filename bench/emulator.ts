/**
 * Emulator throughput, side by side in one run, each figure next to its target:
 *
 * - GET /r/orders with 900 active orders (1,000 on file, 100 deleted), when nothing changed since
 *   the last request (cached bytes), against a bare node:http server sending the same prebuilt bytes
 *   (the ceiling): target within 1.2x, i.e. ratio >= 0.83;
 * - the same listing when one order changed before every request, against a bare node:http server
 *   that JSON.stringifies the same body per request: target >= 1.0;
 * - small endpoints (one order, distributions, pricing plans) against a fastify hello world:
 *   target >= 0.5.
 *
 * The load comes from a worker thread (the other core), with keep-alive connections; the servers run
 * on the main thread. Rounds alternate the order of the sides so drift falls on all equally; each
 * figure is the median of the rounds. Response validation is off and request logging is off (the
 * library's defaults).
 *
 * Run: `npm run bench` (all benches) or `npm run build && node dist/bench/index.js emulator`.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import Fastify, { type FastifyInstance } from "fastify";
import { authorizationHeader } from "../contract/index.js";
import { DEMO_API_KEY, buildEmulator } from "../emulator/index.js";

export interface EmulatorBenchOptions {
  /** Orders created before measuring. Default 1000. */
  orders?: number;
  /** Of those, how many are deleted (inactive). Default 100. */
  deleted?: number;
  /** Milliseconds each side is measured per round. Default 1500. */
  msPerRound?: number;
  /** Rounds. Default 5. */
  rounds?: number;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  print?: (line: string) => void;
}

export interface Comparison {
  name: string;
  subject: number;
  baseline: number;
  ratio: number;
  target: number;
  met: boolean;
}

/** The load generator: keep-alive GETs of one URL for a while; posts back requests per second. */
const LOAD_SOURCE = `
const http = require("node:http");
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ url, headers, ms, concurrency }) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const end = Date.now() + ms;
  let done = 0, failed = 0, bytes = 0;
  const one = () => new Promise((resolve) => {
    http.get(url, { agent, headers }, (res) => {
      if (res.statusCode !== 200) failed++;
      res.on("data", (c) => { bytes += c.length; });
      res.on("end", resolve);
    }).on("error", () => { failed++; resolve(); });
  });
  const loop = async () => { while (Date.now() < end) { await one(); done++; } };
  const start = Date.now();
  Promise.all(Array.from({ length: concurrency }, loop)).then(() => {
    agent.destroy();
    parentPort.postMessage({ perSecond: done / ((Date.now() - start) / 1000), failed, bytesPerRequest: bytes / Math.max(1, done) });
  });
});
`;

interface Load {
  run(url: string, headers: Record<string, string>): Promise<number>;
  close(): Promise<void>;
}

function startLoad(ms: number, concurrency: number): Load {
  const worker = new Worker(LOAD_SOURCE, { eval: true });
  return {
    run: (url, headers) =>
      new Promise((resolve, reject) => {
        worker.once("message", (m: { perSecond: number; failed: number }) =>
          m.failed > 0 ? reject(new Error(`${m.failed} requests to ${url} failed`)) : resolve(m.perSecond),
        );
        worker.postMessage({ url, headers, ms, concurrency });
      }),
    close: () => worker.terminate().then(() => undefined),
  };
}

async function listenBare(
  handler: http.RequestListener,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer({ keepAliveTimeout: 60_000 }, handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function listenFastify(app: FastifyInstance): Promise<string> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const DCS = ["DCDALLAS", "DCLONDON", "DCSYDNEY", "DCFRANKFURT", "DCNY", "DCAUCKLAND", "DCBRISBANE"];

export async function benchEmulator(options: EmulatorBenchOptions = {}): Promise<Comparison[]> {
  const print = options.print ?? console.log;
  const orders = options.orders ?? 1000;
  const deleted = options.deleted ?? 100;
  const rounds = options.rounds ?? 5;
  const concurrency = options.concurrency ?? 8;
  const headers = { authorization: authorizationHeader(DEMO_API_KEY), accept: "application/json" };

  // Two emulators on the same seed and orders: one left alone, one where an order changes before
  // every request (as if something had happened since the last listing).
  const unchanged = await buildEmulator({ timeScale: 0 });
  const changing = await buildEmulator({ timeScale: 0 });
  let nextChange = 0;
  changing.addHook("onRequest", async () => {
    const all = changing.emulator.ctx.store.state.orders;
    changing.emulator.ctx.store.changed(all[nextChange++ % all.length]);
  });
  const hello = Fastify();
  hello.get("/", async () => ({ hello: "world" }));
  const closers: (() => Promise<unknown>)[] = [
    () => unchanged.close(),
    () => changing.close(),
    () => hello.close(),
  ];
  const load = startLoad(options.msPerRound ?? 1500, concurrency);
  closers.push(() => load.close());
  try {
    const [unchangedUrl, changingUrl, helloUrl] = [
      `${await listenFastify(unchanged)}/r`,
      `${await listenFastify(changing)}/r`,
      await listenFastify(hello),
    ];
    const seedStart = performance.now();
    for (const base of [unchangedUrl, changingUrl]) {
      const oids: number[] = [];
      for (let i = 0; i < orders; i++) {
        const res = await fetch(`${base}/orders/new-vps`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({
            new_order_request: {
              instantiation_options: { domain_name: `web-${i}.bench.example.com` },
              dc_location: DCS[i % DCS.length],
              vps_parameters: { memory_mb: 1024, disk_space_mb: 8192 },
            },
          }),
        });
        const body = (await res.json()) as { post_new_vps_response: { about_order: { order_oid: number } } };
        if (res.status !== 200) throw new Error(`seeding order ${i} failed: ${res.status}`);
        oids.push(body.post_new_vps_response.about_order.order_oid);
      }
      for (const oid of oids.slice(0, deleted)) {
        const res = await fetch(`${base}/orders/order-${oid}-x/vps`, { method: "DELETE", headers });
        await res.arrayBuffer();
      }
    }
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const listing = await (await fetch(`${unchangedUrl}/orders`, { headers })).text();
    const listingObject: unknown = JSON.parse(listing);
    const prebuilt = Buffer.from(listing);
    const contentType = "application/json; charset=utf-8";
    const bytes = await listenBare((_req, res) => {
      res.writeHead(200, { "content-type": contentType, "content-length": prebuilt.length });
      res.end(prebuilt);
    });
    const stringify = await listenBare((_req, res) => {
      const body = JSON.stringify(listingObject);
      res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
    closers.push(bytes.close, stringify.close);
    const someOrder = /"order_oid":(\d+)/.exec(listing)![1];

    const sides = {
      "listing, unchanged": `${unchangedUrl}/orders`,
      "prebuilt bytes (bare node:http)": bytes.url,
      "listing, one order changed": `${changingUrl}/orders`,
      "stringify per request (bare node:http)": stringify.url,
      "one order": `${unchangedUrl}/orders/order-${someOrder}-x`,
      distributions: `${unchangedUrl}/distributions`,
      "pricing plans": `${unchangedUrl}/pricing-plans`,
      "fastify hello world": `${helloUrl}/`,
    };
    const names = Object.keys(sides) as (keyof typeof sides)[];
    const results = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<
      keyof typeof sides,
      number[]
    >;
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        results[name].push(await load.run(sides[name], headers));
      }
    }
    const rate = (name: keyof typeof sides) => median(results[name]);
    const compare = (
      name: string,
      subject: keyof typeof sides,
      baseline: keyof typeof sides,
      target: number,
    ): Comparison => {
      const ratio = rate(subject) / rate(baseline);
      return { name, subject: rate(subject), baseline: rate(baseline), ratio, target, met: ratio >= target };
    };
    const comparisons = [
      compare(
        "listing unchanged / prebuilt bytes",
        "listing, unchanged",
        "prebuilt bytes (bare node:http)",
        1 / 1.2,
      ),
      compare(
        "listing changed / stringify per request",
        "listing, one order changed",
        "stringify per request (bare node:http)",
        1,
      ),
      compare("one order / fastify hello world", "one order", "fastify hello world", 0.5),
      compare("distributions / fastify hello world", "distributions", "fastify hello world", 0.5),
      compare("pricing plans / fastify hello world", "pricing plans", "fastify hello world", 0.5),
    ];
    print(
      `emulator: ${orders} orders on file (${deleted} deleted, ${orders - deleted} listed, ` +
        `${(prebuilt.length / 1e6).toFixed(2)} MB per listing); seeding took ${seedSeconds.toFixed(1)} s`,
    );
    print(`  load: a worker thread, ${concurrency} keep-alive connections; median of ${rounds} rounds`);
    for (const name of names) print(`  ${name.padEnd(40)} ${rate(name).toFixed(0).padStart(7)} req/s`);
    for (const c of comparisons) {
      print(
        `  ${c.name.padEnd(40)} ratio ${c.ratio.toFixed(2)}  target >= ${c.target.toFixed(2)}  ${c.met ? "met" : "MISSED"}`,
      );
    }
    return comparisons;
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

if (require.main === module) {
  benchEmulator().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
