/**
 * One Vps field table (provider/impl/vps-fields.ts): the change kinds, the secret list and the docs
 * tables come from it; the input schema is tied to it by the compiler (a `satisfies` in vps-inputs.ts);
 * VpsArgs, the resource's declared outputs and VpsOutputs, which TypeScript needs written out (JSDoc),
 * are checked against it here, at compile time (the type assertions below fail `npm run typecheck`) and
 * when the test runs, so adding an input means one table row plus its logic.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CustomResource } from "@pulumi/pulumi";
import type { Vps, VpsArgs } from "../../../provider/vps";
import type { VpsOutputs } from "../../../provider/impl/vps-outputs";
import { orderOutputs } from "../../../provider/impl/vps-outputs";
import { orderFields } from "../../../provider/wire-mapping/order-fields";
import type { AboutOrder } from "../../../contract/index";
import {
  AS_IS_FIELDS,
  GROW_ONLY_FIELDS,
  INTERNAL_INPUTS,
  REPORTED_FIELDS,
  SECRET_FIELDS,
  VPS_FIELDS,
  VPS_INPUT_FIELDS,
  VPS_INPUT_NAMES,
  VPS_OUTPUT_ONLY,
  inputNameOfWireField,
  type InternalInputName,
  type VpsInputName,
  type VpsOutputOnlyName,
} from "../../../provider/impl/vps-fields";
import { validateInputs, vpsInputSchemaKeys } from "../../../provider/impl/vps-inputs";
import { toWire } from "../../../provider/impl/vps-requests";
import { NewVpsRequest } from "../../../contract/index";
import { VPS_DOCS_PATH, renderVpsDocs } from "../../../tools/vps-docs";
import { APP_INPUTS } from "../support/impl-fixture";

/** `true` only when A and B are the same set of keys; the assertions below do not compile otherwise. */
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** VpsArgs: the table's inputs plus creationScope (set by the class; documented as internal). */
const argsMatchTable: SameKeys<keyof VpsArgs, VpsInputName | "creationScope"> = true;
/** VpsOutputs: every input, every output-only field, the internal inputs and the provider's `__inputNames`. */
const outputsMatchTable: SameKeys<
  keyof VpsOutputs,
  VpsInputName | VpsOutputOnlyName | InternalInputName | "__inputNames"
> = true;
/** The Vps class declares an output for every input and output-only field, and nothing else. */
const declaredMatchTable: SameKeys<
  Exclude<keyof Vps, keyof CustomResource>,
  VpsInputName | VpsOutputOnlyName
> = true;

const ROOT = resolve(__dirname, "../../..");
const source = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The member names of `interface <name> { ... }` in a source file (top-level members only). */
function interfaceMembers(text: string, name: string): string[] {
  const start = text.indexOf(`interface ${name} {`);
  expect(start).toBeGreaterThanOrEqual(0);
  const body = text.slice(start, text.indexOf("\n}\n", start));
  return [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]!);
}

/** Exported only so the linter sees them used: the compiler, not the test run, evaluates them. */
export const COMPILE_TIME_CHECKS = [argsMatchTable, outputsMatchTable, declaredMatchTable];

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

  it("each VpsArgs input has a multi-line JSDoc whose @default is the table's default", () => {
    const text = source("provider/vps.ts");
    const args = text.slice(text.indexOf("export interface VpsArgs {"));
    const documented = Object.fromEntries(
      [...args.matchAll(/\n {2}\/\*\*\n((?: {3}\*.*\n)+) {3}\*\/\n {2}(\w+)\??:/g)].map((m) => [
        m[2]!,
        /@default (.*)/.exec(m[1]!)?.[1],
      ]),
    );
    expect(Object.fromEntries(VPS_INPUT_NAMES.map((name) => [name, documented[name]]))).toEqual(
      Object.fromEntries(VPS_INPUT_NAMES.map((name) => [name, VPS_FIELDS[name].default])),
    );
  });

  it("the Vps class declares exactly the table's inputs and output-only fields as outputs", () => {
    const declared = [...source("provider/vps.ts").matchAll(/declare readonly (\w+):/g)].map((m) => m[1]!);
    expect(sorted(declared)).toEqual(sorted([...VPS_INPUT_NAMES, ...VPS_OUTPUT_ONLY]));
  });

  it("change kinds, the secret, grow-only and reported lists come from the table", () => {
    for (const name of VPS_INPUT_NAMES) expect(VPS_INPUT_FIELDS[name]).toBe(VPS_FIELDS[name].change);
    expect(sorted(SECRET_FIELDS)).toEqual(["cloudConfig", "files", "password"]);
    expect(GROW_ONLY_FIELDS).toEqual(["diskSpaceMb", "diskSpace2Mb"]);
  });

  it("the inputs flagged `reported` are exactly those the order's fields give back", () => {
    const order = { order_oid: 1, slug: "order-1-a-example-com", domain_name: "a.example.com" } as AboutOrder;
    const fromOrder = new Set([
      ...Object.keys(orderFields(order)),
      ...Object.keys(
        orderOutputs({ ...order, allocated_ips: { primary_ip: "192.0.2.1" } } as AboutOrder, {}),
      ),
    ]);
    expect(sorted(REPORTED_FIELDS)).toEqual(sorted(VPS_INPUT_NAMES.filter((name) => fromOrder.has(name))));
  });

  it("the output-only fields are the order's fields that are not inputs", () => {
    const order = { order_oid: 1, slug: "order-1-a-example-com", domain_name: "a.example.com" } as AboutOrder;
    const inputs = new Set<string>(VPS_INPUT_NAMES);
    expect(sorted(VPS_OUTPUT_ONLY)).toEqual(
      sorted(Object.keys(orderFields(order)).filter((k) => !inputs.has(k))),
    );
  });

  it(`${VPS_DOCS_PATH}'s Inputs and Outputs tables are the table's (run \`npm run docs:vps\` after a change)`, () => {
    const page = source(VPS_DOCS_PATH);
    expect(renderVpsDocs(page)).toBe(page);
  });

  it(`${VPS_DOCS_PATH}'s change table names every input`, () => {
    const page = source(VPS_DOCS_PATH);
    const changes = page.slice(
      page.indexOf("## What a change does"),
      page.indexOf("## What `pulumi preview`"),
    );
    expect(VPS_INPUT_NAMES.filter((name) => !changes.includes(`\`${name}\``))).toEqual([]);
  });

  it("every input sent as given lands at a wire path the request schema knows (nothing is dropped)", () => {
    // A typical VPS's inputs plus every other input that is sent as given.
    const given: Record<string, unknown> = {
      ...APP_INPUTS,
      pricingPlanCode: "MIRO1B",
      diskSpace2Mb: 0,
      vpsType: "REGULAR",
      billingOid: 5,
      hostServerOid: "764",
      password: "correct horse",
      controlPanel: "webmin",
      cloudConfig: "#cloud-config",
    };
    expect(validateInputs(given)).toEqual([]);
    for (const name of AS_IS_FIELDS) {
      const sent = toWire(given, [name]);
      expect({ name, parsed: NewVpsRequest.parse(sent) }).toEqual({ name, parsed: sent });
    }
    expect(AS_IS_FIELDS.filter((name) => given[name] === undefined)).toEqual([]);
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
