// A recorded state that an older version wrote, or a hand edit garbled, through the lifecycle against the emulator:
// diff, update and delete refuse it before any call, naming each field and its kind (never its value) and saying
// to refresh; refresh (read) leaves the bad fields out and reads the order again, after which all is well. The
// native plugin's edge (protocol.ts) parses the same way.
import * as impl from "../../../provider/impl/index";
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
