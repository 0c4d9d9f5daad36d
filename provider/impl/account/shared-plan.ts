/**
 * The budget's plan shared by the provider processes of one `pulumi` command on one account (docs/cost.md, "Several
 * providers"). The engine starts a process for each provider (the default one and each explicit one), and each
 * keeps its own ledger of the VPSs it checked; a budget covers the account, so a preview judged by each ledger
 * alone passed two providers whose VPSs together go over, and `up` then refused the second one's.
 *
 * So each check also writes its VPS's fee to a small file that the provider processes of the same engine run on the
 * same account share: named after the engine run (the run's `command`: the engine's address, which the engine gives
 * every plugin it starts, the dynamic-provider host under `sh` and the native plugin alike; run-context.ts) and a
 * hash of the account's URL and key (never the key), in the system's temporary directory. Each change to it is one
 * line appended in one write (below), so two providers checking at once lose neither's entry, and a reader leaves
 * out a line not yet ended. An entry whose writer process is gone is
 * another run's (the engine's port used again later) and is not counted. Each entry names the run that wrote
 * it (one run per provider process), so a run counts every other run's entries: also where one process hosts
 * several providers' runs, as the in-process table of cases does (test/cost/two-providers.test.ts). A check counts
 * the other runs' entries beside its own ledger. The engine checks resources one after another, so each check sees
 * every check before it, whichever provider made it. A resource's entry is its latest check (the update of
 * `pulumi up` checks each again, in new processes), and a change made (or failed) leaves the plan, since the account's
 * listing shows it from then on: so no VPS is counted twice. The guard at ordering reads the account fresh whatever
 * this says. Files older than a day are removed.
 *
 * The file is a log: each record, forget and replacement is one line appended (O_APPEND, one write of a few hundred
 * bytes), and each SharedPlan reads only the lines added since it last read, so a check costs the same with 500 VPSs
 * as with one (it rewrote the whole plan per check before: 0.9 of 2.9 CPU-s of a 150-VPS preview's provider host,
 * growing with the square of the fleet; docs/benchmarks.md). The latest line of a resource is its entry.
 *
 * Owns: the file, its entries. Of a run's state it holds only the run's name (WRITER): the file is the state, per
 * command.
 */
