// The ledger of what a run's changes take of a host (provider/impl/host-room.ts), as the look-ahead uses it: each
// check judges its need beside the claims made before it and claims it when it fits. Whether the run fails must not
// depend on the order the engine checks in; the end-to-end cases (both front ends, through the CLI) are the rows
// fleet-resize-no-room and fleet-new-no-room of test/engine/preview-cases.ts.
import { HostLedger, claimsWords, shortOf, sumOf, type HostFree } from "../../../provider/impl/host-room";

/** Every order of `items`. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** The checks of `needs` (MB of memory, by resource) in `order`, as the look-ahead makes them: the ones that fail. */
function run(free: HostFree, needs: Record<string, number>, order: string[]): string[] {
  const ledger = new HostLedger();
  const failed: string[] = [];
  for (const name of order) {
    const need = { memoryMb: needs[name]!, diskMb: 0 };
    if (shortOf(free, ledger.others("836", name), need).length === 0)
      ledger.claim("836", name, { ...need, name });
    else failed.push(name);
  }
  return failed;
}

describe("the host ledger", () => {
  const fleets: Record<string, number>[] = [
    { a: 2048, b: 2048, c: 2048, d: 2048 }, // four resizes of 2 GB on a host with 2 GB free: the case
    { a: 512, b: 512, c: 512, d: 512 }, // they fit together
    { a: 1500, b: 300, c: 200 }, // exactly the room: fits
    { a: 1500, b: 300, c: 249 }, // one MB over
    { a: 5000, b: 100 }, // one that does not fit even alone
  ];

  test.each(fleets.map((fleet) => [JSON.stringify(fleet), fleet] as const))(
    "%s on 2048 MB free: the run fails in every order exactly when the sum does not fit",
    (_name, fleet) => {
      const free = { memoryMb: 2048 };
      const fits = Object.values(fleet).reduce((a, b) => a + b, 0) <= free.memoryMb;
      for (const order of permutations(Object.keys(fleet))) {
        const failed = run(free, fleet, order);
        expect({ order, fails: failed.length > 0 }).toEqual({ order, fails: !fits });
      }
    },
  );

  test("the one that fails is the first the sum does not fit; a failed check claims nothing", () => {
    expect(run({ memoryMb: 2048 }, { a: 2048, b: 2048, c: 2048, d: 2048 }, ["a", "b", "c", "d"])).toEqual([
      "b",
      "c",
      "d",
    ]);
    // a fails alone; b and c still fit beside each other
    expect(run({ memoryMb: 2048 }, { a: 5000, b: 1024, c: 1024 }, ["a", "b", "c"])).toEqual(["a"]);
  });

  test("a resource checked again replaces its claim; an applied change gives its claims up", () => {
    const ledger = new HostLedger();
    ledger.claim("836", "a", { memoryMb: 2048, diskMb: 0, name: "a" });
    ledger.claim("836", "a", { memoryMb: 1024, diskMb: 0, name: "a" });
    ledger.claim("764", "a", { memoryMb: 512, diskMb: 0, name: "a" });
    expect(sumOf(ledger.others("836", "b"))).toEqual({ memoryMb: 1024, diskMb: 0 });
    expect(ledger.others("836", "a")).toEqual([]);
    expect(ledger.settle("a").sort()).toEqual(["764", "836"]);
    expect(ledger.others("836", "b")).toEqual([]);
  });

  test("disk is judged in whole GB, as RimuHosting reports a host's free disk", () => {
    expect(
      shortOf({ diskGb: 10 }, [{ memoryMb: 0, diskMb: 5 * 1024 }], { memoryMb: 0, diskMb: 5 * 1024 }),
    ).toEqual([]);
    expect(
      shortOf({ diskGb: 10 }, [{ memoryMb: 0, diskMb: 5 * 1024 }], { memoryMb: 0, diskMb: 5 * 1024 + 1 }),
    ).toEqual(["disk"]);
  });

  test("a message names the first five claims and counts the rest", () => {
    const claims = Array.from({ length: 7 }, (_, i) => ({ memoryMb: 1024, diskMb: 0, name: `web-${i}` }));
    expect(claimsWords(claims)).toBe(
      "web-0 takes 1024 MB memory, web-1 takes 1024 MB memory, web-2 takes 1024 MB memory, " +
        "web-3 takes 1024 MB memory, web-4 takes 1024 MB memory and 2 more take 2048 MB memory",
    );
  });
});
