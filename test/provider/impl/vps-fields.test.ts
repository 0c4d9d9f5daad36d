/**
 * One Vps field table (provider/impl/fields/vps-fields.ts): the change kinds, the secret list, VpsArgs, the
 * resource's declared outputs, the plugin schema's types and the docs tables come from it. The generated
 * files are rendered again here and compared with the checked-in ones; the input schema and VpsOutputs,
 * written by hand, are tied to the table by the compiler (the type assertions below fail `npm run
 * typecheck`), so adding an input means one table row plus its logic.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import type { CustomResource } from "@pulumi/pulumi";
import type { Vps, VpsArgs } from "../../../provider/vps";
import type { VpsOutputs } from "../../../provider/impl/inputs/vps-outputs";
import { ORDER_FIELDS_NOT_KEPT, orderOutputs } from "../../../provider/impl/inputs/vps-outputs";
import { orderFields } from "../../../provider/wire-mapping/order-fields";
import type { AboutOrder } from "../../../contract/index";
import {
  AS_IS_FIELDS,
  GROW_ONLY_FIELDS,
  INTERNAL_INPUTS,
  PRINTABLE_FIELDS,
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
} from "../../../provider/impl/fields/vps-fields";
import { inputDescription } from "../../../provider/impl/fields/vps-field-rules";
import { vpsInputSchemaKeys, type VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import { validateInputs } from "../../../provider/impl/inputs/vps-validate";
import { parseInputs } from "../../../provider/impl/inputs/vps-values";
import { REPLACE_FORCING_INPUTS } from "../../../provider/impl/inputs/vps-changes";
import { toWire } from "../../../provider/impl/inputs/vps-requests";
import { NewVpsRequest } from "../../../contract/index";
import { generatedFiles } from "../../../tools/generate/index";
import { VPS_DOCS_PATH } from "../../../tools/generate/vps-docs";
import { vpsSchemaTypes } from "../../../tools/generate/vps-schema";
import { markdownList } from "../../../tools/generate/text";
import { APP_INPUTS } from "../support/impl-fixture";

/** `true` only when A and B are the same set of keys; the assertions below do not compile otherwise. */
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** VpsArgs: the table's inputs plus creationScope (set by the class; documented as internal). */
const argsMatchTable: SameKeys<keyof VpsArgs, VpsInputName | "creationScope"> = true;
/**
 * VpsOutputs: every input, every output-only field, the internal inputs, the provider's `__inputNames`, a
 * pending create's `__creationToken` and the engine's `__provider`.
 */
const outputsMatchTable: SameKeys<
  keyof VpsOutputs,
  VpsInputName | VpsOutputOnlyName | InternalInputName | "__inputNames" | "__creationToken" | "__provider"
> = true;
/** The Vps class declares an output for every input and output-only field, and nothing else. */
const declaredMatchTable: SameKeys<
  Exclude<keyof Vps, keyof CustomResource>,
  VpsInputName | VpsOutputOnlyName
> = true;
/**
 * Every value an input's validator (vps-input-schema.ts) accepts is a value its VpsArgs property (Inputs
 * resolved) allows: the table's type is not narrower than the validator, nor another type. It may be
 * wider (controlPanel is a `string`; the validator takes `"webmin"` or `""`). Names the inputs that fail.
 */
type Mismatched = {
  [N in VpsInputName]-?: [NonNullable<VpsInputs[N]>] extends [pulumi.Unwrap<NonNullable<VpsArgs[N]>>]
    ? never
    : N;
}[VpsInputName];
const argsMatchValidators: SameKeys<Mismatched, never> = true;

const ROOT = resolve(__dirname, "../../..");
const source = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** Exported only so the linter sees them used: the compiler, not the test run, evaluates them. */
export const COMPILE_TIME_CHECKS = [
  argsMatchTable,
  outputsMatchTable,
  declaredMatchTable,
  argsMatchValidators,
];

const sorted = (names: readonly string[]) => [...names].sort();

