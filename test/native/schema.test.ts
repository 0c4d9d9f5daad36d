/**
 * The native provider's schema (provider/native/schema.json, what the plugin serves and what the SDKs are
 * generated from) against its sources: the file is what the generator makes of them now, and it says what
 * the field table says about every Vps input and output (types aside). A table change without
 * `npm run schema` fails here; so does a schema that drifts from the table by any other way.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DATA_SOURCE_TOKENS } from "../../provider/data-sources/tokens";
import { REPLACE_FORCING_INPUTS } from "../../provider/impl/inputs/vps-changes";
import {
  SECRET_FIELDS,
  VPS_FIELDS,
  VPS_INPUT_NAMES,
  VPS_OUTPUT_ONLY,
  VPS_OUTPUT_ONLY_FIELDS,
} from "../../provider/impl/fields/vps-fields";
import { inputDescription, type FieldRule } from "../../provider/impl/fields/vps-field-rules";
import { schemaText } from "../../provider/native/schema/generate";
import { QUICKSTART_EXAMPLES } from "../../provider/native/schema/vps-examples";

const ROOT = path.resolve(__dirname, "../..");
const FILE = path.join(ROOT, "provider/native/schema.json");
const text = fs.readFileSync(FILE, "utf8");

interface Property {
  type?: string;
  items?: { type?: string };
  description?: string;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
  default?: unknown;
}
const schema = JSON.parse(text) as {
  version: string;
  pluginDownloadURL: string;
  language: { python: { pythonRequires: string } };
  config: { variables: Record<string, Property> };
  provider: { inputProperties: Record<string, Property> };
  resources: Record<
    string,
    {
      description: string;
      inputProperties: Record<string, Property>;
      requiredInputs: string[];
      properties: Record<string, Property>;
      required: string[];
    }
  >;
  types: Record<string, { properties?: Record<string, Property> }>;
  functions: Record<
    string,
    {
      inputs?: { properties?: Record<string, Property> };
      outputs?: { properties?: Record<string, Property> };
    }
  >;
};
const vps = schema.resources["rimuhosting:index:Vps"]!;

describe("the native provider's schema", () => {
  it("is what `npm run schema` generates from the field table and the data sources now", () => {
    expect(schemaText()).toBe(text);
  }, 60_000);

  it("has every input of the field table, each with its secret flag, replace flag and default words", () => {
    expect(Object.keys(vps.inputProperties)).toEqual(VPS_INPUT_NAMES);
    for (const name of VPS_INPUT_NAMES) {
      const row: FieldRule = VPS_FIELDS[name];
      const spec = vps.inputProperties[name]!;
      expect([name, spec.secret === true]).toEqual([name, SECRET_FIELDS.includes(name)]);
      expect([name, spec.willReplaceOnChanges === true]).toEqual([
        name,
        REPLACE_FORCING_INPUTS.includes(name),
      ]);
      expect([name, spec.description]).toEqual([name, expect.stringContaining(inputDescription(row))]);
      // A literal default where the service (or the provider) applies exactly that value; words otherwise.
      expect([name, spec.default]).toEqual([name, row.defaultValue]);
      if (row.default !== undefined && row.defaultValue === undefined)
        expect([name, spec.description]).toEqual([name, expect.stringContaining(row.default)]);
    }
    expect(vps.requiredInputs).toEqual(
      VPS_INPUT_NAMES.filter((name) => (VPS_FIELDS[name] as FieldRule).required === true),
    );
  });

  it("has every input and every output-only field as an output, secrets secret", () => {
    expect(Object.keys(vps.properties).sort()).toEqual([...VPS_INPUT_NAMES, ...VPS_OUTPUT_ONLY].sort());
    for (const name of VPS_OUTPUT_ONLY)
      expect(vps.properties[name]!.description!.toLowerCase()).toContain(
        VPS_OUTPUT_ONLY_FIELDS[name].description.toLowerCase(),
      );
    for (const name of SECRET_FIELDS) expect([name, vps.properties[name]!.secret]).toEqual([name, true]);
    for (const name of vps.required) expect(Object.keys(vps.properties)).toContain(name);
  });

  it("types as whole numbers exactly the ids and sizes in MB of the data sources (their `@integer` marks)", () => {
    type Props = Record<string, { type?: string; items?: { type?: string } }> | undefined;
    const integers = (where: string, properties: Props) =>
      Object.entries(properties ?? {})
        .filter(([, spec]) => spec.type === "integer" || spec.items?.type === "integer")
        .map(([name]) => `${where}.${name}`);
    const found = [
      ...Object.entries(schema.types).flatMap(([token, type]) =>
        integers(token.split(":")[2]!, type.properties),
      ),
      ...Object.entries(schema.functions).flatMap(([token, fn]) => [
        ...integers(`${token.split(":")[2]!}(args)`, fn.inputs?.properties),
        ...integers(`${token.split(":")[2]!}()`, fn.outputs?.properties),
      ]),
    ];
    // Written out here, not read from the sources: they are what is being checked.
    expect(found.sort()).toEqual([
      "BillingMethod.billingOid",
      "BillingMethod.orderOids",
      "Order.billingOid",
      "Order.diskSpace2Mb",
      "Order.diskSpaceMb",
      "Order.memoryMb",
      "Order.orderOid",
      "PricingPlan.minimumMemoryMb",
      "VpsHostStatus.memFreeMb",
      "VpsHostStatus.memTotalMb",
      "getDataTransferUsage().orderOid",
      "getDataTransferUsage(args).orderOid",
      "getOrder().billingOid",
      "getOrder().diskSpace2Mb",
      "getOrder().diskSpaceMb",
      "getOrder().memoryMb",
      "getOrder().orderOid",
      "getOrder(args).orderOid",
      "getPriceQuote(args).diskSpace2Mb",
      "getPriceQuote(args).diskSpaceMb",
      "getPriceQuote(args).memoryMb",
      "getVpsStatus().orderOid",
      "getVpsStatus(args).orderOid",
    ]);
  });

  it("configures apiKey (secret), baseUrl, the budget and the retries, for the stack config and explicit providers alike; serves every data source", () => {
    for (const settings of [schema.config.variables, schema.provider.inputProperties]) {
      expect(Object.keys(settings).sort()).toEqual([
        "apiKey",
        "baseUrl",
        "budgetEnforcement",
        "maxMonthlyIncreaseUsd",
        "monthlyBudgetUsd",
        "requestsPerSecond",
        "retryLimit",
      ]);
      expect(settings.apiKey!.secret).toBe(true);
      expect([settings.retryLimit!.type, settings.requestsPerSecond!.type]).toEqual(["integer", "number"]);
      expect([settings.monthlyBudgetUsd!.type, settings.maxMonthlyIncreaseUsd!.type]).toEqual([
        "number",
        "number",
      ]);
    }
    expect(Object.keys(schema.functions).sort()).toEqual(Object.values(DATA_SOURCE_TOKENS).sort());
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(schema.version).toBe(pkg.version);
  });

  it("says where the plugin downloads from (the repository's GitHub releases), and that Python 3.10 is needed", () => {
    expect(schema.pluginDownloadURL).toBe("github://api.github.com/pulumi-rimuhosting/pulumi-rimuhosting");
    expect(schema.language.python.pythonRequires).toBe(">=3.10");
  });

  it("describes the Vps with the quickstart of examples/ in TypeScript, Python, Go, Java and YAML, then Import", () => {
    const description = vps.description;
    expect(QUICKSTART_EXAMPLES.map((e) => e.language)).toEqual([
      "typescript",
      "python",
      "go",
      "java",
      "yaml",
    ]);
    for (const { language, file } of QUICKSTART_EXAMPLES) {
      const program = fs.readFileSync(path.join(ROOT, file), "utf8");
      expect([file, description.includes("```" + language + "\n" + program + "```\n")]).toEqual([file, true]);
    }
    // Pulumi's shortcodes around the examples, so each SDK keeps its own language's block; Import after them.
    const order = [
      "{{% examples %}}",
      "{{% example %}}",
      "{{% /example %}}",
      "{{% /examples %}}",
      "## Import",
    ];
    const at = order.map((marker) => description.indexOf(marker));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(description.slice(at[4]!)).toContain("$ pulumi import rimuhosting:index:Vps web 1234567");
  });
});
