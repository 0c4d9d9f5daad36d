#!/usr/bin/env node
/**
 * rimuhosting-killed-orders: cancels the orders a killed run of a stack left in no state, by the rule `pulumi destroy`
 * cancels them by (impl/ownership/stack-strays.ts), for the one case a destroy cannot: a stack whose killed run left
 * no VPS in its state. The engine starts a provider during a destroy only to delete a resource of that provider
 * that the state holds (CLI v3.276.0: pkg/resource/deploy/step_generator.go, GenerateDeletes, `EnsureProvider`
 * only for a resource's own provider; a provider resource's delete, providers/registry.go `Delete`, only closes a
 * plugin already loaded), so such a destroy never reaches the provider and its orders stay billed. The same code runs
 * as `pulumi-resource-rimuhosting killed-orders` in the self-contained plugin.
 *
 *   pulumi cancel --yes && rimuhosting-killed-orders --yes
 *
 * Exit codes: 0 when no order of a killed run of the stack is left billed (the orders of its name that carry another
 * stack's identity counted in one line, left alone: another-stacks.ts); 1 when one is, or may be (each named, with
 * why and how to end it), or when one may be and a command of the stack may be running; 2 for wrong arguments, a
 * missing API key, a stack whose config cannot be read, or a locked stack. `--identity` prints the stack's identity mark (0; 2 when it cannot be read).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { commandLine, exitCodeOf, USAGE_EXIT, UsageError, walkOptions } from "../../contract/command-line.js";
import { createClient, RimuConfigError } from "../client/index.js";
import { missingApiKeyMessage } from "../config.js";
import { accountViewFor } from "../impl/account/account-view.js";
import { VPS_ERROR_CODES, VpsError, type VpsErrorCode } from "../impl/engine/errors.js";
import { clientOptionsOf } from "../impl/engine/retry-settings.js";
import { RunContext } from "../impl/engine/run-context.js";
import {
  backendReadEnv,
  backendUrlWithoutCredentials,
  textWithoutUrlCredentials,
} from "../impl/engine/backend-cli.js";
import { readBackendThrough } from "../impl/ownership/backend-reader.js";
import { readRunRecords } from "../impl/ownership/run-records.js";
import {
  inPulumiProject,
  pulumiJson,
  readBackendStates,
  readStackTags,
} from "../impl/ownership/backend-states.js";
import { fileBackendDir } from "../impl/ownership/stack-scope.js";
import { IDENTITY_FORM } from "../impl/ownership/order-marks.js";
import { readIdentityThrough, readStackIdentity, STACK_TAG } from "../impl/ownership/stack-identity.js";
import { sweepStackStrays, unheldOrdersOfStackName } from "../impl/ownership/stack-strays.js";
import { failureOf, findSettings, StackSettingsError } from "./stack-settings.js";
import type { ImportFileIo } from "./cli.js";

const USAGE = `Usage: rimuhosting-killed-orders --yes [--stack <stack>] [--no-run-in-progress]
                                 [--other-stack-mark <mark>]...
       rimuhosting-killed-orders --identity [--stack <stack>]
  Cancels the orders a killed \`pulumi up\` of the stack left in no state, as \`pulumi destroy\` does, for a stack
  whose killed run left no VPS in its state (its destroy never starts the provider). Run it in the stack's project
  directory, once no \`pulumi\` command of the stack is running (after \`pulumi cancel\`).

  An order is cancelled only on a record this stack's backend keeps: it carries this stack's identity, no state of
  the backend holds it, and either a pending create of the stack's state (the engine's record of a create it never
  finished) carries its creation nonce or the stack's record of the run that placed it (a run without checkpoints
  that never finished) names it. Orders marked with another stack identity (a stack of the same name in another
  backend, or this stack's own from before \`pulumi stack rm\` or a changed tag) are another stack's: counted in one
  line, left alone. Every other order of the stack's name is named, with why it stays billed and how to end it.

  On a file backend the command sees the stack's lock and refuses while it is held. On any other backend (S3,
  PostgreSQL, Pulumi Cloud) it cannot, and a running \`pulumi up\`'s new orders look like a killed run's: it
  cancels nothing there, only names them, unless --no-run-in-progress says that no command of the stack runs.

    --yes                  cancel them (required: the command cancels orders)
    --stack <stack>        the stack, as <stack>, <org>/<stack> or <org>/<project>/<stack> (default: the selected
                           stack); its config gives the API key and address
    --no-run-in-progress   you checked that no \`pulumi\` command of the stack is running (needed where the
                           stack's lock cannot be seen: any backend but a file one)
    --identity             print the stack's identity mark (no --yes needed; cancels nothing): run against
                           each backend with a stack of this name, it tells whose an order of another mark is
    --other-stack-mark <mark>
                           an identity mark that --identity printed for a stack of another backend (not
                           needed: every order of another mark is left alone; repeat it for each such stack;
                           this stack's own mark is refused)

  Exit code: 0 when none is left billed (orders of another stack's identity counted, left alone); 1 when one is,
  or may be, or when one may be and the backend's lock cannot be seen (named on stderr); 2 for wrong arguments, a
  missing API key, a stack whose config cannot be read, or a stack that is locked.`;

interface Options {
  stack?: string;
  yes: boolean;
  noRunInProgress: boolean;
  identity: boolean;
  otherStackMarks: Set<string>;
}

/** What --other-stack-mark takes: a mark of the form the provider places (order-marks.ts), as --identity prints it. */
const MARK = new RegExp(`^${IDENTITY_FORM}[0-9a-f]{32}$`);

