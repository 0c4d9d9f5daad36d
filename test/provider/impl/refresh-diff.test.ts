/**
 * L1: the diff a refresh asks right after its read (docs/dynamic-providers.md §11) shows the drift and a disk the
 * recorded inputs would shrink, never the effects or the price of a change; the diff that follows a check plans the
 * change and shows both. Called in the order the engine calls them, against the emulator.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { computeChanges } from "../../../provider/impl/inputs/vps-changes";
import { driftNotes } from "../../../provider/impl/lifecycle/vps-drift";
import { PREVIEW_FLAG } from "../../../provider/impl/fields/vps-fields";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import { APP_INPUTS, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture();
const texts = (notes: { text: string }[]) => notes.map((note) => note.text);
const PROGRAM = { ...APP_INPUTS, runningState: "RUNNING" } satisfies VpsInputs;

async function driftedVps() {
  const checked = await impl.checkVps({}, PROGRAM);
  expect(checked.failures).toEqual([]);
  const created = await impl.create(checked.inputs);
  const oid = Number(created.id);
  await fixture().byHand.changeParameters(oid, { memory_mb: 2048, disk_space_mb: 40960 });
  await fixture().byHand.setRunningState(oid, "NOTRUNNING");
  return { id: created.id, recorded: checked.inputs, outs: created.outs };
}

/**
 * A VPS made outside Pulumi, `pulumi import`ed (a read with no state), an up of a program that matches it (its "same"
 * step records the checked inputs, with creationScope, and keeps the imported outputs, without), then resized and
 * stopped by hand.
 */
async function importedDriftedVps() {
  const order = await fixture().byHand.createVps({
    instantiation_options: { domain_name: PROGRAM.domainName, distro: PROGRAM.distro },
    dc_location: PROGRAM.dcLocation,
    vps_parameters: { memory_mb: PROGRAM.memoryMb, disk_space_mb: PROGRAM.diskSpaceMb },
  });
  const id = String(order.about_order.order_oid);
  const imported = await impl.read(id, undefined);
  expect(imported.props?.creationScope).toBeUndefined();
  const checked = await impl.checkVps(imported.inputs!, { ...PROGRAM, [PREVIEW_FLAG]: true });
  expect(checked.failures).toEqual([]);
  const recorded = { ...checked.inputs, [PREVIEW_FLAG]: true };
  expect((await impl.diffVps(id, imported.props!, recorded)).changes).toBe(false);
  await fixture().byHand.changeParameters(Number(id), { memory_mb: 2048 });
  await fixture().byHand.setRunningState(Number(id), "NOTRUNNING");
  testing.forgetRun(); // the refresh after the import: a new provider host, whose reads list the account anew
  return { id, recorded, outs: imported.props! };
}

