/**
 * L1: a preview's diff of a VPS whose order RimuHosting no longer has (provider/impl/lifecycle/gone-order.ts) says so, naming
 * the VPS and what to run, reports a change and prices nothing, whether the program plans a resize or is unchanged
 * (issue 41's case: the preview called it "unchanged"); the same VPS still there is planned and priced, or
 * unchanged.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { PREVIEW_FLAG } from "../../../provider/impl/fields/vps-fields";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import { APP_INPUTS, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture();
const PROGRAM = { ...APP_INPUTS, runningState: "RUNNING" } satisfies VpsInputs;

async function previewOf(cancelFirst: boolean, memoryMb: number) {
  const checked = await impl.checkVps({}, PROGRAM);
  const created = await impl.create(checked.inputs);
  if (cancelFirst) await fixture().byHand.deleteVps(Number(created.id));
  // A new run: the preview's own listing of the account.
  testing.forgetRun();
  const program = { ...PROGRAM, memoryMb, [PREVIEW_FLAG]: true };
  const planned = await impl.checkVps(checked.inputs, program);
  return impl.diffVps(created.id, created.outs, { ...planned.inputs, [PREVIEW_FLAG]: true });
}
const previewOfResize = (cancelFirst: boolean) => previewOf(cancelFirst, 2048);

const GONE_WARNING = {
  severity: "warning",
  text: expect.stringMatching(
    /^\[RIMU_ERR_ORDER_GONE\] app: RimuHosting no longer has VPS order \d+: it was cancelled or removed outside Pulumi, .*Run `pulumi refresh`/,
  ),
};

describe("a preview's diff of a VPS", () => {
  it("whose order was cancelled outside Pulumi: the warning with `pulumi refresh`, a change, no price", async () => {
    const diff = await previewOfResize(true);
    expect(diff.changes).toBe(true);
    expect(diff.notes).toEqual([GONE_WARNING]);
    expect(diff.notes.map((note) => note.text).join("\n")).not.toMatch(/\$\d/);
  });

  it("whose order was cancelled, the program unchanged: the same warning, and a change, never unchanged", async () => {
    const diff = await previewOf(true, PROGRAM.memoryMb);
    expect(diff.changes).toBe(true);
    expect(diff.notes).toEqual([GONE_WARNING]);
  });

  it("still there, the program unchanged: unchanged, nothing said", async () => {
    const diff = await previewOf(false, PROGRAM.memoryMb);
    expect(diff).toMatchObject({ changes: false, notes: [] });
  });

  it("still there: the resize planned and priced", async () => {
    const diff = await previewOfResize(false);
    expect(diff.changes).toBe(true);
    expect(diff.notes.map((note) => note.text)).toContainEqual(
      expect.stringMatching(/^app: resize 1024 → 2048 MB: \$/),
    );
  });
});
