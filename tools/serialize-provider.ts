/**
 * Serializes the Vps provider shim exactly as `dynamic.Resource` does
 * (`serializeFunction(() => provider, { allowSecrets: true })`, @pulumi/pulumi dynamic/index.js) and
 * prints what ends up in every Vps's `__provider`: its size, the require() calls in it, containsSecrets.
 *
 * Imports the shim's source; run from the built output, outside jest, because serializeFunction() captures
 * the function's compiled text and jest's loader and coverage change it:
 *   npm run build && node dist/tools/serialize-provider.js [file-to-write-the-text-to]
 */
import { writeFileSync } from "node:fs";
import { serializeFunction } from "@pulumi/pulumi/runtime";
import vpsShim = require("../provider/vps-shim.js");

export interface SerializedProviderReport {
  bytes: number;
  lines: number;
  containsSecrets: boolean;
  requires: string[];
}

async function main(): Promise<void> {
  const provider = vpsShim;
  const serialized = await serializeFunction(() => provider, { allowSecrets: true });
  const requires = [
    ...new Set([...serialized.text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] as string)),
  ];
  const report: SerializedProviderReport = {
    bytes: Buffer.byteLength(serialized.text),
    lines: serialized.text.split("\n").length,
    containsSecrets: serialized.containsSecrets,
    requires,
  };
  const out = process.argv[2];
  if (out) writeFileSync(out, serialized.text);
  console.log(JSON.stringify(report));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
