/**
 * The read-backs after a fleet's changes (provider/impl/account/read-backs.ts): one listing serves the read-backs of
 * every change under way, started once the last of them returned, not the gap after the first (issue 90: a 500-VPS
 * update's last read-back waited for the next listing); and a change still under way holds no read-back past the gap.
 * The listing here is a function that counts its calls: what a listing is read from is the account view's.
 */
import type { AboutOrder } from "../../../contract/index";
import { ReadBacks } from "../../../provider/impl/account/read-backs";

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A listing of the account that says which it was (the first, the second…). */
function countedListing(): { list: () => Promise<AboutOrder[]>; started: number[] } {
  const started: number[] = [];
  const list = async () => {
    started.push(started.length + 1);
    await pause(20);
    return [
      { order_oid: started.length, domain_name: `listing-${started.length}.example.com` } as AboutOrder,
    ];
  };
  return { list, started };
}

it("the read-backs of changes returning within the gap share one listing, started after the last returned", async () => {
  const { list, started } = countedListing();
  const readBacks = new ReadBacks(list, 1_000);
  const changes = [readBacks.begin(), readBacks.begin(), readBacks.begin()];
  const asked: Promise<AboutOrder[]>[] = [];
  for (const over of changes) {
    asked.push(readBacks.after(over));
    await pause(50);
  }
  const listings = await Promise.all(asked);
  expect(started).toEqual([1]);
  expect(listings.map((orders) => orders[0]!.order_oid)).toEqual([1, 1, 1]);
});

it("a change still under way holds the others' read-backs no longer than the gap", async () => {
  const { list, started } = countedListing();
  const readBacks = new ReadBacks(list, 200);
  readBacks.begin(); // never returns within this test
  const listing = await readBacks.after(readBacks.begin());
  expect(started).toEqual([1]);
  expect(listing[0]!.order_oid).toBe(1);
});

it("a single change is read back at once, and one that ended without a read-back holds nothing", async () => {
  const { list, started } = countedListing();
  const readBacks = new ReadBacks(list, 60_000);
  const unchanged = readBacks.begin();
  const over = readBacks.begin();
  unchanged();
  await readBacks.after(over);
  expect(started).toEqual([1]);
});
