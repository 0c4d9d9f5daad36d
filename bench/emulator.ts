/**
 * Emulator throughput: GET /r/orders with 1,000 orders on file, over loopback, in several shapes side
 * by side in one run (active orders only, include_inactive=Y, a search that matches one order).
 * Rounds alternate the shapes so drift (GC, JIT warm-up) falls on all of them equally. Bounded by a
 * request count and a time budget per shape.
 *
 * Run: `npm run bench` (all benches) or `npm run build && node dist/bench/index.js emulator`.
 */
import { DEMO_API_KEY, startEmulator } from "../emulator/index.js";
import { authorizationHeader } from "../contract/index.js";

export interface EmulatorBenchOptions {
  /** Orders created before measuring. Default 1000. */
  orders?: number;
  /** Of those, how many are deleted (inactive). Default 100. */
  cancelled?: number;
  /** Requests per shape per round. Default 100. */
  requestsPerRound?: number;
  /** Rounds; shapes alternate within each. Default 3. */
  rounds?: number;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  /** Time budget per shape in ms; a shape stops early when it is used up. Default 20000. */
  maxMsPerShape?: number;
  print?: (line: string) => void;
}

export interface ShapeResult {
  shape: string;
  path: string;
  ordersReturned: number;
  bytes: number;
  requests: number;
  requestsPerSecond: number;
  meanLatencyMs: number;
}

export interface EmulatorBenchResult {
  seedCreatesPerSecond: number;
  shapes: ShapeResult[];
}

const DCS = ["DCDALLAS", "DCLONDON", "DCSYDNEY", "DCFRANKFURT", "DCNY", "DCAUCKLAND", "DCBRISBANE"];

async function runPool(
  total: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}

export async function benchEmulator(options: EmulatorBenchOptions = {}): Promise<EmulatorBenchResult> {
  const print = options.print ?? console.log;
  const orders = options.orders ?? 1000;
  const cancelled = options.cancelled ?? 100;
  const perRound = options.requestsPerRound ?? 100;
  const rounds = options.rounds ?? 3;
  const concurrency = options.concurrency ?? 8;
  const maxMsPerShape = options.maxMsPerShape ?? 20_000;
  const emulator = await startEmulator({ timeScale: 0 });
  const headers = { authorization: authorizationHeader(DEMO_API_KEY), accept: "application/json" };
  try {
    const oids: number[] = [];
    const seedStart = performance.now();
    await runPool(orders, concurrency, async (i) => {
      const res = await fetch(`${emulator.baseUrl}/orders/new-vps`, {
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
      if (res.status !== 200) throw new Error(`seeding order ${i} failed: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { post_new_vps_response: { about_order: { order_oid: number } } };
      oids[i] = body.post_new_vps_response.about_order.order_oid;
    });
    const seedCreatesPerSecond = orders / ((performance.now() - seedStart) / 1000);
    await runPool(cancelled, concurrency, async (i) => {
      const res = await fetch(`${emulator.baseUrl}/orders/order-${oids[i]}-x/vps`, {
        method: "DELETE",
        headers,
      });
      if (res.status !== 200) throw new Error(`cancelling failed: ${res.status}`);
      await res.arrayBuffer();
    });

    const shapes = [
      { shape: "active orders (default)", path: "/orders" },
      { shape: "include_inactive=Y", path: "/orders;include_inactive=Y" },
      { shape: "search (one match)", path: `/orders;search=web-${orders - 1}.bench` },
    ];
    const stats = shapes.map((s) => ({
      ...s,
      requests: 0,
      ms: 0,
      latencyMs: 0,
      bytes: 0,
      ordersReturned: 0,
    }));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? stats : [...stats].reverse();
      for (const s of order) {
        if (s.ms >= maxMsPerShape) continue;
        const start = performance.now();
        await runPool(perRound, concurrency, async () => {
          const t0 = performance.now();
          const res = await fetch(emulator.baseUrl + s.path, { headers });
          // Only the first body is parsed: the bench measures the emulator, not the client's JSON.parse.
          const body = s.bytes === 0 ? await res.text() : undefined;
          if (body === undefined) await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`GET ${s.path} answered ${res.status}`);
          s.latencyMs += performance.now() - t0;
          if (body !== undefined) {
            s.bytes = Buffer.byteLength(body);
            s.ordersReturned = (
              JSON.parse(body) as { get_orders_response: { about_orders: unknown[] } }
            ).get_orders_response.about_orders.length;
          }
        });
        s.ms += performance.now() - start;
        s.requests += perRound;
      }
    }
    const results: ShapeResult[] = stats.map((s) => ({
      shape: s.shape,
      path: s.path,
      ordersReturned: s.ordersReturned,
      bytes: s.bytes,
      requests: s.requests,
      requestsPerSecond: Math.round((s.requests / (s.ms / 1000)) * 10) / 10,
      meanLatencyMs: Math.round((s.latencyMs / s.requests) * 100) / 100,
    }));
    print(
      `emulator: GET /r/orders over loopback, ${orders} orders on file (${cancelled} cancelled), concurrency ${concurrency}`,
    );
    print(`  seeding: ${seedCreatesPerSecond.toFixed(1)} creates/s (timeScale 0)`);
    for (const r of results) {
      print(
        `  ${r.shape.padEnd(26)} ${String(r.requestsPerSecond).padStart(8)} req/s  mean ${r.meanLatencyMs} ms  ` +
          `(${r.requests} requests, ${r.ordersReturned} orders, ${(r.bytes / 1024).toFixed(0)} KiB per response)  ${r.path}`,
      );
    }
    return { seedCreatesPerSecond, shapes: results };
  } finally {
    await emulator.close();
  }
}

if (require.main === module) {
  benchEmulator().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
