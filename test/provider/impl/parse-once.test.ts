/**
 * L1: a check parses its new inputs once (issue 43): setValues (vps-values.ts) runs on them once, inside
 * parseInputs, and every rule reads the parsed value, for a new VPS and a change, through either front end's
 * check. ts-jest compiles a named import to a call on the module object, so a spy on vps-values sees every call
 * from another module (the code before parseInputs made 5 here). The old inputs' reading (refreshableState) is
 * separate and runs inside vps-values, unseen.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as impl from "../../../provider/impl/index";
import * as values from "../../../provider/impl/inputs/vps-values";
import * as native from "../../../provider/native/vps-resource";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import { APP_INPUTS, useImplFixture } from "../support/impl-fixture";

useImplFixture();
const PROGRAM = { ...APP_INPUTS, runningState: "RUNNING" } satisfies VpsInputs;

/** What a check returned, and how often it ran setValues on its new inputs (each parse is one run). */
async function counted<T extends { failures: unknown[] }>(check: () => Promise<T>): Promise<[T, number]> {
  const setValues = jest.spyOn(values, "setValues");
  const parse = jest.spyOn(values, "parseInputs");
  try {
    const result = await check();
    expect(result.failures).toEqual([]);
    return [result, setValues.mock.calls.length + parse.mock.calls.length];
  } finally {
    setValues.mockRestore();
    parse.mockRestore();
  }
}

describe("a check parses its new inputs once", () => {
  it("for a new VPS and for a change of it (the core's checkVps, under the dynamic provider's check)", async () => {
    const [created, runs] = await counted(() => impl.checkVps({}, PROGRAM));
    expect(runs).toBe(1);
    expect((await counted(() => impl.checkVps(created.inputs, { ...PROGRAM, memoryMb: 2048 })))[1]).toBe(1);
  });

  it("through the native plugin's check too", async () => {
    const urn = "urn:pulumi:prod::shop::rimuhosting:index:Vps::app";
    expect((await counted(() => native.check(urn, {}, { ...PROGRAM, creationScope: undefined })))[1]).toBe(1);
  });
});

describe("the look-ahead's rules read which inputs are unknown from the parsed inputs", () => {
  // parseInputs marks the unknown inputs once (its `unknown` set, handed on as the LookaheadCheck's and FeeCheck's); a rule of
  // the look-ahead or the planned fee that walks a value for the sentinel again reads the raw value a second way.
  // priceOf is the one exception: diff()'s price line hands it inputs that no check parsed.
  const ROOT = path.join(__dirname, "../../..");
  const calls = ["provider/impl/lookahead", "provider/impl/budget"].flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) =>
        fs
          .readFileSync(path.join(ROOT, dir, file), "utf8")
          .split("\n")
          .filter((line) => /\bcontainsUnknown\(/.test(line))
          .map((line) => `${dir}/${file}: ${line.trim()}`),
      ),
  );

  it("none but priceOf tests a value for the unknown sentinel", () => {
    expect(calls).toEqual([
      "provider/impl/budget/planned-fee.ts: const unknown = PRICED_INPUTS.filter((name) => containsUnknown(inputs[name]));",
    ]);
  });
});
