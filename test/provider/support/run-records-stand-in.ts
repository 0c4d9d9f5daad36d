/**
 * A stand-in for one stack's run records (provider/impl/ownership/run-records.ts) in in-process tests, which have no
 * backend: the tags the provider's runs write, each at a time of its own (ten seconds apart, whatever the clock), and
 * the operations that finished (`finish(id)`: a run whose answers reached its state). A run is written as one kept
 * without checkpoints unless `checkpoints` says otherwise (in-process there is no pending create but a test's).
 */
import type { RunRecord, RunRecords } from "../../../provider/impl/ownership/run-records";

export class RunRecordsStandIn {
  private readonly written = new Map<string, RunRecord>();
  private readonly finishedRuns = new Set<string>();
  private readonly took = new Map<number, string>();
  private clock = 1_000_000_000_000;
  unread: string | undefined;
  checkpoints = false;

  /** The provider's writer (BackendReader.recordRun). */
  readonly record = async (_scope: unknown, id: string): Promise<{ written: true }> => {
    this.clock += 10_000;
    this.written.set(id, { at: this.clock, checkpoints: this.checkpoints });
    return { written: true };
  };

  /** The provider's writer of a take-back (BackendReader.recordTakeBack). */
  readonly recordTakeBack = async (_scope: unknown, oid: number, id: string): Promise<{ written: true }> => {
    this.took.set(oid, id);
    return { written: true };
  };

  /** The provider's reader (BackendReader.runs). */
  readonly runs = async (): Promise<RunRecords> => {
    if (this.unread !== undefined) return { unread: this.unread };
    const finished = [...this.finishedRuns].flatMap((id) => {
      const at = this.written.get(id)?.at;
      return at === undefined ? [] : [{ start: at / 1000, end: at / 1000 }];
    });
    return { runs: new Map(this.written), finished, took: new Map(this.took) };
  };

  /** The ids written so far. */
  ids(): string[] {
    return [...this.written.keys()];
  }

  /** Runs `ids` finished: an operation of the stack ended after each wrote its record. */
  finish(...ids: string[]): void {
    for (const id of ids) this.finishedRuns.add(id);
  }

  /** The records of `ids` are not in this backend (a copy made before they were written). */
  drop(...ids: string[]): void {
    for (const id of ids) this.written.delete(id);
  }

  forget(): void {
    this.written.clear();
    this.finishedRuns.clear();
    this.took.clear();
    this.unread = undefined;
    this.checkpoints = false;
  }
}
