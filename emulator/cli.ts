#!/usr/bin/env node
/**
 * rimuhosting-emulator: runs the emulator until interrupted. Prints the base URL and the demo API
 * keys, then one structured (JSON) log line per request; the Authorization header is never logged.
 *
 *   rimuhosting-emulator --port 8080 --time-scale 0.1 --state-file .state/emulator.json --control
 *
 * The plugin runs the same command as `pulumi-resource-rimuhosting emulator` (plugin-command.ts).
 */
import { randomInt } from "node:crypto";
import { parseArgs } from "node:util";
import { UnknownOptionError, unknownOptionMessage, USAGE_EXIT } from "../contract/command-line.js";
import { DEMO_ACCOUNTS } from "./accounts.js";
import { DURATIONS_MS } from "./domain/durations.js";
import { EmulatorOptionsSchema, OPTION_BOUNDS, type StartEmulatorOptions } from "./options.js";
import { parseRateLimitFlag, type RateLimit } from "./rate-limit.js";

/**
 * The command's port when none is given: fixed, so the `rimuhosting:baseUrl` a stack is configured with still
 * points at the emulator after a restart. (startEmulator's default is 0, a free port, for tests.)
 */
export const DEFAULT_PORT = 8780;

export const usage = (command: string) => `Usage: ${command} [options]
  --host H            interface to listen on (default 127.0.0.1)
  --port N            port (default ${DEFAULT_PORT}; 0 = a free port)
  --time-scale X      multiplies the real API's durations, 0..${OPTION_BOUNDS.timeScale.max} (default 1: a create
                      takes 45 s, as on the real service; 0 = instant, 0.1 = a tenth)
  --state-file F      persist state to F, written before every answer (its directory must
                      exist); default: memory only
  --load-snapshot F   start from the snapshot F (saved from GET /__emulator/snapshots/NAME,
                      or a state file); it replaces what --state-file held
  --now D             the emulator's date at start: 2027-01-15, 2027-01-15T09:30:00Z, or
                      ahead of today by +40d or +12h (default: today, or the date
                      --state-file kept); moved at runtime with POST /__emulator/time/advance
  --latency-ms N      milliseconds added to every request (0..${OPTION_BOUNDS.latencyMs.max})
  --error-rate X      chance 0..1 of a random 503 on every route (both are chaos rules,
                      seeded by --seed; change them at runtime with --control)
  --rate-limit R/S    at most R requests per API key every S seconds, then 429 with
                      Retry-After (default: no limit)
  --control           enable the /__emulator/* control endpoints (snapshots, chaos, time)
  --seed N            seed for ids, passwords and IPs, to repeat a run (default: a new one
                      at every start)
  --dedicated-servers give the "bob" demo account a dedicated server
  --quiet             no request log lines
  --help              this text`;

function num(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n))
    throw new Error(`--${flag} must be a number, not '${value}'`);
  return n;
}

/**
 * What a flag's value must be, as a sentence naming the flag (the schema's own messages name the option, which the
 * user did not type).
 */
function flagRule(flag: string, option: string): string {
  const bounds = (OPTION_BOUNDS as Record<string, { min: number; max: number; whole: boolean }>)[option];
  if (bounds)
    return `--${flag} must be ${bounds.whole ? "a whole number" : "a number"} from ${bounds.min} to ${bounds.max}`;
  if (option === "now")
    return "--now must be an ISO 8601 date (2027-01-15) or date and time (2027-01-15T09:30:00Z), or a duration ahead such as +40d or +12h";
  return option === "seed" ? "--seed must be a whole number" : `--${flag} must name a file`;
}

/** The command's flags (docs/emulator.md's Options table is checked against them). */
export const CLI_FLAGS = {
  host: { type: "string" },
  port: { type: "string" },
  "time-scale": { type: "string" },
  "state-file": { type: "string" },
  "load-snapshot": { type: "string" },
  now: { type: "string" },
  "latency-ms": { type: "string" },
  "error-rate": { type: "string" },
  "rate-limit": { type: "string" },
  control: { type: "boolean" },
  seed: { type: "string" },
  "dedicated-servers": { type: "boolean" },
  quiet: { type: "boolean" },
  help: { type: "boolean" },
} as const;

