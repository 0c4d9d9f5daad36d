// Room on a host for a whole run (provider/impl/account/host-room.ts, host-checks.ts): the rule that sets claims aside, and
// check() itself (L1, against the emulator) run the way the engine runs it: one resource at a time, in every order,
// stopping at the first check that fails. The same claims name the same VPSs to set aside whatever order they were
// checked in; but a failing check knows only the claims checked before it, so what it names can depend on the order
// (7, 6 and 6 GB below), and the message says a later preview may name more. For 4, 8 and 4 GB every order names big,
// and without it the rest pass. Through the real CLI on both front ends, once each (the wiring: the engine's order of
// checks is tried here in full): the preview case table's rows fleet-new-no-room (test/engine/refused-order-cases.ts)
// and fleet-resize-no-room (test/engine/refused-change-cases.ts).
import { DEMO_ACCOUNTS } from "../../../emulator/index";
import { createClient } from "../../../provider/client/index";
import * as impl from "../../../provider/impl/index";
import * as native from "../../../provider/native/vps-resource";
import * as testing from "../../../provider/impl/testing";
import {
  HostLedger,
  roomRefusal,
  setAside,
  shortOf,
  sumOf,
  type Claim,
  type HostFree,
} from "../../../provider/impl/account/host-room";
import { APP_INPUTS, createChecked, useImplFixture } from "../support/impl-fixture";

