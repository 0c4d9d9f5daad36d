/**
 * The creation token: stable for a retry of the same resource (same scope, same inputs), different
 * for a replacement (some replace-forcing input differs) or another resource (another scope), and
 * derived from exactly the inputs that computeChanges() treats as replace-forcing.
 */
import { creationTokenFor, canonicalJson } from "../../../provider/impl/lifecycle/creation-token";
import { REPLACE_FORCING_INPUTS, computeChanges } from "../../../provider/impl/inputs/vps-changes";
import { VPS_INPUT_NAMES } from "../../../provider/impl/fields/vps-fields";
import fc from "fast-check";
import type { AboutOrder } from "../../../contract";
import {
  CREATION_NONCE_KEY,
  CREATION_TOKEN_KEY,
  carriesCreationToken,
  type RimuClient,
} from "../../../provider/client";
import { AccountView } from "../../../provider/impl/account/account-view";

const SCOPE = "shop/prod/web";
const INPUTS = {
  creationScope: SCOPE,
  domainName: "web1.example.com",
  dcLocation: "DCDALLAS",
  pricingPlanCode: "MIRO1B",
  memoryMb: 1024,
  diskSpaceMb: 8192,
  distro: "deb12.64",
};

describe("creationTokenFor", () => {
  it("is vps- and 32 hex characters, the same for the same scope and inputs (a retry)", () => {
    const token = creationTokenFor(INPUTS);
    expect(token).toMatch(/^vps-[0-9a-f]{32}$/);
    expect(creationTokenFor({ ...INPUTS })).toBe(token);
    // Key order and null-vs-absent do not matter.
    const reordered = Object.fromEntries(Object.entries(INPUTS).reverse());
    expect(creationTokenFor({ ...reordered, vpsType: null })).toBe(token);
  });

  it.each(REPLACE_FORCING_INPUTS)(
    "differs when the replace-forcing input %s differs (a replacement)",
    (name) => {
      const a = creationTokenFor({ ...INPUTS, [name]: `${name}-a` });
      const b = creationTokenFor({ ...INPUTS, [name]: `${name}-b` });
      const unset = creationTokenFor({ ...INPUTS, [name]: undefined });
      expect(new Set([a, b, unset]).size).toBe(3);
    },
  );

  it("ignores inputs that change in place (a retry after editing them still finds the order)", () => {
    const inPlace = VPS_INPUT_NAMES.filter((name) => !REPLACE_FORCING_INPUTS.includes(name));
    expect(inPlace).toEqual(expect.arrayContaining(["memoryMb", "distro", "password", "runningState"]));
    const token = creationTokenFor(INPUTS);
    for (const name of inPlace) {
      expect(creationTokenFor({ ...INPUTS, [name]: `${name}-changed` })).toBe(token);
    }
  });

  it("differs for another resource, stack or project (another scope)", () => {
    const tokens = ["shop/prod/web", "shop/prod/web2", "shop/dev/web", "blog/prod/web"].map((scope) =>
      creationTokenFor({ ...INPUTS, creationScope: scope }),
    );
    expect(new Set(tokens).size).toBe(4);
  });

  it("naming superseded orders gives another token, itself stable; none named is the plain token", () => {
    const plain = creationTokenFor(INPUTS);
    expect(creationTokenFor(INPUTS, [])).toBe(plain);
    const stepped = creationTokenFor(INPUTS, [101]);
    expect(stepped).toMatch(/^vps-[0-9a-f]{32}$/);
    expect(stepped).not.toBe(plain);
    expect(creationTokenFor({ ...INPUTS }, [101])).toBe(stepped);
    expect(creationTokenFor(INPUTS, [101, 102])).not.toBe(stepped);
  });

  it("without creationScope (older state, direct calls) is a fresh random UUID each time", () => {
    const { creationScope: _omitted, ...unscoped } = INPUTS;
    const a = creationTokenFor(unscoped);
    const b = creationTokenFor(unscoped);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(b).not.toBe(a);
    expect(creationTokenFor({ ...unscoped, creationScope: "" })).not.toBe(a);
  });
});

describe("REPLACE_FORCING_INPUTS", () => {
  it("is exactly the set of inputs computeChanges() reports in replaces", () => {
    const replacing = VPS_INPUT_NAMES.filter((name) =>
      computeChanges("1", { [name]: 1 }, { [name]: 2 }).replaces.includes(name),
    );
    expect([...REPLACE_FORCING_INPUTS].sort()).toEqual(replacing.sort());
    expect(REPLACE_FORCING_INPUTS).toEqual(
      expect.arrayContaining(["domainName", "dcLocation", "pricingPlanCode", "vpsType", "ipCount"]),
    );
  });
});

describe("canonicalJson", () => {
  it("sorts object keys at every level and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    expect(canonicalJson([undefined, null])).toBe("[null,null]");
  });
});

describe("the run's token look-up in a listing (AccountView.carryingIn)", () => {
  /**
   * The invariant: for any listing (orders with no token, one, the same twice, another key's value equal to a token)
   * and any token, carryingIn gives what filtering the listing with carriesCreationToken gives, in its order, for
   * one listing after another (a new listing is looked in anew, as notePlaced makes one).
   */
  const TOKENS = ["vps-a", "vps-b", "vps-c"];
  const order = fc.record({
    order_oid: fc.integer({ min: 1, max: 9_999 }),
    meta_data: fc.option(
      fc.array(
        fc.record({
          key_name: fc.constantFrom(CREATION_TOKEN_KEY, CREATION_NONCE_KEY, "team"),
          value: fc.constantFrom(...TOKENS),
        }),
        { maxLength: 3 },
      ),
      { nil: undefined },
    ),
  });

  it("gives what carriesCreationToken filters, in the listing's order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(order, { maxLength: 8 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom(...TOKENS, "vps-none"), { minLength: 1, maxLength: 6 }),
        (listings, tokens) => {
          const view = new AccountView({} as RimuClient);
          for (const listing of listings as unknown as AboutOrder[][])
            for (const token of tokens)
              expect(view.carryingIn(listing, token)).toEqual(
                listing.filter((o) => carriesCreationToken(o, token)),
              );
        },
      ),
      { seed: 67, numRuns: 300 },
    );
  });
});
