/**
 * Client overhead: `client.listOrders()` (path building, headers, retry loop, root-key unwrap, zod
 * validation, logging hook) against raw `fetch` (Node's built-in, undici) of the same URL with only
 * JSON.parse, and against a raw got GET with the same keep-alive agent settings (what got itself costs),
 * side by side on one emulator in one run. Rounds rotate which side goes first so drift (GC, JIT
 * warm-up, emulator state) falls on all of them equally.
 *
 * Run: `npm run build && node dist/bench/client.js` (or via bench/index.ts, which calls benchClient()).
 */
import http from "node:http";
import { got } from "../provider/client/got.js";
import { DEMO_API_KEY, startEmulator } from "../emulator/index.js";
import { authorizationHeader } from "../contract/index.js";
import { createClient } from "../provider/client/index.js";

export interface ClientBenchOptions {
  /** Timed calls per side. Default 2000. */
  iterations?: number;
  /** Orders in the account, so GET /orders returns a realistic body. Default 10. */
  orders?: number;
  /** Where the report goes. Default console.log. */
  print?: (line: string) => void;
}

export interface SideStats {
  meanMs: number;
  medianMs: number;
  p95Ms: number;
}

export interface ClientBenchResult {
  iterations: number;
  orders: number;
  bodyBytes: number;
  /** Raw fetch. */
  raw: SideStats;
  /** Raw got, same agent settings as the client. */
  rawGot: SideStats;
  client: SideStats;
  /** client median / raw fetch median. */
  medianRatio: number;
  /** client median / raw got median. */
  gotMedianRatio: number;
  /** client median - raw fetch median, in ms. */
  overheadMs: number;
}

const WARM_UP = 200;
const ROUNDS = 10;

export async function benchClient(options: ClientBenchOptions = {}): Promise<ClientBenchResult> {
  const iterations = options.iterations ?? 2000;
  const orderCount = options.orders ?? 10;
  const print = options.print ?? ((line: string) => console.log(line));
  const emulator = await startEmulator({ timeScale: 0, seed: 1 });
  const client = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl, log: () => undefined });
  const agent = new http.Agent({ keepAlive: true });
  const raw = got.extend({
    prefixUrl: `${emulator.baseUrl}/`,
    agent: { http: agent },
    headers: { accept: "application/json", authorization: authorizationHeader(DEMO_API_KEY) },
    retry: { limit: 0 },
    responseType: "text",
  });
  try {
    for (let i = 0; i < orderCount; i++) {
      await client.createVps({
        instantiation_options: { domain_name: `bench${i}.example.com`, distro: "deb12.64" },
        pricing_plan_code: "MIRO1B",
        dc_location: "DCDALLAS",
      });
    }
    const headers = { accept: "application/json", authorization: authorizationHeader(DEMO_API_KEY) };
    const fetchCall = async () =>
      JSON.parse(await (await fetch(`${emulator.baseUrl}/orders`, { headers })).text()) as unknown;
    const gotCall = async () => JSON.parse((await raw.get("orders")).body) as unknown;
    const clientCall = () => client.listOrders();
    const bodyBytes = (await raw.get("orders")).body.length;

    for (let i = 0; i < WARM_UP; i++) {
      await fetchCall();
      await gotCall();
      await clientCall();
    }
    const rawTimes: number[] = [];
    const gotTimes: number[] = [];
    const clientTimes: number[] = [];
    const perRound = Math.max(1, Math.ceil(iterations / ROUNDS));
    for (let round = 0; round < ROUNDS; round++) {
      const sides: [() => Promise<unknown>, number[]][] = [
        [fetchCall, rawTimes],
        [gotCall, gotTimes],
        [clientCall, clientTimes],
      ];
      for (let r = 0; r < round % sides.length; r++) sides.push(sides.shift()!);
      for (const [call, times] of sides) {
        for (let i = 0; i < perRound; i++) {
          const started = performance.now();
          await call();
          times.push(performance.now() - started);
        }
      }
    }

    const rawStats = stats(rawTimes);
    const gotStats = stats(gotTimes);
    const clientStats = stats(clientTimes);
    const result: ClientBenchResult = {
      iterations: rawTimes.length,
      orders: orderCount,
      bodyBytes,
      raw: rawStats,
      rawGot: gotStats,
      client: clientStats,
      medianRatio: round3(clientStats.medianMs / rawStats.medianMs),
      gotMedianRatio: round3(clientStats.medianMs / gotStats.medianMs),
      overheadMs: round3(clientStats.medianMs - rawStats.medianMs),
    };
    print(
      `client bench: GET /orders (${orderCount} orders, ${bodyBytes} bytes), ${result.iterations} calls per side`,
    );
    print(`  side        mean ms  median ms  p95 ms`);
    print(`  raw fetch   ${fmt(rawStats.meanMs)}  ${fmt(rawStats.medianMs)}  ${fmt(rawStats.p95Ms)}`);
    print(`  raw got     ${fmt(gotStats.meanMs)}  ${fmt(gotStats.medianMs)}  ${fmt(gotStats.p95Ms)}`);
    print(
      `  client      ${fmt(clientStats.meanMs)}  ${fmt(clientStats.medianMs)}  ${fmt(clientStats.p95Ms)}`,
    );
    print(
      `  client / raw fetch  median ratio ${result.medianRatio.toFixed(2)} (overhead ${result.overheadMs} ms per call)`,
    );
    print(`  client / raw got    median ratio ${result.gotMedianRatio.toFixed(2)}`);
    return result;
  } finally {
    client.close();
    agent.destroy();
    await emulator.close();
  }
}

function stats(samples: number[]): SideStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return { meanMs: round3(mean), medianMs: round3(at(0.5)), p95Ms: round3(at(0.95)) };
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function fmt(n: number): string {
  return n.toFixed(3).padStart(9);
}

if (require.main === module) {
  benchClient().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