function parseArgs(args: readonly string[]): Options {
  const options: Options = {
    yes: false,
    noRunInProgress: false,
    identity: false,
    otherStackMarks: new Set(),
  };
  walkOptions(
    args,
    {
      switches: ["--yes", "--no-run-in-progress", "--identity"],
      valued: ["--stack", "--other-stack-mark"],
      positional: "the command takes options only",
    },
    (flag, value) => {
      if (flag === "--yes") options.yes = true;
      else if (flag === "--no-run-in-progress") options.noRunInProgress = true;
      else if (flag === "--identity") options.identity = true;
      else if (flag === "--stack") options.stack = value;
      else if (MARK.test(value!)) options.otherStackMarks.add(value!);
      else
        throw new UsageError(
          `--other-stack-mark '${value}' is no stack identity mark: give what --identity printed for the other ` +
            `backend's stack (${IDENTITY_FORM} and 32 hex digits)`,
        );
    },
  );
  if (!options.yes && !options.identity) throw new UsageError("add --yes: the command cancels orders");
  return options;
}

/** The project's name (Pulumi.yaml's `name:`), if this directory's Pulumi.yaml gives one. */
function projectName(cwd: string): string | undefined {
  let project: string | undefined;
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    try {
      project ??= /^name:[ \t]*["']?([^"'\s#]+)/m.exec(readFileSync(join(cwd, file), "utf8"))?.[1];
    } catch {
      // not this one
    }
  }
  return project;
}

/**
 * The stack's own name from `--stack`'s value, which may be fully qualified (`<org>/<stack>`,
 * `<org>/<project>/<stack>`, as the CLI takes it): the stack token and identity hash the project and this name. A
 * project other than this directory's is refused: its orders carry another token, and its config is not here.
 */
function stackNameOf(given: string, project: string): { stack: string } | { why: string } {
  const parts = given.split("/");
  if (parts.length > 3 || parts.some((part) => part === ""))
    return {
      why: `--stack '${given}' is no stack name: give <stack>, <org>/<stack> or <org>/<project>/<stack>`,
    };
  if (parts.length === 3 && parts[1] !== project)
    return {
      why:
        `--stack '${given}' names project '${parts[1]}', but this directory's Pulumi.yaml is project '${project}': ` +
        `run it in the directory of project '${parts[1]}', or name a stack of '${project}'`,
    };
  return { stack: parts[parts.length - 1]! };
}

