/**
 * `npm run bench`: runs every benchmark, one after another (they share two cores, so never in
 * parallel). `node dist/bench/index.js emulator client` runs only the named ones; the cli bench takes
 * `--fleet N` (default 200), `--rounds N` (default 2), `--profile` (CPU profiles of every operation), `--floor`
 * (the same commands on a do-nothing provider's program of the fleet's shape, all without checkpoints) and
 * `--budget USD` (the stacks' monthlyBudgetUsd: the budget's guard then judges each order and change) and
 * `--rate-limit R/S` (the emulator's rate limit, the stacks paced just under it) and `--time-scale X` (the emulator's
 * modelled durations times X; default 0.02, 0: none); the plugin
 * bench takes `--rounds N` (default 7), `--against <executable>` and `--whole-process`; the registration bench
 * `--fleet N` (default 500) and `--rounds N`; the startup bench (a one-VPS stack's commands with and without
 * NODE_COMPILE_CACHE) `--rounds N` (default 5).
 */
import { parseArgs } from "node:util";
import { unknownOptionMessage, USAGE_EXIT } from "../contract/command-line.js";
import { parseRateLimitFlag, type RateLimit } from "../emulator/rate-limit.js";
import { benchCli } from "./cli.js";
import { benchClient } from "./client.js";
import { benchEmulator } from "./emulator.js";
import { benchPlugin } from "./plugin.js";
import { benchRegistration } from "./registration.js";
import { benchStartup } from "./startup.js";

const USAGE = `usage: npm run bench -- [emulator] [client] [cli] [plugin] [registration] [startup] [options]
  (no name: every benchmark, one after another)
  --fleet N          cli: the large fleet's size (default 200); registration: VPSs registered (default 500)
  --rounds N         cli (default 2), plugin (default 7), registration (default 5), startup (default 5): rounds
                     to take the median of
  --profile          cli: CPU profiles of every operation
  --floor            cli: beside the fleet, a do-nothing provider's program of its shape, all without checkpoints
  --budget USD       cli: the stacks' monthlyBudgetUsd (the budget's guard judges each order and change)
  --rate-limit R/S   cli: the emulator allows R requests per S seconds per key; the stacks keep a pace under it
  --time-scale X     cli: the emulator's modelled durations times X (default 0.02; 0: the API answers at once)
  --against FILE     plugin: another executable to time beside this one
  --whole-process    plugin: time to the process's exit, not to the first answer
  --help             this text`;

/** A mistake in the command line: said with the usage, without a stack trace. */
class UsageError extends Error {}

function parseCommandLine(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        fleet: { type: "string" },
        rounds: { type: "string" },
        profile: { type: "boolean" },
        floor: { type: "boolean" },
        budget: { type: "string" },
        "rate-limit": { type: "string" },
        "time-scale": { type: "string" },
        against: { type: "string" },
        "whole-process": { type: "boolean" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    const option = /'([^']+)'/.exec(String(error))?.[1];
    const unknown =
      (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined;
    const command = "npm run bench --"; // as the user types it: `npm run bench -- --help`
    throw new UsageError(
      unknown ? unknownOptionMessage(command, option).slice(`${command}: `.length) : (error as Error).message,
    );
  }
}

type Flags = ReturnType<typeof parseCommandLine>["values"];

const count = (name: string, flag: string | undefined): number | undefined => {
  if (flag === undefined) return undefined;
  const n = Number(flag);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--${name} ${flag}: give a whole number, 1 or more`);
  return n;
};

/** `--rate-limit R/S`: the emulator's rate limit, or a usage error naming the flag's form. */
const rateLimitOf = (flag: string | undefined): RateLimit | undefined => {
  if (flag === undefined) return undefined;
  const limit = parseRateLimitFlag(flag);
  if (!limit)
    throw new UsageError(
      `--rate-limit ${flag}: give <requests>/<seconds>, such as 250/60 (250 requests a minute)`,
    );
  return limit;
};

/** `--time-scale X`: a number, 0 or more (0: the emulator's modelled durations are skipped). */
const timeScaleOf = (flag: string | undefined): number | undefined => {
  if (flag === undefined) return undefined;
  const scale = Number(flag);
  if (flag.trim() === "" || !Number.isFinite(scale) || scale < 0)
    throw new UsageError(
      `--time-scale ${flag}: give a number, 0 or more, such as 0.02 (0: no modelled waits)`,
    );
  return scale;
};

/** Each benchmark by name, run with the command line's flags. */
const benchesWith = (flags: Flags): Record<string, () => Promise<unknown>> => ({
  emulator: () => benchEmulator(),
  client: () => benchClient(),
  cli: () =>
    benchCli({
      fleet: count("fleet", flags.fleet),
      rounds: count("rounds", flags.rounds),
      profile: flags.profile,
      floor: flags.floor,
      budgetUsd: count("budget", flags.budget),
      rateLimit: rateLimitOf(flags["rate-limit"]),
      timeScale: timeScaleOf(flags["time-scale"]),
    }),
  plugin: () =>
    benchPlugin({
      rounds: count("rounds", flags.rounds),
      against: flags.against,
      wholeProcess: flags["whole-process"],
    }),
  registration: () =>
    benchRegistration({ fleet: count("fleet", flags.fleet), rounds: count("rounds", flags.rounds) }),
  startup: () => benchStartup({ rounds: count("rounds", flags.rounds) }),
});

async function main(args: string[]): Promise<void> {
  const { values: flags, positionals: wanted } = parseCommandLine(args);
  if (flags.help) {
    console.log(USAGE);
    return;
  }
  for (const name of ["fleet", "rounds", "budget"] as const) count(name, flags[name]); // said before any bench runs
  rateLimitOf(flags["rate-limit"]);
  timeScaleOf(flags["time-scale"]);
  const benches = benchesWith(flags);
  const unknown = wanted.filter((name) => !(name in benches));
  if (unknown.length > 0) {
    throw new UsageError(`unknown bench ${unknown.join(", ")}; known: ${Object.keys(benches).join(", ")}`);
  }
  for (const [name, run] of Object.entries(benches)) {
    if (wanted.length > 0 && !wanted.includes(name)) continue;
    console.log(`== bench: ${name}`);
    await run();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`bench: ${error.message}\n${USAGE}`);
      process.exit(USAGE_EXIT);
    }
    console.error(error);
    process.exit(1);
  });
}