/** `--rate-limit R/S`, or a message naming the flag and its form. */
function rateLimitFlag(value: string | undefined): RateLimit | undefined {
  if (value === undefined) return undefined;
  const limit = parseRateLimitFlag(value);
  if (!limit)
    throw new Error(
      `--rate-limit must be <requests>/<seconds>, such as 10/60 (10 requests a minute per API key), not '${value}'.`,
    );
  return limit;
}

/**
 * The options the flags ask for. Without --seed, `seed` is left out: the command picks a new one at every start
 * (runEmulatorCommand), so that passwords differ between runs.
 */
export function parseCliArgs(argv: string[]): StartEmulatorOptions | "help" {
  // Node's own message for an option it does not know (with advice on positional arguments) is not the one line
  // every command of the package says (contract/command-line.ts): find such an option first, leniently, to say ours.
  const { tokens } = parseArgs({ args: argv, strict: false, tokens: true, options: CLI_FLAGS });
  const unknown = tokens.find((token) => token.kind === "option" && !Object.hasOwn(CLI_FLAGS, token.name));
  if (unknown?.kind === "option") throw new UnknownOptionError(unknown.rawName);
  const { values } = parseArgs({ args: argv, strict: true, options: CLI_FLAGS });
  if (values.help) return "help";
  const options: StartEmulatorOptions = {
    host: values.host,
    port: num("port", values.port) ?? DEFAULT_PORT,
    timeScale: num("time-scale", values["time-scale"]),
    stateFile: values["state-file"],
    loadSnapshot: values["load-snapshot"],
    now: values.now,
    latencyMs: num("latency-ms", values["latency-ms"]),
    errorRate: num("error-rate", values["error-rate"]),
    rateLimit: rateLimitFlag(values["rate-limit"]),
    control: values.control ?? false,
    seed: num("seed", values.seed),
    dedicatedServers: values["dedicated-servers"] ?? false,
    logger: !values.quiet,
  };
  const parsed = EmulatorOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const option = String(parsed.error.issues[0]!.path[0]);
    const flag = option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    throw new Error(`${flagRule(flag, option)}, not '${values[flag as keyof typeof values] as string}'.`);
  }
  return options;
}

/** The scale the banner offers for quick tries, besides 0 (instant): a create in 4.5 s, progress still shown. */
export const QUICK_TIME_SCALE = 0.1;

/**
 * What the time scale means for someone trying a program, and how to change it. The advice only ever points to a
 * faster setting than the one running: at or below QUICK_TIME_SCALE (the pages use 0.05) offering it would be slower.
 */
export function timeScaleLine(timeScale: number): string {
  const createS = Math.round((DURATIONS_MS.create * timeScale) / 100) / 10;
  if (timeScale === 0) {
    return "Time scale 0: every operation is instant (use --time-scale 1 to rehearse the real service's waits).";
  }
  const what =
    timeScale === 1
      ? "the default, real-service timing, for rehearsing timeouts and progress output"
      : "a fraction of real-service timing";
  const faster =
    timeScale > QUICK_TIME_SCALE
      ? `For quick tries start with --time-scale 0 (instant) or --time-scale ${QUICK_TIME_SCALE}.`
      : "For instant operations use --time-scale 0.";
  return `Time scale ${timeScale}: a create takes ${createS} s (${what}). ${faster}`;
}

/**
 * The start-up banner. The export hint gives the server root (no `/r`): RimuHosting's own tools append
 * `/r/...` themselves, and our client accepts both forms, so the root works everywhere. With --control, the
 * dashboard's address comes last.
 */
