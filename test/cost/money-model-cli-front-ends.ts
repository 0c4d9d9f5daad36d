// The money model's two front ends through the real CLI (money-model-cli.ts): the dynamic Vps (fixtures/money-model,
// its VPSs from the stack config) and the native plugin (a YAML program, written again before each run), each with
// its VPS type, its project, and how a stack's program is written before a run.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Spec } from "./model/engine";
import type { CliStack } from "../engine/cli-stack";
import { VPS_TYPE } from "../engine/e2e-support";
import {
  CACHED_PLUGIN_ENTRY,
  NATIVE_VPS_TYPE,
  PLUGIN_VERSION,
  REPO_ROOT,
  writeYamlProgram,
} from "../engine/native-programs";

/** One front end: its VPS type, its project, and how a stack's program is written before a run. */
export interface FrontEnd {
  name: string;
  type: string;
  project: string;
  programDir(): string;
  /** Writes `program` for the stack labelled `label`; returns the program as the CLI runs it (for the failure). */
  write(cli: CliStack, label: string, program: readonly Spec[]): Promise<string>;
  /** Removes the program programDir() wrote, if it wrote one (after the front end's cases). */
  removeProgram(): void;
}

const domainOf = (label: string, spec: Spec) => `${spec.name}.${label}.model.example.com`;
const ptrOf = (spec: Spec) =>
  spec.reverseDns === undefined ? undefined : `${spec.reverseDns}.model.example.com`;

export const DYNAMIC: FrontEnd = {
  name: "dynamic Vps",
  type: VPS_TYPE,
  project: "money-model",
  programDir: () => path.join(REPO_ROOT, "test/engine/fixtures/money-model"),
  async write(cli, label, program) {
    const vpss = JSON.stringify(
      program.map((spec) => ({
        name: spec.name,
        dcLocation: spec.dcLocation,
        memoryMb: spec.memoryMb,
        diskSpaceMb: spec.diskSpaceMb,
        ...(ptrOf(spec) === undefined ? {} : { reverseDns: ptrOf(spec) }),
        deleteBeforeReplace: spec.deleteBeforeReplace,
      })),
    );
    await cli.setConfigs({ vpss, label });
    return `config vpss: ${vpss}`;
  },
  removeProgram() {
    // the fixture's program, in the repository
  },
};

// No `dependsOn` between the VPSs: the plugin keeps I1 whatever order the update checks them in (docs/cost.md).
const yamlOf = (label: string, program: readonly Spec[]): string =>
  `resources:\n${program
    .map((spec) => {
      const options = spec.deleteBeforeReplace ? ["      deleteBeforeReplace: true\n"] : [];
      return `  ${spec.name}:
    type: rimuhosting:index:Vps
    properties:
      domainName: ${domainOf(label, spec)}
      distro: deb12.64
      dcLocation: ${spec.dcLocation}
      memoryMb: ${spec.memoryMb}
      diskSpaceMb: ${spec.diskSpaceMb}
${ptrOf(spec) === undefined ? "" : `      reverseDns: ${ptrOf(spec)}\n`}${options.length > 0 ? `    options:\n${options.join("")}` : ""}`;
    })
    .join("")}`;

let yamlDir = "";
export const YAML: FrontEnd = {
  name: "native plugin (YAML)",
  type: NATIVE_VPS_TYPE,
  project: "money-model-yaml",
  programDir: () =>
    (yamlDir ||= writeYamlProgram("money-model-yaml", "resources: {}\n", { version: PLUGIN_VERSION })),
  write(_cli, label, program) {
    // One project for every stack: the program is the resources written before each stack's run. The plugin is
    // named with its version, so the CLI caches its schema: one start of the plugin a program run, not two.
    const body = program.length === 0 ? "resources: {}\n" : yamlOf(label, program);
    fs.writeFileSync(
      path.join(yamlDir, "Pulumi.yaml"),
      `name: money-model-yaml\nruntime: yaml\n${CACHED_PLUGIN_ENTRY}${body}`,
    );
    return Promise.resolve(body);
  },
  removeProgram() {
    if (yamlDir) fs.rmSync(yamlDir, { recursive: true, force: true });
    yamlDir = "";
  },
};
