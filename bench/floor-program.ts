/**
 * The cli bench's floor (`--floor`): the fleet example's program with its `Vps` swapped for a resource of the same
 * shape whose dynamic provider does nothing. Same type token, the same properties registered (every output seeded,
 * the inputs, the creation scope, the preview flag, the provider text), the same secret output and the same stack
 * trimming (this package's provider/vps-registration.js, copied); its provider checks by handing the inputs back,
 * diffs by comparing them, and creates and updates at once, returning a fleet VPS's recorded outputs with the new
 * inputs over them. What the fleet's ratios would be with no provider work at all, and none of this package's code
 * but the stack trimming: the SDK's and the engine's per-resource cost on this machine.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SECRET_FIELDS, VPS_INPUT_NAMES, VPS_OUTPUT_ONLY } from "../provider/impl/fields/vps-fields.js";
import { DYNAMIC_VPS_TYPE } from "../provider/impl/fields/vps-type-tokens.js";

const PACKAGE = "rimu-floor";
/** What a secret value looks like in `pulumi stack export` without `--show-secrets`. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** The resource: provider/vps.ts's constructor, without what only the real provider needs. */
const RESOURCE_JS = `"use strict";
const pulumi = require("@pulumi/pulumi");
const { trimRegistrationStacks } = require("./registration.js");
const { type, outputs, secrets } = require("./fields.json");
const PROVIDER_TEXT = 'exports.handler = () => require("${PACKAGE}/provider");\\n';
const seed = Object.freeze(Object.fromEntries(outputs.map((key) => [key, undefined])));
class Vps extends pulumi.CustomResource {
  constructor(name, args, opts) {
    const props = { ...seed, ...args };
    props.creationScope = pulumi.getProject() + "/" + pulumi.getStack() + "/" + name;
    if (pulumi.runtime.isDryRun())
      props.__preview = "urn:pulumi:" + pulumi.getStack() + "::" + pulumi.getProject() + "::" + type + "::" + name;
    props.__provider = PROVIDER_TEXT;
    const additionalSecretOutputs = secrets.filter((key) => key === "password" || args[key] !== undefined);
    const restoreStacks = trimRegistrationStacks();
    try {
      super(type, name, props, { ...opts, additionalSecretOutputs });
    } finally {
      restoreStacks();
    }
  }
}
exports.Vps = Vps;
`;

const RESOURCE_DTS = `import * as pulumi from "@pulumi/pulumi";
export type DcLocation = string;
export declare class Vps extends pulumi.CustomResource {
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions);
  readonly [output: string]: any;
}
`;

/** The do-nothing provider the host loads for every VPS. */
const PROVIDER_JS = `"use strict";
const recorded = require("./outputs.json");
const given = (inputs) => {
  const copy = { ...inputs };
  delete copy.__preview;
  delete copy.__provider;
  return copy;
};
let next = 1000;
module.exports = {
  async check(olds, news) {
    return { inputs: given(news) };
  },
  async diff(id, olds, news) {
    const changed = Object.keys(given(news)).some((key) => JSON.stringify(news[key]) !== JSON.stringify(olds[key]));
    return { changes: changed, replaces: [], deleteBeforeReplace: false };
  },
  async create(inputs) {
    return { id: String(next++), outs: { ...recorded, ...given(inputs) } };
  },
  async update(id, olds, news) {
    return { outs: { ...recorded, ...given(news) } };
  },
  async read(id, props) {
    return { id, props };
  },
  async delete() {},
};
`;

/** A recorded output as a provider returns it: secrets (exported as ciphertext objects) as plain strings. */
function plain(value: unknown): unknown {
  if (value && typeof value === "object" && SECRET_SIG in value) return "floor-secret-0123456789ab";
  return value;
}

/**
 * Turns the installed copy of the fleet example in `programDir` (test/engine/installed-program.ts) into the floor's
 * program. `recordedOutputs`: a fleet VPS's outputs from `pulumi stack export`.
 */
export function floorProgram(programDir: string, recordedOutputs: Record<string, unknown>): void {
  const index = path.join(programDir, "index.ts");
  const program = fs.readFileSync(index, "utf8");
  const swapped = program.replace(/from "pulumi-rimuhosting";/, `from "${PACKAGE}";`);
  if (swapped === program) throw new Error(`floor: no import of pulumi-rimuhosting in ${index}`);
  fs.writeFileSync(index, swapped);

  const dir = path.join(programDir, "node_modules", PACKAGE);
  fs.mkdirSync(dir, { recursive: true });
  const manifest = { name: PACKAGE, version: "0.0.0", main: "index.js", types: "index.d.ts" };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest));
  fs.writeFileSync(path.join(dir, "index.js"), RESOURCE_JS);
  fs.writeFileSync(path.join(dir, "index.d.ts"), RESOURCE_DTS);
  fs.writeFileSync(path.join(dir, "provider.js"), PROVIDER_JS);
  fs.copyFileSync(
    path.join(__dirname, "..", "provider", "vps-registration.js"),
    path.join(dir, "registration.js"),
  );
  const fields = {
    type: DYNAMIC_VPS_TYPE,
    outputs: [...VPS_OUTPUT_ONLY, ...VPS_INPUT_NAMES],
    secrets: SECRET_FIELDS,
  };
  fs.writeFileSync(path.join(dir, "fields.json"), JSON.stringify(fields));
  const outputs = Object.fromEntries(
    Object.entries(recordedOutputs)
      .filter(([key]) => key !== "__provider")
      .map(([key, value]) => [key, plain(value)]),
  );
  fs.writeFileSync(path.join(dir, "outputs.json"), JSON.stringify(outputs));
}