/** Every order of `items`. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

const claim = (name: string, memoryMb: number, diskMb = 0): Claim => ({
  name,
  memoryMb,
  diskMb,
  kind: "new",
});
const names = (claims: readonly Claim[]) => claims.map((c) => c.name);
const byFigures = (free: HostFree) => (rest: Claim[]) => shortOf(free, rest);

describe("the rule: the claims that take the most of what is short are set aside until the rest fit", () => {
  test.each([
    [
      "4, 8 and 4 GB on 10 GB: the 8 GB one",
      10240,
      [claim("a", 4096), claim("big", 8192), claim("b", 4096)],
      ["big"],
    ],
    [
      "7, 6 and 5 GB on 10 GB: as few as can be, largest first",
      10240,
      [claim("a", 7168), claim("b", 6144), claim("c", 5120)],
      ["a", "b"],
    ],
    [
      "four of 2 GB on 2 GB: ties go to the name that sorts last",
      2048,
      ["a", "b", "c", "d"].map((n) => claim(n, 2048)),
      ["d", "c", "b"],
    ],
    ["they fit: none", 2048, [claim("a", 1024), claim("b", 1024)], []],
  ])("%s", async (_what, freeMb, claims, aside) => {
    // A set, not a sequence: every order of the same claims sets aside the same ones.
    for (const order of permutations(claims))
      expect({
        order: names(order),
        aside: names(await setAside(order, byFigures({ memoryMb: freeMb }))),
      }).toEqual({
        order: names(order),
        aside,
      });
  });

  test("the ledger: a resource checked again replaces its claim; an applied change gives its claims up", () => {
    const ledger = new HostLedger();
    ledger.claim("836", "a", claim("a", 2048));
    ledger.claim("836", "a", claim("a", 1024));
    ledger.claim("764", "a", claim("a", 512));
    expect(sumOf(ledger.others("836", "b"))).toEqual({ memoryMb: 1024, diskMb: 0 });
    expect(ledger.others("836", "a")).toEqual([]);
    expect(ledger.settle("a").sort()).toEqual(["764", "836"]);
    expect(ledger.others("836", "b")).toEqual([]);
  });

  test("disk, judged in whole GB as RimuHosting reports a host's free disk: the most disk goes first", async () => {
    const free = { memoryMb: 100_000, diskGb: 10 };
    expect(shortOf(free, [claim("a", 0, 5 * 1024), claim("b", 0, 5 * 1024)])).toEqual([]);
    expect(shortOf(free, [claim("a", 0, 5 * 1024), claim("b", 0, 5 * 1024 + 1)])).toEqual(["disk"]);
    const aside = await setAside(
      [claim("a", 8192, 1024), claim("b", 1024, 9 * 1024), claim("c", 0, 2048)],
      byFigures(free),
    );
    expect(names(aside)).toEqual(["b"]);
  });

  test("the message of new VPSs speaks of new VPSs, lists every claim by name, and says what to do with the ones set aside", () => {
    const claims = [claim("small-a", 4096), claim("big", 8192), claim("small-b", 4096)];
    expect(roomRefusal("835", claims, [claims[1]!], { free: { memoryMb: 10240, diskGb: 7660 } })).toBe(
      "host 835 has 10240 MB memory and 7660 GB disk free, and this run's new VPSs on it take 16384 MB memory " +
        "together: big (new) takes 8192 MB memory, small-a (new) takes 4096 MB memory, small-b (new) takes 4096 MB " +
        "memory. Without big the rest fit: leave big out of this run, or give it another host (hostServerOid, or " +
        "leave it out of a new VPS to let RimuHosting choose). This counts the changes on host 835 checked so far " +
        "in this run; changes not yet checked are not counted, so a later preview may name more",
    );
  });
});

describe("check() of a run's VPSs on one host, in every order (L1)", () => {
  const fixture = useImplFixture();
  const PREVIEW = { __preview: true } as const;
  const SIZES: Record<string, number> = { "small-a": 4096, big: 8192, "small-b": 4096 };
  const MORE_SIZES: Record<string, number> = { a: 7168, b: 6144, c: 6144 };
  const newVps = (name: string, host: string) => ({
    ...APP_INPUTS,
    domainName: `${name}.example.com`,
    creationScope: `shop/prod/${name}`,
    memoryMb: SIZES[name] ?? MORE_SIZES[name]!,
    hostServerOid: host,
    ...PREVIEW,
  });

  /** Another account's VPS that leaves `freeMb` of host 835's memory free (its 2048 MB reserve aside). */
  async function fillHost835(freeMb: number, alreadyUsedMb = 0): Promise<void> {
    const alice = createClient({ apiKey: DEMO_ACCOUNTS[1]!.apiKey, baseUrl: fixture().emulator.baseUrl });
    try {
      await alice.createVps({
        instantiation_options: { domain_name: "filler.example.com", distro: "deb12.64" },
        dc_location: "DCDALLAS",
        host_server_oid: "835",
        vps_parameters: { memory_mb: 196608 - 2048 - alreadyUsedMb - freeMb },
      });
    } finally {
      alice.close();
    }
  }

  /** The checks of `vpss` in `order`, as the engine runs them: one at a time, stopping at the first that fails. */
  async function checkInOrder(
    order: string[],
    inputs: (name: string) => [Record<string, unknown>, Record<string, unknown>],
  ): Promise<{ failedOn?: string; reason?: string; checked: number }> {
    testing.forgetRun(); // a new provider process: a new run
    for (const [i, name] of order.entries()) {
      const [olds, news] = inputs(name);
      const { failures } = await impl.check(olds, news);
      if (failures)
        return { failedOn: name, reason: failures.map((f) => f.reason).join("\n"), checked: i + 1 };
    }
    return { checked: order.length };
  }

  const asideIn = (reason = "") => /Without (.*?) the rest fit/.exec(reason)?.[1];

  test.each([
    ["a host the account has no VPS on (RimuHosting's quote judges the sums)", false],
    ["a host the account has a VPS on (its free figures judge them)", true],
  ])(
    "4, 8 and 4 GB new on 10 GB free, %s: every order names big, and without it they pass",
    async (_what, resident) => {
      if (resident)
        await createChecked({
          ...newVps("small-a", "835"),
          creationScope: "shop/prod/resident",
          domainName: "resident.example.com",
          memoryMb: 1024,
          __preview: false,
        });
      await fillHost835(10240, resident ? 1024 : 0);
      const inputs = (name: string): [Record<string, unknown>, Record<string, unknown>] => [
        {},
        newVps(name, "835"),
      ];
      for (const order of permutations(Object.keys(SIZES))) {
        const run = await checkInOrder(order, inputs);
        expect({ order, aside: asideIn(run.reason) }).toEqual({ order, aside: "big" });
        expect(run.reason).toMatch(/^\[RIMU_ERR_CONFLICT\] hostServerOid: host 835 /);
        expect(run.reason).toMatch(/this run's new VPSs on it/);
        // docs/vps.md's example: what the preview prints whichever order the engine checked them in.
        expect(run.reason).toMatch(/: big \(new\) takes 8192 MB memory\b/);
        expect(run.reason).toMatch(/leave big out of this run, or give it another host/);
        expect(run.reason).not.toMatch(/more than one run|order's current state|grow them|without a preview/);
        const without = await checkInOrder(
          order.filter((name) => name !== "big"),
          inputs,
        );
        expect({ order, failed: without.reason }).toEqual({ order, failed: undefined });
      }
    },
  );

  test("7, 6 and 6 GB new on 10 GB free: what the failing check names depends on which were checked before it", async () => {
    await fillHost835(10240);
    const inputs = (name: string): [Record<string, unknown>, Record<string, unknown>] => [
      {},
      newVps(name, "835"),
    ];
    const seen = async (order: string[]) => {
      const run = await checkInOrder(order, inputs);
      return {
        failedOn: run.failedOn,
        aside: asideIn(run.reason),
        counted: /checked so far/.test(run.reason ?? ""),
      };
    };
    // b and c checked: c is set aside (of equal claims, the name that sorts last); a was never counted.
    expect(await seen(["b", "c", "a"])).toEqual({ failedOn: "c", aside: "c", counted: true });
    // a and b checked: a is set aside. Same program, another order, another name.
    expect(await seen(["a", "b", "c"])).toEqual({ failedOn: "b", aside: "a", counted: true });
    // Without c, a and b (13 GB) still do not fit: the message's "a later preview may name more".
    expect(await seen(["b", "a"])).toEqual({ failedOn: "a", aside: "a", counted: true });
  });

  test("the quote of the sum answering 503: a warning names the host, and the claim stands for the checks after it", async () => {
    await fillHost835(10240);
    const check = async (name: string) => (await impl.check({}, newVps(name, "835"))).failures;
    testing.forgetRun();
    expect(await check("small-a")).toBeUndefined();
    // big's own quote goes through (a no-op fault takes the first quote); the quote of small-a + big answers 503.
    fixture().emulator.injectFault({ route: "quoteNewVm", kind: "delay", delayMs: 0 });
    fixture().emulator.injectFault({ route: "quoteNewVm", kind: "status", status: 503, times: 10 });
    expect(await check("big")).toBeUndefined();
    expect(fixture().logs.join("\n")).toMatch(
      /warning: \[RIMU_ERR_TRANSIENT\] big: judging this run's changes on host 835 together \(RimuHosting's quote of their sum\) did not run: RimuHosting answered 503/,
    );
    fixture().emulator.app.emulator.faults.clear(); // the 503s the client's retries did not take
    // big's claim stood: small-b's check counts it, and the three (16 GB) do not fit.
    const failures = await check("small-b");
    expect(asideIn(failures?.map((f) => f.reason).join("\n"))).toBe("big");
  });

  test("in a run applying changes (the native plugin's check in `up --skip-preview`), a check never advises leaving out a change under way", async () => {
    await fillHost835(10240);
    testing.forgetRun();
    // The native plugin's check always runs as a preview's: the flag set, as newVps sets it.
    const big = await impl.check({}, newVps("big", "835"));
    expect(big.failures).toBeUndefined();
    // big's create starts (RimuHosting takes its time to answer) while the engine checks small-a.
    fixture().emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 1500 });
    const creating = impl.create(big.inputs);
    const { failures } = await impl.check({}, newVps("small-a", "835"));
    await creating;
    const reason = failures?.map((f) => f.reason).join("\n") ?? "";
    expect(reason).toMatch(
      /^\[RIMU_ERR_CONFLICT\] hostServerOid: host 835 has no room for this run's new VPSs/,
    );
    expect(reason).not.toMatch(/leave big out/);
    expect(reason).toMatch(
      /This run is applying changes, and the ones checked before small-a passed their checks and may already be under way, so leave them be: leave small-a out of this run, or give it another host/,
    );
  });

  test("the native plugin's check, which cannot tell a preview from `up --skip-preview`, says a change it sets aside that was checked before may be under way", async () => {
    await fillHost835(10240);
    testing.forgetRun();
    const urn = (name: string) => `urn:pulumi:prod::shop::rimuhosting:index:Vps::${name}`;
    const wire = (name: string) => {
      const {
        creationScope: _scope,
        __preview: _flag,
        __provider: _provider,
        ...inputs
      } = newVps(name, "835");
      return inputs;
    };
    expect((await native.check(urn("big"), {}, wire("big"))).failures).toEqual([]);
    // big's create may have started by now in `up --skip-preview` (the engine does not wait for it to check the next).
    const { failures } = await native.check(urn("small-a"), {}, wire("small-a"));
    expect(failures.map((f) => f.reason).join("\n")).toMatch(
      /Without big the rest fit: leave big out of this run, or give it another host \(.*\)\. In `pulumi up` without a preview, big passed its check before small-a and may already be under way: then leave small-a out instead\. This counts/,
    );
  });

  describe("four 1 GB VPSs on host 836 (2048 MB free beside them), each resized", () => {
    const VPSS = ["h836-a", "h836-b", "h836-c", "h836-d"];
    let recorded: Record<string, Record<string, unknown>>;
    beforeEach(async () => {
      recorded = {};
      for (const name of VPSS) {
        const created = await createChecked({
          ...APP_INPUTS,
          domainName: `${name}.example.com`,
          creationScope: `shop/prod/${name}`,
          memoryMb: 1024,
          hostServerOid: "836",
        });
        recorded[name] = created.inputs;
      }
    });
    /** The engine's check of a resize: the recorded inputs as the olds, the program's (no nonce) as the news. */
    const resized =
      (memoryMb: number) =>
      (name: string): [Record<string, unknown>, Record<string, unknown>] => {
        // The recorded inputs carry the provider's own keys, which a program never gives.
        const { __creationNonce: _nonce, plannedMonthlyFeeUsd: _fee, ...program } = recorded[name]!;
        return [recorded[name]!, { ...program, memoryMb, ...PREVIEW }];
      };

    test("by 600 MB each (any three fit, four do not): every order names all four, and sets aside h836-d", async () => {
      for (const order of permutations(VPSS)) {
        const run = await checkInOrder(order, resized(1624));
        expect({ order, checked: run.checked, aside: asideIn(run.reason) }).toEqual({
          order,
          checked: 4,
          aside: "h836-d",
        });
        const said =
          "[RIMU_ERR_CONFLICT] memoryMb: host 836 has 2048 MB memory and 120 GB disk free, and this run's changes on it " +
          "take 2400 MB memory together: h836-a grows by 600 MB memory, h836-b grows by 600 MB memory, h836-c grows " +
          "by 600 MB memory, h836-d grows by 600 MB memory. Without h836-d the rest fit: grow h836-d by less, or move " +
          "it to a host with room first (hostServerOid). ";
        expect(run.reason!.slice(0, said.length)).toBe(said);
      }
    });

    test("by 2048 MB each (the issue's case): the check that overflows names every resize checked so far", async () => {
      for (const order of permutations(VPSS)) {
        const run = await checkInOrder(order, resized(3072));
        const [first, second] = order as [string, string];
        expect({ order, failedOn: run.failedOn, checked: run.checked }).toEqual({
          order,
          failedOn: second,
          checked: 2,
        });
        const later = first > second ? first : second;
        expect(run.reason).toContain(
          `${[first, second]
            .sort()
            .map((n) => `${n} grows by 2048 MB memory`)
            .join(", ")}.`,
        );
        expect(asideIn(run.reason)).toBe(later);
      }
    });
  });
});
