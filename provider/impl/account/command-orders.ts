/**
 * The orders every provider of one `pulumi` command placed or is about to place, by creation nonce, whatever the API
 * key each was configured with (docs/cost.md, "Several providers"). A destroy's sweep (ownership/stack-strays.ts)
 * lists the account and leaves out the orders of this command: with PULUMI_SKIP_CHECKPOINTS no state holds a new
 * order yet, and its run's record says "never finished, no checkpoints", as a killed run's does. Two explicit
 * providers may reach one account with two API keys (two users' keys, a key per team): the budget's shared plan is
 * per account *key* (shared-plan.ts), so a sweep that read only its own key's plan took a sibling provider's new order
 * for a killed run's and cancelled it. So these nonces are kept per command alone: one file named after the engine
 * run (plan-files.ts), which every provider process of the command appends to before its POST and reads after its
 * listing. A nonce names no account and no secret; a nonce of another account's order matches nothing in a listing.
 *
 * Owns: the file, the nonces in it.
 */
import type { RunContext } from "../engine/run-context.js";
import { appendPlanLine, commandOrdersFile, linesSince } from "./plan-files.js";
import { writerOf } from "./plan-writer.js";

export class CommandOrders {
  private readonly nonces = new Set<string>();
  /** An append of note() failed in this run: the file does not hold every nonce of this command. */
  private notShared = false;
  /** How far the file has been read; a trailing line not yet ended is read again with the rest of it. */
  private offset = 0;

  constructor(
    private readonly file: string,
    private readonly writer: string,
  ) {}

  /** The orders of the command `run` serves, every provider's, whatever its account and key. */
  static forCommand(run: RunContext): CommandOrders {
    return new CommandOrders(commandOrdersFile(run.command), writerOf(run));
  }

  /**
   * This run is about to order a VPS carrying `nonce` (appended before its POST). A run of this command that lists the
   * account and then reads the nonces finds every order of the command in its listing among them.
   */
  note(nonce: string): void {
    try {
      appendPlanLine(
        this.file,
        `${JSON.stringify({ ordering: nonce, writer: this.writer, at: Date.now() })}\n`,
      );
    } catch {
      // Not shared: the other runs of this command cannot tell this run's order from a killed run's by the file, and
      // this run's sweep trusts no nonce missing from it (incomplete).
      this.notShared = true;
    }
  }

  /** True when this run failed to note an order it placed: "not in the file" then proves nothing. */
  incomplete(): boolean {
    return this.notShared;
  }

  /** The creation nonces of the orders this command's runs (every provider's) placed or were placing. */
  all(): ReadonlySet<string> {
    try {
      const read = linesSince(this.file, this.offset);
      if (read.restart) this.nonces.clear();
      this.offset = read.offset;
      for (const line of read.lines) this.apply(line);
    } catch {
      // None noted yet (or none readable): the nonces read so far.
    }
    return this.nonces;
  }

  private apply(line: string): void {
    try {
      const parsed = JSON.parse(line) as { ordering?: unknown };
      if (typeof parsed.ordering === "string") this.nonces.add(parsed.ordering);
    } catch {
      // Not one of ours (or empty): left out.
    }
  }
}
