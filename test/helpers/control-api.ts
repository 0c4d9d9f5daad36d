/**
 * Calls the emulator's control API (/__emulator/*, on with `control: true`) as a user's test does: plain fetch over
 * 127.0.0.1, JSON in and out.
 *
 *   const control = controlApi(emu.baseUrl);
 *   await control("POST", "/snapshots/baseline");
 */
import { expect } from "@jest/globals";

export interface ControlAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export function controlApi(baseUrl: string) {
  const root = baseUrl.replace(/\/r$/, "/__emulator");
  return async <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<ControlAnswer<T>> => {
    const res = await fetch(root + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  };
}

/**
 * What docs/emulator.md's recipe for the control API leaves in the emulator, in every language: the snapshot it
 * saved (one order), chaos back to no rules under its seed, and real time with no work waiting.
 */
export async function expectControlRecipeLeft(baseUrl: string): Promise<void> {
  const control = controlApi(baseUrl);
  expect((await control("GET", "/snapshots")).body).toEqual({
    snapshots: [expect.objectContaining({ name: "baseline", orders: 1 })],
  });
  expect((await control("GET", "/chaos")).body).toMatchObject({ seed: 42, rules: [] });
  expect((await control("GET", "/time")).body).toMatchObject({ timeScale: 1, work: [] });
}