export function bannerLines(baseUrl: string, timeScale = 1, control = false): string[] {
  const root = baseUrl.replace(/\/r\/?$/, "");
  return [
    `RimuHosting emulator listening on ${baseUrl}`,
    timeScaleLine(timeScale),
    `Demo API key: ${DEMO_ACCOUNTS[0]!.apiKey}`,
    ...DEMO_ACCOUNTS.slice(1).map((account) => `Other account "${account.name}": ${account.apiKey}`),
    `export RIMUHOSTING_BASEURL=${root} RIMUHOSTING_APIKEY=${DEMO_ACCOUNTS[0]!.apiKey}`,
    ...(control ? [`Dashboard: ${root}/__emulator/`] : []),
  ];
}

/**
 * A start-up failure as one line that says what to change (no stack trace). The emulator's own errors start with
 * their code, `[EMU_ERR_STATE_INVALID] …`, as docs/emulator.md documents them (matched by the code's text, not the
 * class: the plugin's bundle has its own copy of it).
 */
export function describeStartupError(error: unknown, options: StartEmulatorOptions): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === "string" && code.startsWith("EMU_ERR_")) return `[${code}] ${(error as Error).message}`;
  const host = options.host ?? "127.0.0.1";
  if (code === "EADDRINUSE") {
    const what = options.port === DEFAULT_PORT ? " (an emulator started earlier?)" : "";
    return `port ${options.port} on ${host} is already in use${what}. Stop what is listening there, or choose another port with --port N (--port 0 picks a free one).`;
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return `cannot listen on --host ${host}: it is not an address of this machine. Use 127.0.0.1 (the default) or an address of one of its interfaces.`;
  }
  if (code === "EACCES") {
    return `not allowed to listen on port ${options.port} (ports below 1024 need privileges). Choose a port of 1024 or more with --port.`;
  }
  return (error as Error).message;
}

/**
 * The emulator itself, loaded only once fastify is known to be there: fastify is an optional peer
 * dependency of pulumi-rimuhosting (the provider must not install a web server), so a user who runs the
 * command without it gets the two ways to get it instead of a module-not-found stack trace.
 */
function loadEmulator(): typeof import("./index.js") {
  try {
    require.resolve("fastify");
  } catch {
    throw new Error(
      "the emulator needs fastify 5 (its web server), which pulumi-rimuhosting does not install for " +
        "the provider. Add it to the project that has pulumi-rimuhosting with `npm install --save-dev fastify@5`, " +
        "then run `npx rimuhosting-emulator` again (other ways: docs/emulator.md).",
    );
  }
  return require("./index.js") as typeof import("./index.js");
}

/** What the emulator command needs from the emulator: loadEmulator()'s startEmulator, or the bundle's own. */
export type StartEmulator = (
  options: StartEmulatorOptions,
) => Promise<{ baseUrl: string; close(): Promise<void> }>;

/**
 * The emulator command, `command` being its name as the user typed it (for the usage and the error lines): parses
 * `argv`, starts the emulator, prints the banner (the first thing on stdout) and runs until SIGINT or SIGTERM. Bad
 * flags exit 2 with the usage; a start-up failure exits 1 with one line.
 */
export async function runEmulatorCommand(
  argv: string[],
  command: string,
  start: () => StartEmulator,
): Promise<void> {
  let options: StartEmulatorOptions | "help";
  try {
    options = parseCliArgs(argv);
  } catch (error) {
    const line =
      error instanceof UnknownOptionError
        ? unknownOptionMessage(command, error.option)
        : `${command}: ${(error as Error).message}`;
    console.error(`${line}\n\n${usage(command)}`);
    process.exit(USAGE_EXIT);
  }
  if (options === "help") {
    console.log(usage(command));
    return;
  }
  options = { ...options, seed: options.seed ?? randomInt(2 ** 31) };
  let emulator: Awaited<ReturnType<StartEmulator>>;
  try {
    emulator = await start()(options);
  } catch (error) {
    console.error(`${command}: ${describeStartupError(error, options)}`);
    process.exit(1);
  }
  for (const line of bannerLines(emulator.baseUrl, options.timeScale ?? 1, options.control))
    console.log(line);
  const stop = () => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (require.main === module) {
  runEmulatorCommand(process.argv.slice(2), "rimuhosting-emulator", () => loadEmulator().startEmulator).catch(
    (error: unknown) => {
      console.error(`rimuhosting-emulator: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
