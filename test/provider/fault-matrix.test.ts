/**
 * The fault matrix (tools/fault-matrix.ts): (create, resize, move, reinstall, running state, delete,
 * refresh) × (503, 429, dropped connection, response lost after commit, client timeout, emulator
 * restart) through the provider against the emulator's fault injection. Every cell must end with
 * 0 leaked, 0 duplicated, 0 stranded and 0 half-applied. The table is printed by
 * `npm run build && node dist/tools/fault-matrix.js`, which adds the "engineKilled" column (the real
 * CLI killed mid-operation) when `pulumi` is on PATH; that column's tests are
 * test/engine/engine-kill.test.ts.
 */
import { FAULTS, OPERATIONS, runCell, type CellResult } from "../../tools/fault-matrix";
import { formatMatrix } from "../../tools/fault-matrix-report";

const results: CellResult[] = [];

afterAll(() => {
  if (results.length === OPERATIONS.length * FAULTS.length) console.log(formatMatrix(results));
});

describe.each(OPERATIONS)("%s", (operation) => {
  it.each(FAULTS)(`× %s: 0 leaked, 0 duplicated, 0 stranded, 0 half-applied`, async (fault) => {
    const result = await runCell(operation, fault);
    results.push(result);
    expect({
      leaked: result.leaked,
      duplicated: result.duplicated,
      stranded: result.stranded,
      halfApplied: result.halfApplied,
      notes: result.notes,
    }).toEqual({ leaked: 0, duplicated: 0, stranded: 0, halfApplied: 0, notes: [] });
  });
});
