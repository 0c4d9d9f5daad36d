/**
 * The tsconfigs users have, for the compile tests: the one `pulumi new typescript` writes today, the one
 * it wrote before (node10 resolution, which ignores `exports`, and no `esModuleInterop`), an ES-module
 * project with the strictest flags, and a bundler's. None skips checking the libraries' typings.
 *
 * The one written before 2026-03 is as the template wrote it: node10 resolution reads the declarations of
 * dist/node10-types/ (package.json `types` and `typesVersions`), which use zod's ES-module typings, so
 * they compile without `esModuleInterop` (zod's CommonJS typings do not).
 */

/** `typescript/tsconfig.json` of github.com/pulumi/templates (moduleResolution nodenext since 2026-03). */
const PULUMI_NEW = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "nodenext",
    moduleResolution: "nodenext",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/** The same template from 2024-04 to 2026-03: CommonJS, node10 resolution, no esModuleInterop. */
const PULUMI_NEW_COMMONJS = {
  ...PULUMI_NEW,
  compilerOptions: {
    ...PULUMI_NEW.compilerOptions,
    module: "commonjs",
    moduleResolution: "node",
  },
};

export interface UserTsconfig {
  /** The file's text. */
  text: string;
  /** `"module"` for an ES-module project (package.json `type`). */
  packageType?: "module";
}

const json = (value: unknown) => JSON.stringify(value, null, 4) + "\n";

/** The two `pulumi new typescript` has written: today's, and the one before 2026-03. */
export const PULUMI_NEW_TSCONFIGS: Record<string, UserTsconfig> = {
  "pulumi new typescript": { text: json(PULUMI_NEW) },
  "pulumi new typescript before 2026-03 (commonjs, node10, no esModuleInterop)": {
    text: json(PULUMI_NEW_COMMONJS),
  },
};

export const TSCONFIGS: Record<string, UserTsconfig> = {
  ...PULUMI_NEW_TSCONFIGS,
  "an ES-module project (nodenext) with the strictest flags": {
    packageType: "module",
    text: json({
      ...PULUMI_NEW,
      compilerOptions: {
        ...PULUMI_NEW.compilerOptions,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noPropertyAccessFromIndexSignature: true,
      },
    }),
  },
  "a bundler project (preserve, bundler)": {
    text: json({
      ...PULUMI_NEW,
      compilerOptions: { ...PULUMI_NEW.compilerOptions, module: "preserve", moduleResolution: "bundler" },
    }),
  },
};

/** A program that imports every public entry point and names the types a user needs. */
export const ENTRY_POINTS_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import {
  DATA_SOURCE_TOKENS,
  Vps,
  getPriceQuote,
  getPricingPlansOutput,
  type DataSourceName,
  type DcLocation,
  type GetPriceQuoteArgs,
  type Order,
  type VpsArgs,
  type VpsType,
} from "pulumi-rimuhosting";
import { createClient, type RimuClient } from "pulumi-rimuhosting/client";
import { ENDPOINTS } from "pulumi-rimuhosting/contract";
import { DEMO_API_KEY, startEmulator, type RunningEmulator } from "pulumi-rimuhosting/emulator";
import * as impl from "pulumi-rimuhosting/impl";

const dcLocation: DcLocation = "DCDALLAS";
const vpsType: VpsType = "REGULAR";
const quote: GetPriceQuoteArgs = { dcLocation, vpsType, memoryMb: 1024 };
const args: VpsArgs = { domainName: "web.example.com", dcLocation, vpsType };
const token: string = DATA_SOURCE_TOKENS["getPricingPlans" satisfies DataSourceName];
const orderOids = (orders: Order[]): number[] => orders.map((order) => order.orderOid);

export async function main(): Promise<void> {
  const emulator: RunningEmulator = await startEmulator();
  const client: RimuClient = createClient({ baseUrl: emulator.baseUrl, apiKey: DEMO_API_KEY });
  await client.listDistributions();
  await emulator.close();
}

export const used = [
  new Vps("web", args).primaryIp,
  getPriceQuote(quote),
  getPricingPlansOutput({ dcLocation: pulumi.output(dcLocation) }),
  token,
  orderOids,
  Object.keys(ENDPOINTS),
  impl.check,
];
`;
