/**
 * A fresh emulator on 127.0.0.1 (instant: timeScale 0) and the provider implementation configured
 * against it the way the host does it: configure() with namespaced stack config. Nothing via capture.
 */
import {
  DEMO_ACCOUNTS,
  DEMO_API_KEY,
  startEmulator,
  type RunningEmulator,
  type StartEmulatorOptions,
} from "../../../emulator/index";
import { createClient, type RimuClient } from "../../../provider/client/index";
import * as impl from "../../../provider/impl/index";

export interface ImplFixture {
  emulator: RunningEmulator;
  /** A client of the same account, to change things "by hand" behind the provider's back. */
  byHand: RimuClient;
  /** Provider log lines. */
  logs: string[];
  close(): Promise<void>;
}

/** Stack config as the engine sends it to configure(). */
export function stackConfig(
  baseUrl: string,
  apiKey: string = DEMO_API_KEY,
): { get(key: string): string | undefined } {
  const values: Record<string, string> = { "rimuhosting:apiKey": apiKey, "rimuhosting:baseUrl": baseUrl };
  return { get: (key) => values[key] };
}

export async function startImplFixture(options: StartEmulatorOptions = {}): Promise<ImplFixture> {
  delete process.env.RIMUHOSTING_APIKEY;
  delete process.env.RIMUHOSTING_BASEURL;
  const emulator = await startEmulator({ timeScale: 0, seed: 7, ...options });
  impl.resetConfiguration();
  await impl.configure({ config: stackConfig(emulator.baseUrl) });
  const logs: string[] = [];
  impl.setLogSink((line) => logs.push(line));
  const byHand = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
  return {
    emulator,
    byHand,
    logs,
    async close() {
      byHand.close();
      impl.resetConfiguration();
      await emulator.close();
    },
  };
}

export const OTHER_ACCOUNT_KEY = DEMO_ACCOUNTS[1]!.apiKey;
export { DEMO_API_KEY };