describe("a refresh's diff", () => {
  it("after a read: the drift and the refused shrink, no restart, start or price", async () => {
    const vps = await driftedVps();
    const refreshed = await impl.read(vps.id, vps.outs);
    const diff = await impl.diffVps(vps.id, refreshed.props!, { ...vps.recorded, [PREVIEW_FLAG]: true });
    expect(diff.changes).toBe(true);
    expect(texts(diff.notes)).toEqual([
      // The fee is no input, but a fact the user relies on (service-drift.ts).
      expect.stringMatching(
        /^app: changed outside Pulumi: memoryMb 1024 → 2048, diskSpaceMb 20480 → 40960, runningState RUNNING → NOTRUNNING, monthlyFeeUsd [\d.]+ → [\d.]+\.$/,
      ),
      // What the diff knows is the inputs recorded before the refresh, not the program of the next up.
      "app: if the program still says diskSpaceMb 20480 (as recorded before this refresh), the next up is refused: " +
        "a disk cannot shrink (40960 MB to 20480 MB): RimuHosting only grows disks. Keep diskSpaceMb at 40960 or " +
        "more, or order a new VPS with the smaller disk.",
    ]);
    expect(diff.notes.map((note) => note.severity)).toEqual(["info", "warning"]);
  });

  it("after a read and the program's check: the planned change's effects and price", async () => {
    const vps = await driftedVps();
    const refreshed = await impl.read(vps.id, vps.outs);
    const program = { ...PROGRAM, diskSpaceMb: 40960, [PREVIEW_FLAG]: true };
    const checked = await impl.checkVps(refreshed.inputs!, program);
    expect(checked.failures).toEqual([]);
    const diff = await impl.diffVps(vps.id, refreshed.props!, { ...checked.inputs, [PREVIEW_FLAG]: true });
    expect(texts(diff.notes)).toEqual([
      "app: resizing memoryMb restarts the VPS.",
      "app: runningState RUNNING starts the VPS.",
      expect.stringMatching(/^app: resize 2048 → 1024 MB: \$[\d.]+ → \$[\d.]+ a month \(-\$[\d.]+\)$/),
    ]);
  });

  it("of an imported VPS, whose recorded inputs carry creationScope and its outputs not: the drift only", async () => {
    const vps = await importedDriftedVps();
    const refreshed = await impl.read(vps.id, vps.outs);
    const diff = await impl.diffVps(vps.id, refreshed.props!, vps.recorded);
    expect(texts(diff.notes)).toEqual([
      expect.stringMatching(
        /^app: changed outside Pulumi: memoryMb 1024 → 2048, runningState RUNNING → NOTRUNNING, monthlyFeeUsd [\d.]+ → [\d.]+\.$/,
      ),
    ]);
  });

  it("of an imported VPS, after a read and the program's check (up --refresh): the planned change", async () => {
    const vps = await importedDriftedVps();
    const refreshed = await impl.read(vps.id, vps.outs);
    const checked = await impl.checkVps(refreshed.inputs!, { ...PROGRAM, [PREVIEW_FLAG]: true });
    const diff = await impl.diffVps(vps.id, refreshed.props!, { ...checked.inputs, [PREVIEW_FLAG]: true });
    expect(texts(diff.notes)).toEqual([
      "app: resizing memoryMb restarts the VPS.",
      "app: runningState RUNNING starts the VPS.",
      expect.stringMatching(/^app: resize 2048 → 1024 MB: \$[\d.]+ → \$[\d.]+ a month \(-\$[\d.]+\)$/),
    ]);
  });

  it("is the one diff right after the read: a second diff plans", async () => {
    const vps = await driftedVps();
    const refreshed = await impl.read(vps.id, vps.outs);
    const news = { ...vps.recorded, diskSpaceMb: 40960, [PREVIEW_FLAG]: true };
    await impl.diffVps(vps.id, refreshed.props!, news);
    const again = await impl.diffVps(vps.id, refreshed.props!, news);
    expect(texts(again.notes)).toContain("app: resizing memoryMb restarts the VPS.");
  });
});

describe("the drift line", () => {
  const recorded = {
    domainName: "app1.example.com",
    memoryMb: 1024,
    diskSpaceMb: 20480,
    hostServerOid: "764",
    password: "recorded-pw-1",
    metaData: { owner: "alice@example.com" },
    sshKeys: ["ssh-ed25519 AAAArecorded me@laptop"],
    reverseDns: "old.example.com",
  };
  const live = {
    ...recorded,
    memoryMb: 2048,
    diskSpaceMb: 10240,
    hostServerOid: "765",
    password: "live-pw-2",
    metaData: { owner: "bob@example.com" },
    sshKeys: ["ssh-ed25519 AAAAlive you@desk"],
    reverseDns: "new.example.com",
  };
  const changes = computeChanges("1001", live, recorded);

  it("shows the values of plain facts only: secrets, metaData, sshKeys and reverseDns by name", () => {
    const [line] = texts(driftNotes("app", live, recorded, changes));
    expect(line).toBe(
      "app: changed outside Pulumi: memoryMb 1024 → 2048, diskSpaceMb 20480 → 10240, hostServerOid 764 → 765, " +
        "password, sshKeys, reverseDns, metaData.",
    );
  });

  it("names an input the program marked secret without its value, in the line and in the disk's warning", () => {
    const text = texts(
      driftNotes("app", { ...live, diskSpaceMb: 40960 }, recorded, changes, ["memoryMb", "diskSpaceMb"]),
    );
    expect(text).toEqual([
      expect.stringMatching(/^app: changed outside Pulumi: memoryMb, diskSpaceMb, hostServerOid 764 → 765,/),
      "app: if the program still says the diskSpaceMb recorded before this refresh, the next up is refused: " +
        "diskSpaceMb can only grow.",
    ]);
    expect(text.join("\n")).not.toMatch(/1024|2048|20480|40960/);
  });
});
