/**
 * The whole package schema of the native provider, assembled from generated parts only: the Vps resource
 * from the field table (vps-schema-types.ts), the functions and their types from the data sources'
 * declarations (function-specs.ts), the configuration from provider/config.ts. Written to
 * provider/native/schema.json by `npm run schema`; the plugin serves that file (GetSchema) and the SDKs in
 * sdk/ are generated from it.
 */
import { CONFIG_KEYS, DEFAULT_BASE_URL, ENV_VARS, RETRY_ENV_VARS } from "../../config.js";
import { functionSpecs, type FunctionSpec } from "./function-specs.js";
import { vpsDescription } from "./vps-examples.js";
import { VPS_SCHEMA_TYPES, type ObjectTypeSpec, type PropertySpec } from "./vps-schema-types.js";

const PACKAGE_NAME = "rimuhosting";
/** Where the Go SDK lives (its module path is this without the last element). */
export const GO_IMPORT_BASE = "github.com/pulumi-rimuhosting/pulumi-rimuhosting/sdk/go/rimuhosting";
export const NODEJS_PACKAGE = "@pulumi-rimuhosting/rimuhosting";
const PYTHON_PACKAGE = "pulumi_rimuhosting";
const REPOSITORY = "https://github.com/pulumi-rimuhosting/pulumi-rimuhosting";
/**
 * Where the engine downloads the plugin from when it is not installed: the GitHub releases of the repository,
 * asset `pulumi-resource-rimuhosting-v<version>-<os>-<arch>.tar.gz` of release `v<version>`. The generated SDKs
 * carry it (package.json `pulumi.server`, pulumi-plugin.json `server`, the Go SDK's default resource options).
 */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-rimuhosting/pulumi-rimuhosting";
/** The `pulumi` Python package needs 3.10 (its own requires-python since 3.231); the codegen's default is 3.9. */
const PYTHON_REQUIRES = ">=3.10";

/**
 * The README of the npm and PyPI packages (their registry pages): what it is and where the docs are, at the tag of
 * the release the package is part of, so that each version's page describes that version.
 */
function sdkReadme(version: string): string {
  const docs = `${REPOSITORY}/blob/v${version}/docs`;
  return [
    "# RimuHosting provider for Pulumi",
    "",
    "Declare [RimuHosting](https://rimuhosting.com) VPS servers in a Pulumi program, and let `pulumi up` order, " +
      "resize, move, reinstall and cancel them through RimuHosting's API. The provider plugin " +
      "(`pulumi-resource-rimuhosting`) is published on the project's GitHub releases.",
    "",
    `- Overview and examples: ${docs}/_index.md`,
    `- Installation and configuration: ${docs}/installation-configuration.md`,
    `- The \`Vps\` resource: ${docs}/vps.md`,
    "",
  ].join("\n");
}

export interface PackageSpec {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  homepage: string;
  repository: string;
  license: string;
  publisher: string;
  pluginDownloadURL: string;
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec> };
  types: Record<string, ObjectTypeSpec>;
  resources: Record<string, unknown>;
  functions: Record<string, FunctionSpec>;
  language: Record<string, unknown>;
}

/**
 * A budget amount: a number, or text read by the provider's one rule (provider/impl/cost/setting.ts). Text too, so
 * a YAML program can quote an amount (`monthlyBudgetUsd: "50"`) to have it read as written rather than by YAML's
 * rules (`0x10` is 16 to YAML); the host refused every quoted amount while the type was only a number.
 */
const AMOUNT: PropertySpec = { type: "number", oneOf: [{ type: "number" }, { type: "string" }] };