/** The selected stack's name (`pulumi stack --show-name`), or why not (the CLI's words, URLs' credentials masked). */
function selectedStack(cwd: string, env: NodeJS.ProcessEnv): { stack: string } | { why: string } {
  const shown = spawnSync("pulumi", ["stack", "--show-name"], {
    cwd,
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  const name = shown.status === 0 ? shown.stdout.trim() : "";
  return name === ""
    ? { why: `\`pulumi stack --show-name\` failed: ${textWithoutUrlCredentials(failureOf(shown))}` }
    : { stack: name };
}

/**
 * The stack's lock: `held` (the lock file of a file backend's stack, in `.pulumi/locks/`, where the CLI keeps one
 * while a command of the stack runs, and a killed one leaves it), `unseen` (any other backend, whose lock the CLI
 * shows nowhere: the backend, credentials masked), `unread` (`pulumi whoami` failed: the backend cannot be reached,
 * so nothing of it can be read), or undefined (a file backend, no lock). A live `up`'s orders are
 * in no state yet, like a killed run's, and the engine's own sweep is safe from them only because it holds the lock.
 */
async function lockOf(
  where: { cwd: string; env: NodeJS.ProcessEnv },
  scope: { project: string; stack: string },
): Promise<{ held: string } | { unseen: string } | { unread: string } | undefined> {
  const who = await pulumiJson<{ url?: string }>(["whoami", "--json"], where);
  if ("why" in who) return { unread: who.why };
  const url = who.value.url ?? "";
  const dir = fileBackendDir(url, where.cwd);
  if (dir === undefined)
    return { unseen: url === "" ? "a backend with no URL" : backendUrlWithoutCredentials(url) };
  for (const locks of [
    join(dir, ".pulumi", "locks", "organization", scope.project, scope.stack),
    join(dir, ".pulumi", "locks", scope.stack),
  ]) {
    let held: string[] = [];
    try {
      held = readdirSync(locks).filter((file) => file.endsWith(".json"));
    } catch {
      // no lock of this layout
    }
    if (held.length > 0) return { held: join(locks, held[0]!) };
  }
  return undefined;
}

/**
 * `--identity`: the stack's identity mark (stack-identity.ts), the one its orders carry, on stdout: run against each
 * backend with a stack of this name, it tells whose an order of another stack's mark is (another-stacks.ts). It
 * changes nothing: a stack without its tag is not given one (its orders carry no mark of it), and is said to be so.
 */
async function printIdentity(
  scope: { project: string; stack: string },
  where: { cwd: string; env: NodeJS.ProcessEnv },
  io: ImportFileIo,
  name: string,
): Promise<number> {
  const tags = await readStackTags(scope.stack, where);
  if ("why" in tags) {
    io.stderr.write(`${name}: the tags of stack ${scope.stack} could not be read: ${tags.why}.\n`);
    return USAGE_EXIT;
  }
  if (!tags.value[STACK_TAG]) {
    io.stderr.write(
      `${name}: stack ${scope.stack} has no tag ${STACK_TAG}, so no identity yet: no order carries a mark of it ` +
        "(the provider sets the tag before it places a marked order).\n",
    );
    return 0;
  }
  const identity = await readStackIdentity(scope, where);
  if ("mark" in identity) {
    io.stdout.write(`${identity.mark}\n`);
    io.stderr.write(
      `${name}: the identity of stack ${scope.stack} of project ${scope.project} in this backend: the orders it ` +
        "placed carry it.\n",
    );
    return 0;
  }
  io.stderr.write(
    identity.none
      ? `${name}: stack ${scope.stack} has no identity (${identity.unread}): no order carries a mark of it.\n`
      : `${name}: the identity of stack ${scope.stack} could not be read: ${identity.unread}.\n`,
  );
  return identity.none ? 0 : USAGE_EXIT;
}

/** Runs the command with `args` (what follows its name); resolves to the exit code. `name`: how the user called it. */
export async function runKilledOrders(
  args: readonly string[],
  io: ImportFileIo,
  name = "rimuhosting-killed-orders",
): Promise<number> {
  const usage = USAGE.replace(/rimuhosting-killed-orders/g, name);
  const line = commandLine(args, parseArgs, { name, usage, stdout: io.stdout, stderr: io.stderr });
  if ("exit" in line) return line.exit;
  const { options } = line;
  const cwd = io.cwd ?? process.cwd();
  const env = io.env ?? process.env;
  const refuse = (code: VpsErrorCode, why: string, exit: number) => {
    io.stderr.write(`${name}: ${new VpsError(code, why).message}\n`);
    return exit;
  };
  const project = inPulumiProject(cwd) ? projectName(cwd) : undefined;
  if (project === undefined)
    return refuse(
      VPS_ERROR_CODES.invalidInput,
      "run it in the directory of the stack's project (no Pulumi.yaml naming a project here).",
      USAGE_EXIT,
    );
  const given = options.stack === undefined ? undefined : stackNameOf(options.stack, project);
  if (given !== undefined && "why" in given)
    return refuse(VPS_ERROR_CODES.invalidInput, `${given.why}.`, USAGE_EXIT);
  if (options.identity) {
    const stack = given ?? selectedStack(cwd, env);
    if ("why" in stack) {
      io.stderr.write(`${name}: ${stack.why}; name the stack with --stack.\n`);
      return USAGE_EXIT;
    }
    return printIdentity({ project, stack: stack.stack }, { cwd, env: backendReadEnv(env) }, io, name);
  }
  let settings: ReturnType<typeof findSettings>;
  try {
    settings = findSettings({ cwd, stack: options.stack, env });
  } catch (error) {
    if (!(error instanceof StackSettingsError)) throw error;
    io.stderr.write(`${name}: ${error.message}\n`);
    return USAGE_EXIT;
  }
  if (settings.config.apiKey === undefined) {
    io.stderr.write(`${name}: ${missingApiKeyMessage("Cancelling a killed run's orders")}\n`);
    return USAGE_EXIT;
  }
  const named = given ?? selectedStack(cwd, env);
  if ("why" in named) {
    io.stderr.write(`${name}: ${named.why}; name the stack with --stack.\n`);
    return USAGE_EXIT;
  }
  const scope = { project, stack: named.stack };
  let client: ReturnType<typeof createClient>;
  try {
    client = createClient({ ...settings.config, ...clientOptionsOf(settings.retry.settings) });
  } catch (error) {
    if (!(error instanceof RimuConfigError)) throw error;
    io.stderr.write(`${name}: ${error.message}\n`);
    return USAGE_EXIT;
  }
  // The sweep's reads go through the CLI as the provider's do, here in the user's directory and environment; this
  // stack's state is read even when destroyed, for the pending creates the engine keeps in it.
  const where = { cwd, env: backendReadEnv(env) };
  // This stack's own mark given as another's would leave its own orders alone as another stack's: refused.
  const own = options.otherStackMarks.size === 0 ? undefined : await readStackIdentity(scope, where);
  if (own !== undefined && "mark" in own && options.otherStackMarks.has(own.mark)) {
    client.close();
    return refuse(
      VPS_ERROR_CODES.invalidInput,
      `--other-stack-mark ${own.mark} is stack ${scope.stack}'s own identity in this backend (what --identity ` +
        "prints here): give the mark that --identity printed when run against the other backend.",
      USAGE_EXIT,
    );
  }
  const lock = await lockOf(where, scope);
  if (lock !== undefined && "unread" in lock) {
    client.close();
    return refuse(
      VPS_ERROR_CODES.backendUnread,
      `the backend of stack ${scope.stack} could not be read (${lock.unread}), so neither its lock nor its states ` +
        "can be: no order was judged.",
      1,
    );
  }
  if (lock !== undefined && "held" in lock) {
    client.close();
    return refuse(
      VPS_ERROR_CODES.runInProgress,
      `stack ${scope.stack} is locked (${lock.held}): a \`pulumi\` command of it is running, and its new orders ` +
        "are in no state yet, like a killed run's. Run this once it has ended, or, if that lock is a killed run's, " +
        "after `pulumi cancel --yes`.",
      USAGE_EXIT,
    );
  }
  // A warning of the sweep names an order it leaves billed, or a read that failed (nothing then is known): either
  // way not "none left", so the exit code says so too.
  let warned = false;
  // The run's lines go to this command's stderr: given to its context, as its readers are (no module seam).
  const run = new RunContext(`${name} ${process.pid} ${Date.now()}`, {
    log: (line) => {
      const text = line.replace(/^\[rimuhosting\] /, "");
      if (text.startsWith("Warning:")) warned = true;
      io.stderr.write(`${name}: ${text}\n`);
    },
  });
  // The run's readers, passed in its context: the user's directory and environment (no module seam of the provider).
  readBackendThrough(run, {
    states: () => readBackendStates({ ...where, always: scope.stack }),
    runs: (s) => readRunRecords(s, where),
  });
  readIdentityThrough(run, (s) => readStackIdentity(s, where));
  const view = accountViewFor(run, `${settings.config.baseUrl}\n${process.pid}`, () => client);
  const creationScope = `${scope.project}/${scope.stack}/-`;
  try {
    if (lock !== undefined && !options.noRunInProgress) {
      // No lock to see: a colleague's running `up` has pending creates and orders in no state, exactly as a killed
      // run left them. Only the user can say none runs; until then the orders are named, none cancelled.
      const { named: orders, another } = await unheldOrdersOfStackName(
        run,
        view,
        creationScope,
        options.otherStackMarks,
      );
      for (const line of another) io.stderr.write(`${name}: ${line}\n`);
      if (orders.length === 0) {
        io.stderr.write(`${name}: no order of a killed run of stack ${scope.stack} is left billed.\n`);
        return 0;
      }
      return refuse(
        VPS_ERROR_CODES.runInProgress,
        `stack ${scope.stack}'s backend (${lock.unseen}) keeps its lock where this command cannot see it, so a ` +
          "`pulumi` command of the stack may be running, and its new orders are in no state yet, like a killed " +
          `run's. No state of this backend holds these orders of the stack's name, and they stay billed: ${orders.join("; ")}. Once no ` +
          `\`pulumi\` command of the stack runs (after \`pulumi cancel --yes\`), run \`${name} --yes` +
          `${options.stack === undefined ? "" : ` --stack ${options.stack}`} --no-run-in-progress` +
          `${[...options.otherStackMarks].map((mark) => ` --other-stack-mark ${mark}`).join("")}\` to cancel ` +
          "those a killed run provably placed.",
        1,
      );
    }
    await sweepStackStrays(run, view, client, creationScope, undefined, options.otherStackMarks);
    if (warned) {
      io.stderr.write(
        `${name}: orders of stack ${scope.stack}'s name may be left billed: see the warnings above.\n`,
      );
      return 1;
    }
    io.stderr.write(`${name}: no order of a killed run of stack ${scope.stack} is left billed.\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof VpsError && error.code === VPS_ERROR_CODES.leftBilled)) throw error;
    // The sweep's words, with this command's own advice (the catalogue's speaks of the destroy's kept VPS).
    io.stderr.write(
      `${name}: [${error.code}] ${error.detail} Fix what could not be read, or cancel each order named above in ` +
        "the control panel (or adopt it with `adoptOrderOid`); then run this command again: it judges again.\n",
    );
    return 1;
  } finally {
    client.close();
  }
}

if (require.main === module)
  void exitCodeOf(
    () =>
      runKilledOrders(process.argv.slice(2), {
        stdout: process.stdout,
        stderr: process.stderr,
      }),
    "rimuhosting-killed-orders",
  ).then((code) => (process.exitCode = code));
