/**
 * One Vps field table (provider/impl/vps-fields.ts): the input schema, VpsArgs, the resource's
 * declared outputs, VpsOutputs, the change kinds and the secret list all come from it or are checked
 * against it here, so adding an input means one table row plus its logic.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  INTERNAL_INPUTS,
  SECRET_FIELDS,
  VPS_FIELDS,
  VPS_INPUT_FIELDS,
  VPS_INPUT_NAMES,
  inputNameOfWireField,
} from "../../../provider/impl/vps-fields";
import { vpsInputSchemaKeys } from "../../../provider/impl/vps-inputs";

const ROOT = resolve(__dirname, "../../..");
const source = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The member names of `interface <name> { ... }` in a source file (top-level members only). */
function interfaceMembers(text: string, name: string): string[] {
  const start = text.indexOf(`interface ${name} {`);
  expect(start).toBeGreaterThanOrEqual(0);
  const body = text.slice(start, text.indexOf("\n}\n", start));
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]!);
}

const sorted = (names: readonly string[]) => [...names].sort();

describe("the Vps field table", () => {
  it("the input schema validates exactly the table's inputs plus the internal ones", () => {
    expect(sorted(vpsInputSchemaKeys())).toEqual(sorted([...VPS_INPUT_NAMES, ...INTERNAL_INPUTS]));
  });

  it("VpsArgs declares exactly the table's inputs plus creationScope", () => {
    expect(sorted(interfaceMembers(source("provider/vps.ts"), "VpsArgs"))).toEqual(
      sorted([...VPS_INPUT_NAMES, "creationScope"]),
    );
  });

  it("VpsOutputs and the Vps class's declared outputs hold every input", () => {
    const outputs = interfaceMembers(source("provider/impl/vps-outputs.ts"), "VpsOutputs");
    const declared = [...source("provider/vps.ts").matchAll(/declare readonly (\w+):/g)].map((m) => m[1]!);
    for (const name of VPS_INPUT_NAMES) {
      expect({ name, inOutputs: outputs.includes(name), declared: declared.includes(name) }).toEqual({
        name,
        inOutputs: true,
        declared: true,
      });
    }
  });

  it("change kinds and the secret list come from the table", () => {
    for (const name of VPS_INPUT_NAMES) expect(VPS_INPUT_FIELDS[name]).toBe(VPS_FIELDS[name].change);
    expect(sorted(SECRET_FIELDS)).toEqual(["cloudConfig", "files", "password"]);
  });

  it("wire fields map back to the input a user knows", () => {
    expect(inputNameOfWireField("vps_parameters.memory_mb")).toBe("memoryMb");
    expect(inputNameOfWireField("instantiation_options.distro")).toBe("distro");
    expect(inputNameOfWireField("file_injection_data[0].path")).toBe("files");
    expect(inputNameOfWireField("file_injection_data.0.data_as_string")).toBe("files");
    expect(inputNameOfWireField("dc_location")).toBe("dcLocation");
    expect(inputNameOfWireField("nonsense")).toBeUndefined();
  });
});
