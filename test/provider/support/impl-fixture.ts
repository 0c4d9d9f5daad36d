/**
 * A fresh emulator on 127.0.0.1 (instant: timeScale 0; every answer checked against the contract's
 * schema, so an emulator bug fails the test instead of passing as the provider's) and the provider
 * implementation configured against it the way the host does it: configure() with namespaced stack config.
 * Nothing via capture.
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
import * as testing from "../../../provider/impl/testing";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import { rejectionOf as sharedRejectionOf } from "../../helpers/promises";
import { ownLoopbackHost } from "../../helpers/start-emulator";

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

/** The same, with the provider's `settings` (their keys without "rimuhosting:") over it. */
export function stackConfigWith(
  baseUrl: string,
  settings: Record<string, string>,
): { get(key: string): string | undefined } {
  const base = stackConfig(baseUrl);
  return { get: (key) => settings[key.replace("rimuhosting:", "")] ?? base.get(key) };
}

export async function startImplFixture(options: StartEmulatorOptions = {}): Promise<ImplFixture> {
  delete process.env.RIMUHOSTING_APIKEY;
  delete process.env.RIMUHOSTING_BASEURL;
  // An address of its own on loopback: plan files are named by the base URL (ownLoopbackHost()).
  const host = ownLoopbackHost();
  const emulator = await startEmulator({ timeScale: 0, seed: 7, validateResponses: true, host, ...options });
  testing.resetConfiguration();
  // No backend in-process: an order of another state is never taken back, unless a test says which states exist.
  testing.setBackendReader({
    states: async () => ({ stacks: [], unread: "an in-process test has no backend" }),
    runs: async () => ({ unread: "an in-process test has no backend" }),
    recordRun: async () => ({ why: "an in-process test has no backend" }),
    recordTakeBack: async () => ({ why: "an in-process test has no backend" }),
  });
  // One backend: every stack's identity is its names' (tests of other backends' stacks set a reader of their own).
  testing.setStackIdentityReader(async ({ project, stack }) => ({
    mark: `id3-one-backend-${project}-${stack}`,
  }));
  await impl.configure({ config: stackConfig(emulator.baseUrl) });
  const logs: string[] = [];
  testing.setLogSink((line) => logs.push(line));
  const byHand = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
  return {
    emulator,
    byHand,
    logs,
    async close() {
      byHand.close();
      testing.resetConfiguration();
      testing.setBackendReader(undefined);
      testing.setStackIdentityReader(undefined);
      await emulator.close();
    },
  };
}

/** The order numbers of the account's active orders, as the fixture's own client lists them. */
export async function activeOrderOids(fixture: ImplFixture): Promise<number[]> {
  return ((await fixture.byHand.listOrders({ includeInactive: false })).about_orders ?? []).map(
    (o) => o.order_oid,
  );
}

export const OTHER_ACCOUNT_KEY = DEMO_ACCOUNTS[1]!.apiKey;
export { DEMO_API_KEY };

/** Inputs of one typical VPS as a program gives them (with what the Vps class adds). */
export const APP_INPUTS = {
  domainName: "app1.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  memoryMb: 1024,
  diskSpaceMb: 20480,
  creationScope: "shop/prod/app",
  __provider: "text",
} satisfies VpsInputs;

/** A program's values as the engine hands them, not checked (check() is where they are parsed). */
export const unchecked = (values: Record<string, unknown>): VpsInputs => values as VpsInputs;

/** A fresh fixture per test (beforeEach/afterEach); call at the top of a test file. */
export function useImplFixture(options: StartEmulatorOptions = {}): () => ImplFixture {
  let fx: ImplFixture | undefined;
  beforeEach(async () => {
    fx = await startImplFixture(options);
  });
  afterEach(async () => {
    await fx?.close();
  });
  return () => fx!;
}

/** check() as the engine runs it, then create() with the checked inputs. */
export async function createChecked(inputs: Record<string, unknown>) {
  const checked = await impl.check({}, inputs);
  expect(checked.failures).toBeUndefined();
  return { ...(await impl.create(checked.inputs)), inputs: checked.inputs };
}

/** The error a provider call rejects with (test/helpers/promises.ts), typed as the provider's errors by default. */
export const rejectionOf: <E = impl.VpsIncompleteError & impl.VpsForeignOrderError>(
  promise: Promise<unknown>,
) => Promise<E> = sharedRejectionOf;

/**
 * check() as the core returns it (impl.checkVps): each failure keeps its input in `property` (the dynamic
 * provider's check() presents it as one coded line with an empty property, see presentFailure), and no
 * `failures` key when there are none.
 */
export async function checkCore(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<{ inputs: Record<string, unknown>; failures?: { property: string; reason: string }[] }> {
  const result = await impl.checkVps(olds, news);
  if (result.failures.length === 0) return { inputs: result.inputs };
  return {
    inputs: result.inputs,
    failures: result.failures.map(({ property, reason }) => ({ property, reason })),
  };
}
