/**
 * L1: the two ways RimuHosting ends a VPS outside Pulumi, as a refresh and a preview see them (issue 57), called in
 * the order the engine calls them against the emulator. A cancellation at the end of the billing period (R3: the
 * VPS runs until that day) is drift: the read's `cancellationDate` output, the refresh's diff with its line, and a
 * preview's warning naming when; once a refresh wrote it, nothing more. A deletion (R6) is a read that drops the
 * VPS and prints its drift line; a `pulumi import` of an order already cancelled so compares nothing.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as impl from "../../../provider/impl/index";
import { beginRun } from "../../../provider/impl/engine/run-context";
import { PREVIEW_FLAG } from "../../../provider/impl/fields/vps-fields";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import { APP_INPUTS, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture();
const PROGRAM = { ...APP_INPUTS, runningState: "RUNNING" } satisfies VpsInputs;
const texts = (notes: { text: string }[]) => notes.map((note) => note.text);

async function createdVps() {
  const checked = await impl.checkVps({}, PROGRAM);
  expect(checked.failures).toEqual([]);
  const created = await impl.create(checked.inputs);
  return { id: created.id, recorded: { ...checked.inputs, [PREVIEW_FLAG]: true }, outs: created.outs };
}

/** Cancels the order by hand at the end of its billing period: when, as the order says (ISO 8601). */
async function cancelledByHand(oid: number): Promise<string> {
  const answer = await fixture().byHand.cancelOrder(oid);
  const when = answer.about_order?.billing_info?.cancellation_date?.iso_format;
  // RimuHosting's answer names the day (docs/rimuhosting-api.md R3).
  expect(answer.human_readable_message).toContain(`on ${when?.slice(0, 10)}`);
  return when!;
}

describe("a cancellation at the end of the billing period", () => {
  it("a refresh: when, as an output, a change, the drift line; the refresh after it that wrote it: nothing", async () => {
    const vps = await createdVps();
    expect(vps.outs.cancellationDate).toBeUndefined();
    const day = await cancelledByHand(Number(vps.id));
    const refreshed = await impl.read(vps.id, vps.outs);
    expect(refreshed.props?.cancellationDate).toBe(day);
    // As the engine's wire carries outputs (a protobuf Struct, which has no undefined), on both front ends.
    expect(Struct.fromJavaScript(refreshed.props as never).toJavaScript()).toMatchObject({
      __outOfBand: [{ property: "cancellationDate", before: null, after: day }],
    });
    const diff = await impl.diffVps(vps.id, refreshed.props!, vps.recorded);
    expect(diff).toMatchObject({ changes: true, drifted: ["cancellationDate"] });
    expect(texts(diff.notes)).toEqual([`app: changed outside Pulumi: cancellationDate none → ${day}.`]);
    const again = await impl.read(vps.id, refreshed.props!);
    const next = await impl.diffVps(vps.id, again.props!, { ...refreshed.inputs!, [PREVIEW_FLAG]: true });
    expect(next).toMatchObject({ changes: false, notes: [] });
  });

  it("a preview of the program: the warning saying when, and what to do, no change planned", async () => {
    const vps = await createdVps();
    const day = await cancelledByHand(Number(vps.id));
    beginRun(); // the preview is a run of its own (a new provider process): it lists the account afresh
    const checked = await impl.checkVps(vps.recorded, { ...PROGRAM, [PREVIEW_FLAG]: true });
    const diff = await impl.diffVps(vps.id, vps.outs, { ...checked.inputs, [PREVIEW_FLAG]: true });
    expect(diff.changes).toBe(false);
    expect(diff.notes).toEqual([
      {
        severity: "warning",
        text:
          `app: RimuHosting will cancel VPS order ${vps.id} at ${day}: it was cancelled at the end of its billing ` +
          `period outside Pulumi, and runs until then. To keep it, ask RimuHosting's support to undo the ` +
          "cancellation before then (its API cannot); after it, `pulumi up --refresh` orders a new VPS " +
          "(a new IP address and an empty disk).",
      },
    ]);
  });

  it("a `pulumi import` of an order already cancelled so: when, and nothing to compare", async () => {
    const vps = await createdVps();
    const day = await cancelledByHand(Number(vps.id));
    const imported = await impl.read(vps.id, undefined);
    expect(imported.props?.cancellationDate).toBe(day);
    expect(imported.props).not.toHaveProperty("__outOfBand");
  });
});

describe("a deletion", () => {
  it("a refresh drops the VPS and prints its drift line, naming the order", async () => {
    const vps = await createdVps();
    await fixture().byHand.deleteVps(Number(vps.id));
    fixture().logs.length = 0;
    expect(await impl.read(vps.id, vps.outs)).toEqual({});
    expect(fixture().logs).toEqual([
      `[rimuhosting] app: changed outside Pulumi: order ${vps.id} app1.example.com → gone (cancelled or removed).`,
    ]);
  });
});
