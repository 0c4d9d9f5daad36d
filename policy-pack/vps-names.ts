/**
 * The names this pack reads, spelled as the provider spells them: its field table (provider/impl/fields/vps-fields.ts),
 * its contract (contract/literals.ts) and its type tokens. The pack runs from its own directory with its own
 * node_modules, so it keeps a copy instead of loading the provider; test/policy-pack/names.test.ts fails when the
 * copy and the provider disagree.
 */

/** The native plugin's resource (YAML, Python, Go and TypeScript programs on `pulumi-resource-rimuhosting`). */
export const NATIVE_VPS_TYPE = "rimuhosting:index:Vps";
/** The dynamic provider's `Vps` class (TypeScript programs on the npm package). */
export const DYNAMIC_VPS_TYPE = "pulumi-nodejs:dynamic/rimuhosting:Vps";
/** Any dynamic resource: a Vps among them is told apart by its `__provider` text, which loads this package. */
export const DYNAMIC_RESOURCE_TYPE_PREFIX = "pulumi-nodejs:dynamic";
export const DYNAMIC_PROVIDER_INPUT = "__provider";
export const PROVIDER_PACKAGE = "pulumi-rimuhosting";

/** The Vps inputs the policies judge. */
export const VPS_INPUT = {
  dcLocation: "dcLocation",
  memoryMb: "memoryMb",
  diskSpaceMb: "diskSpaceMb",
  diskSpace2Mb: "diskSpace2Mb",
  allowReinstall: "allowReinstall",
} as const;

/**
 * The fee the VPS will be billed once this run's change is applied, which the provider's check adds to every Vps
 * during preview (absent when it cannot be known).
 */
export const PLANNED_FEE = "plannedMonthlyFeeUsd";
/** What the VPS (or the order it adopts or replaces) is billed now, before this run's change; absent for a new VPS. */
export const CURRENT_FEE = "currentMonthlyFeeUsd";
/**
 * The deployment whose check gave the fees (the engine's address, which the pack is given as well): a VPS the run
 * does not check (`--target`) reaches the pack with the inputs an earlier run recorded, stamped with its deployment.
 */
export const CHECK_DEPLOYMENT = "checkedInDeployment";
/** The output holding what RimuHosting bills the order now, as the state records it. */
export const RECORDED_FEE = "monthlyFeeUsd";

/** The data centres a Vps can be ordered in (the `dcLocation` values). */
export const DATA_CENTRES = [
  "DCDALLAS",
  "DCDALLAS2",
  "DCHOUSTON",
  "DCATLANTA",
  "DCLONDON",
  "DCLONDON2",
  "DCSYDNEY",
  "DCBRISBANE",
  "DCNEWCASTLE",
  "DCAUCKLAND",
  "DCNY",
  "DCNY2",
  "DCFRANKFURT",
] as const;
