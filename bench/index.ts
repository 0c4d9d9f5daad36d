/**
 * `npm run bench`: runs every benchmark, one after another (they share two cores, so never in
 * parallel). `node dist/bench/index.js emulator client` runs only the named ones; the cli bench takes
 * `--fleet N` (default 200), `--rounds N` (default 2), `--profile` (CPU profiles of every operation) and
 * `--budget USD` (the stacks' monthlyBudgetUsd: the budget's guard then judges each order and change); the plugin
 * bench takes `--rounds N` (default 7), `--against <executable>` and `--whole-process`; the registration bench
 * `--fleet N` (default 500) and `--rounds N`.
 */
import { parseArgs } from "node:util";
import { benchCli } from "./cli.js";
import { benchClient } from "./client.js";
import { benchEmulator } from "./emulator.js";
import { benchPlugin } from "./plugin.js";
import { benchRegistration } from "./registration.js";

const { values: flags, positionals: wanted } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    fleet: { type: "string" },
    rounds: { type: "string" },
    profile: { type: "boolean" },
    budget: { type: "string" },
    against: { type: "string" },
    "whole-process": { type: "boolean" },
  },
});
const count = (flag: string | undefined): number | undefined => {
  if (flag === undefined) return undefined;
  const n = Number(flag);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`expected a whole number >= 1, not ${flag}`);
  return n;
};

export const BENCHES: Record<string, () => Promise<unknown>> = {
  emulator: () => benchEmulator(),
  client: () => benchClient(),
  cli: () =>
    benchCli({
      fleet: count(flags.fleet),
      rounds: count(flags.rounds),
      profile: flags.profile,
      budgetUsd: count(flags.budget),
    }),
  plugin: () =>
    benchPlugin({
      rounds: count(flags.rounds),
      against: flags.against,
      wholeProcess: flags["whole-process"],
    }),
  registration: () => benchRegistration({ fleet: count(flags.fleet), rounds: count(flags.rounds) }),
};

async function main(): Promise<void> {
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
