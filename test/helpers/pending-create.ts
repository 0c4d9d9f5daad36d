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
