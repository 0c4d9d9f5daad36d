// A recorded state that an older version wrote, or a hand edit garbled, through the lifecycle against the emulator:
// diff, update and delete refuse it before any call, naming each field and its kind (never its value) and saying
// to refresh; refresh (read) leaves the bad fields out and reads the order again, after which all is well. The
// native plugin's edge (protocol.ts) parses the same way.
import fc from "fast-check";
import {
  INTERNAL_INPUTS,
  RECORDED_ORDER_KEY,
  VPS_FIELDS,
  VPS_OUTPUT_ONLY_FIELDS,
} from "../../../provider/impl/fields/vps-fields";
import * as impl from "../../../provider/impl/index";
import { recordedSchema, surelyReadable } from "../../../provider/impl/inputs/recorded-state";
import { stateFromWire } from "../../../provider/native/protocol";
import { createChecked, rejectionOf, useImplFixture } from "../support/impl-fixture";

const fx = useImplFixture();
const INPUTS = {
  domainName: "old-state.example.com",
  dcLocation: "DCDALLAS",
  memoryMb: 1024,
  diskSpaceMb: 8192,
};
const mutations = () =>
  fx()
    .emulator.requestLog()
    .filter((r) => r.method !== "GET");

/** What an older version might have written: text where numbers belong, one address where a list does. */
const garbled = (outs: object): impl.RecordedOutputs =>
  ({
    ...outs,
    memoryMb: "1024",
    secondaryIps: "10.1.2.3",
    password: 12345678,
    __someOlderBookkeeping: { kept: true },
  }) as unknown as impl.RecordedOutputs;

describe("a recorded state not of this version's kinds", () => {
  it("diff, update and delete refuse it before any call, naming each field and its kind, never its value", async () => {
    const { id, outs, inputs } = await createChecked(INPUTS);
    const old = garbled(outs);
    const before = mutations().length;
    for (const attempt of [
      impl.diffVps(id, old, inputs),
      impl.update(id, old, inputs),
      impl.delete(id, old),
    ]) {
      const error = await rejectionOf<impl.VpsError>(attempt);
      expect(error.code).toBe("RIMU_ERR_STATE_UNREADABLE");
      expect(error.message).toContain(
        "the state recorded for it does not fit this version of the provider: memoryMb (a string, expected " +
          "number); password (a number, expected string); secondaryIps (a string, expected array)",
      );
      expect(error.message).toContain("Run `pulumi refresh`");
      expect(error.message).not.toMatch(/10\.1\.2\.3|12345678/);
    }
    expect(mutations().length).toBe(before);
  });

  it("a refresh reads the order again in place of the bad fields, and the state it gives is accepted", async () => {
    const { id, outs, inputs } = await createChecked(INPUTS);
    const refreshed = await impl.read(id, garbled(outs));
    expect(refreshed.props).toMatchObject({ memoryMb: 1024, secondaryIps: [] });
    const again = await impl.diffVps(id, refreshed.props!, inputs);
    expect(again.changes).toBe(false);
  });

  it("a state of its kinds is read without zod's parse (a check, diff and update each read it); a bad one with it", async () => {
    const { id, outs, inputs } = await createChecked(INPUTS);
    const parse = jest.spyOn(recordedSchema(), "safeParse");
    try {
      await impl.check(inputs, inputs);
      await impl.diffVps(id, outs, inputs);
      expect(parse).not.toHaveBeenCalled();
      await rejectionOf(impl.diffVps(id, garbled(outs), inputs));
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it("what it reads without zod, zod reads too (so zod's refusals are all still made)", () => {
    const names = [
      ...Object.keys(VPS_FIELDS),
      ...Object.keys(VPS_OUTPUT_ONLY_FIELDS),
      ...INTERNAL_INPUTS,
      "__inputNames",
      "__creationToken",
      "__provider",
      RECORDED_ORDER_KEY,
      "__someOtherKey",
    ];
    const leaf = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
    const value = fc.oneof(
      leaf,
      fc.constant(undefined),
      fc.array(leaf, { maxLength: 3 }),
      fc.dictionary(fc.string(), leaf, { maxKeys: 3 }),
      fc.object({ maxDepth: 2 }),
    );
    const bag = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 8 });
    fc.assert(
      fc.property(bag, (b) => !surelyReadable(b) || recordedSchema().safeParse(b).success),
      { numRuns: 2000 },
    );
  });

  it("the native plugin's edge: unwrapped and parsed, the same refusal; lenient for a refresh", () => {
    const wire = { memoryMb: "1024", domainName: "x.example.com", extra: 1 };
    expect(() => stateFromWire(wire, "Vps 42")).toThrow(
      /RIMU_ERR_STATE_UNREADABLE\] Vps 42: .*memoryMb \(a string, expected number\)/,
    );
    expect(stateFromWire(wire, "Vps 42", { refresh: true })).toEqual({
      domainName: "x.example.com",
      extra: 1,
    });
  });
});
