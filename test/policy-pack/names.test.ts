/**
 * The policy pack keeps its own copy of the names it reads (policy-pack/vps-names.ts: it runs from its own
 * directory, without the provider). Each must be the provider's: its field table, its contract and its type tokens.
 */
import { describe, expect, it } from "@jest/globals";
import * as fs from "node:fs";
import * as path from "node:path";
import { DC_LOCATIONS } from "../../contract/literals";
import { VPS_FIELDS, VPS_OUTPUT_ONLY } from "../../provider/impl/fields/vps-fields";
import { VPS_PROVIDER_TEXT } from "../../provider/vps-provider-text";
import { Vps } from "../../provider/vps";
import { MAX_BUDGET_USD } from "../../provider/impl/cost/setting";
import { CHECK_DEPLOYMENT_KEY } from "../../provider/impl/engine/deployment";
import { CURRENT_FEE_KEY, PLANNED_FEE_KEY } from "../../provider/impl/budget/planned-fee";
import { MAX_BUDGET_USD as PACK_MAX_BUDGET_USD } from "../../policy-pack/budget-verdict";
import {
  DATA_CENTRES,
  DYNAMIC_PROVIDER_INPUT,
  DYNAMIC_RESOURCE_TYPE_PREFIX,
  DYNAMIC_VPS_TYPE,
  NATIVE_VPS_TYPE,
  PROVIDER_PACKAGE,
  VPS_INPUT,
  PLANNED_FEE,
  CURRENT_FEE,
  CHECK_DEPLOYMENT,
  RECORDED_FEE,
} from "../../policy-pack/vps-names";

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(__dirname, "../..", file), "utf8"));

describe("the policy pack's names are the provider's", () => {
  it("the inputs it judges are inputs of the field table, with the types it expects", () => {
    expect(VPS_FIELDS[VPS_INPUT.dcLocation].type).toEqual({ enum: DC_LOCATIONS, name: "DcLocation" });
    expect(VPS_FIELDS[VPS_INPUT.memoryMb].type).toBe("integer");
    expect(VPS_FIELDS[VPS_INPUT.diskSpaceMb].type).toBe("integer");
    expect(VPS_FIELDS[VPS_INPUT.diskSpace2Mb]).toMatchObject({ type: "integer", defaultValue: 0 });
    expect(VPS_FIELDS[VPS_INPUT.allowReinstall]).toMatchObject({ type: "boolean", defaultValue: false });
  });

  it("the fees' keys and the deployment's are the check's; the recorded fee is an output", () => {
    expect([PLANNED_FEE, CURRENT_FEE, CHECK_DEPLOYMENT]).toEqual([
      PLANNED_FEE_KEY,
      CURRENT_FEE_KEY,
      CHECK_DEPLOYMENT_KEY,
    ]);
    expect(VPS_OUTPUT_ONLY).toContain(RECORDED_FEE);
  });

  it("the largest budget accepted is the provider's", () => {
    expect(PACK_MAX_BUDGET_USD).toBe(MAX_BUDGET_USD);
  });

  it("the data centres are the contract's", () => {
    expect(DATA_CENTRES).toEqual(DC_LOCATIONS);
  });

  it("the type tokens are the native plugin's and the dynamic Vps's", () => {
    expect(Object.keys(readJson("provider/native/schema.json").resources)).toContain(NATIVE_VPS_TYPE);
    expect(Vps.__pulumiType).toBe(DYNAMIC_VPS_TYPE);
    expect(DYNAMIC_VPS_TYPE.startsWith(DYNAMIC_RESOURCE_TYPE_PREFIX)).toBe(true);
  });

  it("a dynamic Vps's provider text names the package", () => {
    expect(DYNAMIC_PROVIDER_INPUT).toBe("__provider");
    expect(PROVIDER_PACKAGE).toBe(readJson("package.json").name);
    expect(VPS_PROVIDER_TEXT).toContain(PROVIDER_PACKAGE);
  });
});
