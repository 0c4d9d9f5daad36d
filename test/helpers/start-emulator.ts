/**
 * A fresh emulator per test file (or per test): real HTTP on 127.0.0.1, random port, instant by
 * default (timeScale 0), always closed afterwards. Other areas' tests may use it.
 *
 *   const emu = await startTestEmulator();           // or useEmulator() from ./use-emulator.js in jest
 *   await emu.api("GET", "/orders");                  // baseUrl, DEMO_API_KEY, JSON in and out
 *   await emu.close();
 *
 * This file has no jest dependency, so it also works from plain node (test/engine).
 */
import { randomInt } from "node:crypto";
import {
  DEMO_API_KEY,
  type RunningEmulator,
  type StartEmulatorOptions,
  startEmulator,
} from "../../emulator/index.js";

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined if the body was not JSON). */
  body: T;
  text: string;
}

export interface ApiOptions {
  /** API key to send; `null` sends no Authorization header. Default: DEMO_API_KEY. */
  apiKey?: string | null;
  /** Raw body text (sent as is) instead of JSON.stringify(body). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface TestEmulator extends RunningEmulator {
  /** Calls the API: `path` is relative to baseUrl (e.g. "/orders;include_inactive=Y"). */
  api<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    options?: ApiOptions,
  ): Promise<ApiResponse<T>>;
}

/**
 * An address of its own on loopback (all of 127.0.0.0/8 is), for an emulator whose base URL must be this test's
 * alone: the budget's plan files are named by the account's base URL, key and stack and read for a day, so a file
 * another test left for an emulator at 127.0.0.1 and the port this one got again is taken for this account's previewed
 * plan (a flake of order-guard.test.ts in CI: a refusal left to a preview step).
 */
export function ownLoopbackHost(): string {
  return `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
}

export async function startTestEmulator(options: StartEmulatorOptions = {}): Promise<TestEmulator> {
  // Responses are checked against the contract in tests (it catches emulator bugs); users' default is off.
  const running = await startEmulator({ timeScale: 0, validateResponses: true, ...options });
  const api = async <T>(method: string, urlPath: string, body?: unknown, opts: ApiOptions = {}) => {
    const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
    const key = opts.apiKey === undefined ? DEMO_API_KEY : opts.apiKey;
    if (key !== null) headers.authorization = `rimuhosting apikey=${key}`;
    let payload: string | undefined;
    if (opts.raw !== undefined) payload = opts.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers["content-type"] = opts.contentType ?? "application/json";
    const res = await fetch(running.baseUrl + urlPath, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  return Object.assign(running, { api });
}