describe("the Vps field table", () => {
  it("the input schema validates exactly the table's inputs plus the internal ones", () => {
    expect(sorted(vpsInputSchemaKeys())).toEqual(sorted([...VPS_INPUT_NAMES, ...INTERNAL_INPUTS]));
  });

  it.each([...generatedFiles(source).keys()])(
    "%s is what the table gives (after changing the table, run `npm run generate`)",
    (path) => {
      expect(source(path)).toBe(generatedFiles(source).get(path));
    },
  );

  it("the schema's secrets, replacing and required inputs are the provider's", () => {
    const schema = vpsSchemaTypes() as {
      inputProperties: Record<string, { secret?: boolean; willReplaceOnChanges?: boolean }>;
      requiredInputs: string[];
    };
    const flagged = (flag: "secret" | "willReplaceOnChanges") =>
      Object.keys(schema.inputProperties).filter((name) => schema.inputProperties[name]![flag]);
    expect(sorted(flagged("secret"))).toEqual(sorted(SECRET_FIELDS));
    expect(sorted(flagged("willReplaceOnChanges"))).toEqual(sorted(REPLACE_FORCING_INPUTS));
    // Both sides above come from the table; the lists themselves, as users know them (README, docs/vps.md):
    expect(sorted(flagged("secret"))).toEqual(["cloudConfig", "files", "password"]);
    expect(sorted(flagged("willReplaceOnChanges"))).toEqual([
      "adoptOrderOid",
      "dcLocation",
      "domainName",
      "ipCount",
      "pricingPlanCode",
      "vpsType",
    ]);
    expect(schema.requiredInputs).toEqual(["domainName"]);
  });

  it("each input's change kind, and the secret and grow-only lists, are what users are told (docs/vps.md)", () => {
    // Written out here, not read from the table: the table is what is being checked.
    expect(VPS_INPUT_FIELDS).toEqual({
      domainName: "replace",
      distro: "reinstall",
      dcLocation: "replace",
      pricingPlanCode: "replace",
      memoryMb: "parameters",
      diskSpaceMb: "parameters",
      diskSpace2Mb: "parameters",
      vpsType: "replace",
      billingOid: "order-only",
      hostServerOid: "move",
      runningState: "running-state",
      password: "reinstall",
      controlPanel: "reinstall",
      cloudConfig: "reinstall",
      files: "reinstall",
      sshKeys: "reinstall",
      reverseDns: "reverse-dns",
      ipCount: "replace",
      metaData: "order-only",
      allowReinstall: "setting",
      timeouts: "setting",
      adoptOrderOid: "adopt",
    });
    expect(sorted(SECRET_FIELDS)).toEqual(["cloudConfig", "files", "password"]);
    expect(GROW_ONLY_FIELDS).toEqual(["diskSpaceMb", "diskSpace2Mb"]);
  });

  it("says what a change does from the row's change kind, and no row says it by hand", () => {
    const said = (name: VpsInputName) => inputDescription(VPS_FIELDS[name]);
    expect(said("domainName")).toMatch(/\. A change replaces the VPS\.$/);
    expect(said("pricingPlanCode")).toMatch(/\. A change from one value to another replaces the VPS\.$/);
    expect(said("memoryMb")).toMatch(/\. A change resizes in place \(the VPS restarts; billing changes\)\.$/);
    expect(said("diskSpaceMb")).toMatch(/\. Can only grow; a change resizes in place/);
    expect(said("files")).toMatch(
      /\. A change reinstalls the VPS in place, erasing its disk, and needs `allowReinstall: true`\.$/,
    );
    expect(said("hostServerOid")).toMatch(/\. Setting or changing it moves the VPS/);
    expect(said("runningState")).toMatch(/\. A change starts or stops the VPS\.$/);
    expect(said("reverseDns")).toMatch(
      /\. Set in place after the VPS is created, when it changes, and again after a move/,
    );
    expect(said("metaData")).toMatch(
      /\. Used only when ordering: a later change is reported but not applied\.$/,
    );
    expect(said("adoptOrderOid")).toMatch(/\. Setting a different oid later replaces the resource\.$/);
    expect(said("timeouts")).toBe(VPS_FIELDS.timeouts.description);
    // A sentence of the kinds changeWords() writes, written into a row's own text.
    const byHand = VPS_INPUT_NAMES.filter((name) =>
      /(^|\. )(A change|Can only grow|Setting or changing it|Used only when ordering|Setting a different)\b/.test(
        VPS_FIELDS[name].description,
      ),
    );
    expect(byHand).toEqual([]);
  });

  it("no input whose value may be private is printable: secrets, metaData, sshKeys, reverseDns, files", () => {
    const named = VPS_INPUT_NAMES.filter((name) => !PRINTABLE_FIELDS.includes(name));
    for (const name of SECRET_FIELDS) expect(named).toContain(name);
    expect(named).toEqual(expect.arrayContaining(["metaData", "sshKeys", "reverseDns", "files"]));
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

  it("the output-only fields are the order's fields that are not inputs, less the summary a Vps does not keep", () => {
    const order = { order_oid: 1, slug: "order-1-a-example-com", domain_name: "a.example.com" } as AboutOrder;
    const notOutputs = new Set<string>([...VPS_INPUT_NAMES, ...ORDER_FIELDS_NOT_KEPT]);
    expect(ORDER_FIELDS_NOT_KEPT).toEqual(["orderDescription"]);
    expect(sorted(VPS_OUTPUT_ONLY)).toEqual(
      sorted(Object.keys(orderFields(order)).filter((k) => !notOutputs.has(k))),
    );
  });

  it(`${VPS_DOCS_PATH}'s "What a change does" names every input (its generated list is in place)`, () => {
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
    expect(validateInputs(parseInputs(given))).toEqual([]);
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

describe("the generated docs' lists", () => {
  it("wrap each item under its bullet, and refuse a line Markdown would read as a new block", () => {
    const long = `\`memoryMb\` (whole number): ${"word ".repeat(30)}end.`;
    const lines = markdownList([long, "`x` (string): short."]).split("\n");
    expect(lines[0]).toMatch(/^- `memoryMb` \(whole number\): word/);
    expect(lines.at(-1)).toBe("- `x` (string): short.");
    for (const line of lines.slice(1, -1)) expect(line).toMatch(/^ {2}\S/);
    expect(lines.length).toBeGreaterThanOrEqual(3); // the long item wrapped
    expect(lines.every((line) => line.length <= 110)).toBe(true);
    // A wrapped line starting "- " would become a nested list item.
    const nested = `\`y\` (string): ${"x".repeat(107)} - a dash where the line breaks`;
    expect(() => markdownList([nested])).toThrow(/would start a Markdown block: - a dash/);
  });
});
