/**
 * A fresh emulator on 127.0.0.1 (random port, instant time) and a client pointed at it, with every
 * log line kept so tests can assert on retries and scan for the API key, and a fake clock for its waits.
 */
import { DEMO_ACCOUNTS, DEMO_API_KEY, type StartEmulatorOptions } from "../../../emulator/index.js";
import { startTestEmulator, type TestEmulator } from "../../helpers/start-emulator.js";
import { createClient, type ClientConfig, type RimuClient } from "../../../provider/client/index.js";

export { DEMO_ACCOUNTS, DEMO_API_KEY };

export interface ClientFixture {
  emulator: TestEmulator;
  client: RimuClient;
  logs: string[];
  /**
   * The waits the clients asked for (retry backoff, Retry-After, create lookups), in milliseconds: the
   * clients' clock is a fake that records each wait and returns at once, so no test sleeps through them.
   */
  sleeps: number[];
  /** Another client on the same emulator (e.g. another account's key). */
  clientWith(config: Partial<ClientConfig>): RimuClient;
  close(): Promise<void>;
}

/** Fast retries so fault tests do not wait; real backoff sizes are covered by calculateDelay's tests. */
export const FAST_RETRY = { limit: 3, baseDelayMs: 1, maxDelayMs: 20 };

export async function startClientFixture(
  options: { emulator?: StartEmulatorOptions; client?: Partial<ClientConfig> } = {},
): Promise<ClientFixture> {
  const emulator = await startTestEmulator({ seed: 7, ...options.emulator });
  const logs: string[] = [];
  const sleeps: number[] = [];
  const clients: RimuClient[] = [];
  const clientWith = (config: Partial<ClientConfig>) => {
    const client = createClient({
      apiKey: DEMO_API_KEY,
      baseUrl: emulator.baseUrl,
      retry: FAST_RETRY,
      log: (line) => logs.push(line),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...options.client,
      ...config,
    });
    clients.push(client);
    return client;
  };
  const client = clientWith({});
  return {
    emulator,
    client,
    logs,
    sleeps,
    clientWith,
    async close() {
      for (const c of clients) c.close();
      await emulator.close();
    },
  };
}

/** A valid create request for the emulator's catalogue. */
export function newVpsRequest(domain = "web1.example.com") {
  return {
    instantiation_options: { domain_name: domain, distro: "deb12.64" },
    pricing_plan_code: "MIRO1B",
    dc_location: "DCDALLAS" as const,
    vps_parameters: { memory_mb: 1024, disk_space_mb: 8192 },
  };
}
