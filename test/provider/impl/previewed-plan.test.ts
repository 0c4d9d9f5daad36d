/**
 * Which engine run is "the stack's latest preview" (provider/impl/account/previewed-plan.ts), as the guard's wait and
 * the native plugin's check read it. The native plugin tags its update's checks as a preview's (it is not told which
 * it is in), so the reader never takes its own run, nor a run marked as an update, for the preview: else an update
 * would find only its own checks (and never wait for the preview's shrink), and a later `--skip-preview` run would
 * wait for shrinks an earlier update already made.
 */
import { randomUUID } from "node:crypto";
import { PreviewedPlans } from "../../../provider/impl/account/previewed-plan";

const DB = "shop/prod/db";
const WEB = "shop/prod/web";
const shrink = { name: "db", nowCents: 2000, after: { cents: 1000 } };
const create = { name: "web", after: { cents: 1000 } };
// The records live in the plans' directory of the system's temporary directory (jest's process.env is a copy: TMPDIR
// set here would not reach os.tmpdir()): an account of this run's own keeps earlier runs' records out.
const account = `account-${randomUUID()}`;

describe("the stack's latest preview, as an update reads it", () => {
  it("is neither the reader's own run nor a run marked as an update, though their checks are tagged as a preview's", () => {
    const preview = new PreviewedPlans(account, "preview of up");
    preview.record(DB, shrink, true);
    preview.record(WEB, create, true);

    // The native plugin's update: its checks tagged as a preview's; web checked before db.
    const update = new PreviewedPlans(account, "update of up");
    update.record(WEB, create, true);
    expect([...update.shrinks(WEB).keys()]).toEqual([DB]);
    update.record(DB, shrink, true);
    expect([...update.shrinks(WEB).keys()]).toEqual([]);
    update.noteUpdate(WEB);

    // A later `pulumi up --skip-preview`: the earlier update made db's shrink, so nothing is waited for.
    const skipPreview = new PreviewedPlans(account, "up --skip-preview");
    expect([...skipPreview.shrinks(WEB).keys()]).toEqual([]);
    // A preview after it is the latest preview again.
    const next = new PreviewedPlans(account, "next preview");
    next.record(DB, { ...shrink, nowCents: 1000, after: { cents: 500 } }, true);
    expect([...skipPreview.shrinks(WEB).keys()]).toEqual([DB]);
  });
});
