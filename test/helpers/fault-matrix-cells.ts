/**
 * The fault matrix's rows and what each cell counts: shared by the matrix (tools/fault-matrix.ts) and its
 * engine-killed column (test/engine/engine-kill.ts), which the tool runs, so neither imports the other's
 * types back.
 */

/** The lifecycle operations: the matrix's rows. */
export const OPERATIONS = [
  "create",
  "resize",
  "move",
  "reinstall",
  "runningState",
  "delete",
  "refresh",
] as const;
export type Operation = (typeof OPERATIONS)[number];

/** What a cell counts (also the engineKilled column's scenarios, test/engine/engine-kill.ts). */
export interface MatrixCounts {
  leaked: number;
  duplicated: number;
  stranded: number;
  halfApplied: number;
  /** Why a count is not 0. */
  notes: string[];
}
