/**
 * A create left waiting on the emulator's clock (at time scale 1 it takes 45 s), for tests of time control: the
 * create's answer (not awaited), once the emulator lists its work in GET /__emulator/time. In an object: an async
 * function returning the promise itself would wait for it.
 */
import { controlApi } from "./control-api.js";
import { until } from "./promises.js";
import type { ApiResponse, TestEmulator } from "./start-emulator.js";

export async function pendingCreate(
  emu: TestEmulator,
  domain: string,
): Promise<{ answer: Promise<ApiResponse> }> {
  const control = controlApi(emu.baseUrl);
  const before = (await control<{ work: unknown[] }>("GET", "/time")).body.work.length;
  const answer = emu.api("POST", "/orders/new-vps", {
    new_order_request: { instantiation_options: { domain_name: domain } },
  });
  await until(`the create of ${domain} waiting on the clock`, async () => {
    return (await control<{ work: unknown[] }>("GET", "/time")).body.work.length > before;
  });
  return { answer };
}

/**
 * The create's answer, failing if it has not come within 10 s: at time scale 1 a create takes 45 s, so an answer
 * this soon means its work was finished by hand (or the scale changed). Not a measurement: a bound 4.5 times short.
 */
export async function answeredSoon<T>(answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("still waiting after 10 s: not advanced")), 10_000);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}
