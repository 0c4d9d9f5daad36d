/**
 * `npm run bench`: runs every benchmark, one after another (they share two cores, so never in
 * parallel). `node dist/bench/index.js emulator client` runs only the named ones.
 */
import { benchCli } from "./cli.js";
import { benchClient } from "./client.js";
import { benchEmulator } from "./emulator.js";

export const BENCHES: Record<string, () => Promise<unknown>> = {
  emulator: () => benchEmulator(),
  client: () => benchClient(),
  cli: () => benchCli(),
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    throw new Error(`unknown bench ${unknown.join(", ")}; known: ${Object.keys(BENCHES).join(", ")}`);
  }
  for (const [name, run] of Object.entries(BENCHES)) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    console.log(`== bench: ${name}`);
    await run();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
