/**
 * Prints what every Vps stores as its `__provider` (provider/vps-provider-text.ts): its size and the require()
 * calls in it, and writes the text to a file when given one, for tests that load it the way the dynamic-provider
 * host does (test/helpers/run-serialized-provider.ts).
 *   npm run build && node dist/tools/serialize-provider.js [file-to-write-the-text-to]
 */
import { writeFileSync } from "node:fs";
import { VPS_PROVIDER_TEXT } from "../provider/vps-provider-text.js";

export interface SerializedProviderReport {
  bytes: number;
  lines: number;
  requires: string[];
}

const text = VPS_PROVIDER_TEXT;
const report: SerializedProviderReport = {
  bytes: Buffer.byteLength(text),
  lines: text.split("\n").length,
  requires: [...new Set([...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] as string))],
};
const out = process.argv[2];
if (out) writeFileSync(out, text);
console.log(JSON.stringify(report));