import { createHash, randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { VpsFee } from "../cost/verdict.js";
import { runState, type RunContext } from "../engine/run-context.js";

const PREFIX = "pulumi-rimuhosting-plan-";
/** The key of an order a run replaced (noteReplaced), beside the resources' keys. */
const REPLACED = "replaced order ";
/** The key of a run of the command failing on the budget (noteFailing). */
const FAILING = "failing on the budget";
/** Entries and files older than this are another command's, whatever process id it had. */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface Entry {
  /** The run that checked it (one per provider process). */
  writer: string;
  at: number;
  fee: VpsFee;
}

/** The run's name in the plans it writes: unique, so no run takes another's entries for its own. */
const WRITER = runState("the run's name in the plans it shares", () => `${process.pid}/${randomUUID()}`);

let sweptThisProcess = false;

/** Whether process `pid` is alive (a process of another user is: signal 0 is refused with EPERM). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the process that wrote an entry (`<pid>/<run>`) still runs: a finished run's processes are gone. */
const writerAlive = (writer: string): boolean => {
  const pid = Number(writer.split("/")[0]);
  return !Number.isInteger(pid) || pid <= 0 || isAlive(pid);
};

export class SharedPlan {
  /** The entries as of the last line read, by resource (or replaced order) key. */
  private readonly entries = new Map<string, Entry>();
  /** How far the file has been read; a trailing line not yet ended is read again with the rest of it. */
  private offset = 0;

  constructor(
    private readonly file: string,
    private readonly writer: string,
  ) {}

  /** The plan of the command `run` serves, on the account `accountKey` (a hash of its URL and key). */
  static forAccount(accountKey: string, run: RunContext): SharedPlan {
    const name = createHash("sha256").update(`${run.command}\n${accountKey}`).digest("hex").slice(0, 32);
    return new SharedPlan(path.join(os.tmpdir(), `${PREFIX}${name}.jsonl`), run.get(WRITER));
  }

  /**
   * Records `resource`'s fee as this process checked it. Its latest check replaces an earlier one and keeps the fee
   * it is billed now, as the ledger does (cost/ledger.ts): the engine checks a replacement's create a second time,
   * with no old inputs, and the replacement counts once.
   */
  record(resource: string, fee: VpsFee): void {
    this.sweep();
    const nowCents = fee.nowCents ?? this.read().get(resource)?.fee.nowCents;
    this.append(resource, { fee: { ...fee, ...(nowCents === undefined ? {} : { nowCents }) } });
  }

  /** Appends one line: `key`'s new entry, or that it has none (`gone`). */
  private append(key: string, line: { fee: VpsFee } | { gone: true }): void {
    try {
      const text = `${JSON.stringify({ key, writer: this.writer, at: Date.now(), ...line })}\n`;
      fs.appendFileSync(this.file, text, { mode: 0o600 });
    } catch {
      // A plan that cannot be shared leaves each provider judging its own VPSs, as before: never a failed check.
    }
  }

  /**
   * `resource`'s change was made (or failed): the account's listing shows what it did from now on, so its planned
   * fee no longer counts beside it.
   */
  forget(resource: string): void {
    if (this.read().has(resource)) this.append(resource, { gone: true });
  }

  /** The fees other runs (provider processes) of this command checked, leaving out the resources in `own`. */
  others(own: ReadonlySet<string>): VpsFee[] {
    const now = Date.now();
    return [...this.read()]
      .filter(
        ([resource, e]) =>
          !resource.startsWith(REPLACED) &&
          resource !== FAILING &&
          e.writer !== this.writer &&
          !own.has(resource) &&
          now - e.at < MAX_AGE_MS &&
          writerAlive(e.writer),
      )
      .map(([, e]) => e.fee);
  }

  /**
   * Order `oid` was replaced by this run's new order, and is cancelled once the run's changes are made: until then
   * every provider of the command counts it once, as its replacement (order-guard.ts), never beside it.
   */
  noteReplaced(oid: number): void {
    this.append(`${REPLACED}${oid}`, { fee: { name: "", after: { cents: 0 } } });
  }

  /** Its replacement withdrawn, order `oid` counts again. */
  forgetReplaced(oid: number): void {
    this.forget(`${REPLACED}${oid}`);
  }

  /** The orders other runs of this command replaced and have not cancelled yet. */
  replacedByOthers(): Set<number> {
    return new Set(
      [...this.read()]
        .filter(([key, e]) => key.startsWith(REPLACED) && e.writer !== this.writer && writerAlive(e.writer))
        .map(([key]) => Number(key.slice(REPLACED.length))),
    );
  }

  /**
   * A run of this command failed on the budget (replaced-orders.ts): the engine fails the whole command, so it
   * cancels no replaced order of any provider; each provider judges the orders it replaced so (failing()).
   */
  noteFailing(): void {
    if (!this.read().has(FAILING)) this.append(FAILING, { fee: { name: "", after: { cents: 0 } } });
  }

  /** Whether a run of this command (this one or another provider's) failed on the budget. */
  failing(): boolean {
    const entry = this.read().get(FAILING);
    return entry !== undefined && Date.now() - entry.at < MAX_AGE_MS && writerAlive(entry.writer);
  }

  /** The entries, with the lines appended (by any process) since the last read applied in order. */
  private read(): ReadonlyMap<string, Entry> {
    let fd: number | undefined;
    try {
      fd = fs.openSync(this.file, "r");
      const size = fs.fstatSync(fd).size;
      // A shorter file is another one (removed and begun again): read it from the start.
      if (size < this.offset) {
        this.entries.clear();
        this.offset = 0;
      }
      if (size === this.offset) return this.entries;
      const bytes = Buffer.alloc(size - this.offset);
      const got = fs.readSync(fd, bytes, 0, bytes.length, this.offset);
      const complete = got === 0 ? 0 : bytes.lastIndexOf(0x0a, got - 1) + 1;
      this.offset += complete;
      for (const line of bytes.subarray(0, complete).toString("utf8").split("\n")) if (line) this.apply(line);
    } catch {
      // No plan yet (or none readable): the entries read so far.
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
    return this.entries;
  }

  /** One line of the file applied to the entries; a line that is not one of ours is left out. */
  private apply(line: string): void {
    try {
      const parsed = JSON.parse(line) as Partial<Entry> & { key?: unknown; gone?: unknown };
      if (typeof parsed.key !== "string") return;
      if (parsed.gone === true) this.entries.delete(parsed.key);
      else if (typeof parsed.writer === "string" && typeof parsed.at === "number" && parsed.fee)
        this.entries.set(parsed.key, { writer: parsed.writer, at: parsed.at, fee: parsed.fee });
    } catch {
      // A torn or foreign line counts for nothing.
    }
  }

  /** Removes the files of commands long finished (once per process, at most once an hour per directory). */
  private sweep(): void {
    // Once per process, not per plan: a process serving many runs (a test, an Automation API program) would
    // otherwise stat every plan file of the directory for each run.
    if (sweptThisProcess) return;
    sweptThisProcess = true;
    sweepPlanFiles(path.dirname(this.file), Date.now());
  }
}

/** The file whose time says when `dir`'s plan files were last swept. */
const SWEPT_MARK = `${PREFIX}swept`;
/** How often a directory's plan files are swept, by any process. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Removes `dir`'s plan files older than MAX_AGE_MS, unless a process swept it in the last hour. A machine that runs
 * many commands (CI, a test suite) leaves tens of thousands of plan files in a day; stating each at the start of
 * every provider process cost 0.3-0.5 s of CPU per process with 74,000 of them, so one process an hour sweeps,
 * and the others read only the mark's time.
 */
export function sweepPlanFiles(dir: string, now: number): void {
  const mark = path.join(dir, SWEPT_MARK);
  try {
    if (now - fs.statSync(mark).mtimeMs < SWEEP_EVERY_MS) return;
  } catch {
    // No mark yet: sweep.
  }
  try {
    fs.writeFileSync(mark, "");
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(PREFIX) || name === SWEPT_MARK) continue;
      const file = path.join(dir, name);
      if (now - fs.statSync(file).mtimeMs > MAX_AGE_MS) fs.rmSync(file, { force: true });
    }
  } catch {
    // Sweeping is tidiness only.
  }
}
