import { startTestEmulator } from "../helpers/start-emulator.js";
import { createVps } from "./fixtures.js";

async function firstCreate(seed: number) {
  const emu = await startTestEmulator({ seed });
  try {
    const created = await createVps(emu, {}, { domain: "seeded.example.com" });
    return {
      oid: created.about_order.order_oid,
      password: created.new_order_request?.instantiation_options?.password,
      ip: created.about_order.allocated_ips?.primary_ip,
      billingOid: created.about_order.billing_oid,
    };
  } finally {
    await emu.close();
  }
}

describe("seed", () => {
  test("seed: the same seed gives the same ids, password and IP; another seed different ids and password", async () => {
    const a = await firstCreate(42);
    const b = await firstCreate(42);
    const c = await firstCreate(43);
    expect(b).toEqual(a);
    expect(c.oid).not.toBe(a.oid);
    expect(c.password).not.toBe(a.password);
  });
});