const SETTINGS: Record<string, PropertySpec> = {
  apiKey: {
    type: "string",
    secret: true,
    description:
      `The RimuHosting API key (stack config ${CONFIG_KEYS.apiKey}; set it with --secret). ` +
      `Left unset, the provider reads ${ENV_VARS.apiKey}.`,
  },
  baseUrl: {
    type: "string",
    description:
      `The API root, with or without the trailing /r (stack config ${CONFIG_KEYS.baseUrl}). Left unset, the ` +
      `provider reads ${ENV_VARS.baseUrl}, else ${DEFAULT_BASE_URL}. Point it at the emulator to try things.`,
  },
  monthlyBudgetUsd: {
    ...AMOUNT,
    description:
      "The most, in US dollars a month, the account this provider's API key reaches may be billed at a run's " +
      "highest point: once the run's new orders and changes are made and before the VPSs it deletes are " +
      "cancelled, so a delete counts until it is made (stack config rimuhosting:monthlyBudgetUsd). A preview over " +
      "it fails before anything is ordered. Left unset, no limit. See docs/cost.md.",
  },
  maxMonthlyIncreaseUsd: {
    ...AMOUNT,
    description:
      "The most, in US dollars a month, one run's new VPSs and growing changes may add (stack config " +
      "rimuhosting:maxMonthlyIncreaseUsd). A preview over it fails before anything is ordered. Left unset, no limit.",
  },
  budgetEnforcement: {
    type: "string",
    description:
      "What a run over monthlyBudgetUsd or maxMonthlyIncreaseUsd does: enforce (the default: the preview fails) " +
      "or warn (a warning, and the run goes on). Stack config rimuhosting:budgetEnforcement.",
  },
  retryLimit: {
    type: "integer",
    description:
      "How many times a request is sent again after a 429, a 5xx or a dropped connection, where that is safe " +
      `(stack config rimuhosting:retryLimit; 0 to 20). Left unset, the provider reads ${RETRY_ENV_VARS.retryLimit}, ` +
      "else 3. See docs/installation-configuration.md.",
  },
  requestsPerSecond: {
    type: "number",
    description:
      "The most requests per second the provider sends, retries too (stack config rimuhosting:requestsPerSecond), " +
      `for an account whose requests RimuHosting limits. Left unset, the provider reads ${RETRY_ENV_VARS.requestsPerSecond}, ` +
      "else no pace.",
  },
};

export function packageSchema(root: string, version: string): PackageSpec {
  const { functions, types } = functionSpecs(root);
  return {
    name: PACKAGE_NAME,
    displayName: "RimuHosting",
    version,
    description:
      "RimuHosting VPS servers: order, resize, move, reinstall and cancel them through RimuHosting's API.",
    keywords: ["pulumi", "rimuhosting", "vps", "category/cloud"],
    homepage: REPOSITORY,
    repository: REPOSITORY,
    license: "Apache-2.0",
    publisher: "pulumi-rimuhosting",
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    config: { variables: SETTINGS },
    provider: {
      description:
        "The RimuHosting provider. Create one explicitly for each further account (each with its own apiKey).",
      inputProperties: SETTINGS,
    },
    types: { ...VPS_SCHEMA_TYPES.types, ...types },
    resources: {
      "rimuhosting:index:Vps": {
        description: vpsDescription(
          root,
          "One RimuHosting VPS order; its id is the order's number. A change is applied in place where the API " +
            "allows it (resize, move, reinstall, power state, reverse DNS) and as a replacement where it does not.",
        ),
        inputProperties: VPS_SCHEMA_TYPES.inputProperties,
        requiredInputs: VPS_SCHEMA_TYPES.requiredInputs,
        properties: VPS_SCHEMA_TYPES.properties,
        required: VPS_SCHEMA_TYPES.required,
      },
    },
    functions,
    language: {
      go: {
        importBasePath: GO_IMPORT_BASE,
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      nodejs: { packageName: NODEJS_PACKAGE, respectSchemaVersion: true, readme: sdkReadme(version) },
      python: {
        packageName: PYTHON_PACKAGE,
        respectSchemaVersion: true,
        pyproject: { enabled: true },
        pythonRequires: PYTHON_REQUIRES,
        readme: sdkReadme(version),
      },
    },
  };
}
