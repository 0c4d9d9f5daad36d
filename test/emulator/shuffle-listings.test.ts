/**
 * The `shuffleListings` option: every R1 listing lists the same orders in a new order (from the seed), and each
 * order's secondary addresses too, so a client can be tested for not depending on the order RimuHosting lists them
 * in; without it the order is always the same.
 */
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { createVps } from "./fixtures.js";

async function listings(emu: TestEmulator, times: number): Promise<number[][]> {
  const lists: number[][] = [];
  for (let i = 0; i < times; i += 1) {
    const res = await emu.api<{ get_orders_response: { about_orders: { order_oid: number }[] } }>(
      "GET",
      "/orders",
    );
    lists.push(res.body.get_orders_response.about_orders.map((order) => order.order_oid));
  }
  return lists;
}

describe("shuffleListings", () => {
  it.each([
    [true, "the same orders, in more than one order"],
    [false, "always the same order"],
  ])("%s: %s", async (shuffleListings) => {
    const emu = await startTestEmulator({ shuffleListings, seed: 3 });
    try {
      for (let i = 0; i < 6; i += 1) await createVps(emu);
      const lists = await listings(emu, 4);
      const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
      for (const list of lists) expect(sorted(list)).toEqual(sorted(lists[0]!));
      expect(lists[0]).toHaveLength(6);
      const orders = new Set(lists.map((list) => list.join(",")));
      expect(orders.size > 1).toBe(shuffleListings);
    } finally {
      await emu.close();
    }
  });
});
