/**
 * Which engine run is "the stack's latest preview" (provider/impl/account/previewed-plan.ts), as the guard's wait and
 * the native plugin's check read it. The native plugin tags its update's checks as a preview's (it is not told which
 * it is in), so the reader never takes its own run, nor a run marked as an update, for the preview: else an update
 * would find only its own checks (and never wait for the preview's shrink), and a later `--skip-preview` run would
 * wait for shrinks an earlier update already made.
 */
import { createHash, randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { PreviewedPlans } from "../../../provider/impl/account/previewed-plan";
import { previewedPlanFile } from "../../../provider/impl/account/plan-files";

const DB = "shop/prod/db";
const WEB = "shop/prod/web";
const shrink = { name: "db", nowCents: 2000, after: { cents: 1000 } };
const create = { name: "web", after: { cents: 1000 } };
// The records live in the plans' directory of the system's temporary directory (jest's process.env is a copy: TMPDIR
// set here would not reach os.tmpdir()): an account of this run's own keeps earlier runs' records out.
const account = `account-${randomUUID()}`;
/** A new provider process's run of the engine run `command` (its name in the plans: plan-writer.ts's form). */
const runOf = (command: string, on = account) =>
  new PreviewedPlans(on, command, `${process.pid}/${randomUUID()}`);

describe("the stack's latest preview, as an update reads it", () => {
  it("is neither the reader's own run nor a run marked as an update, though their checks are tagged as a preview's", () => {
    const preview = runOf("preview of up");
    preview.record(DB, shrink, true);
    preview.record(WEB, create, true);

    // The native plugin's update: its checks tagged as a preview's; web checked before db.
    const update = runOf("update of up");
    update.record(WEB, create, true);
    expect([...update.shrinks(WEB).keys()]).toEqual([DB]);
    update.record(DB, shrink, true);
    expect([...update.shrinks(WEB).keys()]).toEqual([]);
    update.noteUpdate(WEB);

    // A later `pulumi up --skip-preview`: the earlier update made db's shrink, so nothing is waited for.
    const skipPreview = runOf("up --skip-preview");
    expect([...skipPreview.shrinks(WEB).keys()]).toEqual([]);
    // A preview after it is the latest preview again.
    const next = runOf("next preview");
    next.record(DB, { ...shrink, nowCents: 1000, after: { cents: 500 } }, true);
    expect([...skipPreview.shrinks(WEB).keys()]).toEqual([DB]);
  });
});

describe("a leftover file of an earlier command, whose engine run had the address this one has now", () => {
  // Lines as the earlier command's native plugin left them two hours ago: its writer (a process long gone), its
  // engine run's tag (a hash of the engine's address, the port this command's preview got again).
  const ADDRESS = "engine 127.0.0.1:40001";
  const tag = createHash("sha256").update(ADDRESS).digest("hex").slice(0, 16);
  const earlier = { writer: "4194305/finished", at: Date.now() - 7_200_000 };
  const plant = (on: string, lines: object[]) => {
    const file = previewedPlanFile(on, "shop/prod");
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.appendFileSync(file, lines.map((line) => `${JSON.stringify({ ...earlier, ...line })}\n`).join(""));
  };
  /** This command: its preview plans db's shrink and web's create, then its update checks web: what it waits for. */
  const shrinksTheUpdateWaitsFor = (on: string) => {
    const preview = runOf(ADDRESS, on);
    preview.record(DB, shrink, true);
    preview.record(WEB, create, true);
    const update = runOf("engine 127.0.0.1:40002", on);
    update.record(WEB, create, true);
    return [...update.shrinks(WEB).keys()];
  };

  it("is no update of this preview: the update still waits for the shrink this preview planned", () => {
    const on = `account-${randomUUID()}`;
    // The earlier command's update: its check of db (tagged, as the native plugin's are) and its mark.
    plant(on, [
      { key: DB, preview: tag, fee: { ...shrink, nowCents: 1000, after: { cents: 1000 } } },
      { key: "", update: tag },
    ]);
    expect(shrinksTheUpdateWaitsFor(on)).toEqual([DB]);
  });

  it("is not this preview: its shrinks are not waited for", () => {
    const on = `account-${randomUUID()}`;
    // The earlier command's preview planned a shrink of a VPS since deleted; its update (another engine run) ran.
    const OLD = "shop/prod/old";
    plant(on, [
      { key: OLD, preview: tag, fee: { name: "old", nowCents: 3000, after: { cents: 500 } } },
      { key: WEB, preview: "another engine run", fee: create, writer: "4194306/its update" },
      { key: "", update: "another engine run", writer: "4194306/its update" },
    ]);
    expect(shrinksTheUpdateWaitsFor(on)).toEqual([DB]);
  });

  it("counts for nothing once a day old, with no later preview", () => {
    const on = `account-${randomUUID()}`;
    plant(on, [{ key: DB, preview: tag, fee: shrink, at: Date.now() - 25 * 3_600_000 }]);
    expect([...runOf("engine 127.0.0.1:40002", on).shrinks(WEB).keys()]).toEqual([]);
  });
});
