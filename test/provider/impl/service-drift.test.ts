/**
 * L1: what a refresh's diff shows of facts the program does not set (provider/impl/lifecycle/service-drift.ts): a VPS moved
 * by hand to another host, in a program without hostServerOid, has a new host and a new IP address, and the refresh's
 * diff says both, with changes; an unchanged VPS, and the service's other spellings of the same facts, say nothing.
 * Called in the order the engine calls them (read, then the refresh's diff), against the emulator.
 */
import * as impl from "../../../provider/impl/index";
import { PREVIEW_FLAG } from "../../../provider/impl/fields/vps-fields";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import { normalIp, observedChanges, sameFact } from "../../../provider/impl/lifecycle/service-drift";
import { APP_INPUTS, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture();
const PROGRAM = { ...APP_INPUTS, runningState: "RUNNING" } satisfies VpsInputs;

async function createdVps() {
  const checked = await impl.checkVps({}, PROGRAM);
  expect(checked.failures).toEqual([]);
  const created = await impl.create(checked.inputs);
  return { id: created.id, recorded: { ...checked.inputs, [PREVIEW_FLAG]: true }, outs: created.outs };
}

describe("a refresh's diff of facts the program does not set", () => {
  it("a move by hand: the new host and IP address, as changes", async () => {
    const vps = await createdVps();
    const moved = await fixture().byHand.moveVps(Number(vps.id), { is_update_dns: false });
    const ip = moved.about_order.allocated_ips?.primary_ip;
    const host = moved.about_order.host_server_oid;
    const refreshed = await impl.read(vps.id, vps.outs);
    const diff = await impl.diffVps(vps.id, refreshed.props!, vps.recorded);
    expect(diff.changes).toBe(true);
    expect(diff.drifted).toEqual(expect.arrayContaining(["primaryIp", "hostServerOid"]));
    expect(diff.notes.map((note) => note.text)).toEqual([
      expect.stringContaining(
        `app: changed outside Pulumi: primaryIp ${vps.outs.primaryIp} → ${ip}, ` +
          `hostServerOid ${vps.outs.hostServerOid} → ${host}`,
      ),
    ]);
  });

  it("a stop by hand, in a program without runningState: reported once; `up --refresh` records it, starts nothing", async () => {
    // Issue 57's decision: a program that does not set runningState leaves the running state to the user.
    const { runningState: _unset, ...program } = PROGRAM;
    const checked = await impl.checkVps({}, program);
    const created = await impl.create(checked.inputs);
    await fixture().byHand.setRunningState(Number(created.id), "NOTRUNNING");
    const refreshed = await impl.read(created.id, created.outs);
    expect(refreshed.inputs).not.toHaveProperty("runningState");
    const drift = await impl.diffVps(created.id, refreshed.props!, {
      ...checked.inputs,
      [PREVIEW_FLAG]: true,
    });
    expect(drift.notes.map((note) => note.text)).toEqual([
      "app: changed outside Pulumi: runningState RUNNING → NOTRUNNING.",
    ]);
    // `up --refresh`: the program's check after the read, then the diff that plans.
    const recheck = await impl.checkVps(refreshed.inputs!, { ...program, [PREVIEW_FLAG]: true });
    const plan = await impl.diffVps(created.id, refreshed.props!, {
      ...recheck.inputs,
      [PREVIEW_FLAG]: true,
    });
    expect(plan.changes).toBe(false);
  });

  it("an unchanged VPS read twice: no change, no line", async () => {
    const vps = await createdVps();
    for (let round = 0; round < 2; round += 1) {
      const refreshed = await impl.read(vps.id, vps.outs);
      const diff = await impl.diffVps(vps.id, refreshed.props!, vps.recorded);
      expect(diff).toMatchObject({ changes: false, drifted: [], notes: [] });
    }
  });

  it("the next refresh after one that wrote the move: nothing more", async () => {
    const vps = await createdVps();
    await fixture().byHand.moveVps(Number(vps.id), { is_update_dns: false });
    const written = await impl.read(vps.id, vps.outs);
    const again = await impl.read(vps.id, written.props!);
    const diff = await impl.diffVps(vps.id, again.props!, { ...written.inputs!, [PREVIEW_FLAG]: true });
    expect(diff).toMatchObject({ changes: false, notes: [] });
  });
});

describe("the same fact, spelled another way", () => {
  it("IP addresses: IPv6 spellings, IPv4 leading zeros, a list in another order", () => {
    expect(normalIp("2001:DB8:0:0::1")).toBe("2001:db8::1");
    expect(sameFact("primaryIp", "2001:db8::0001", "2001:DB8::1")).toBe(true);
    expect(sameFact("primaryIp", "192.0.2.010", "192.0.2.10")).toBe(true);
    expect(sameFact("secondaryIps", ["192.0.2.2", "192.0.2.1"], ["192.0.2.1", "192.0.2.2"])).toBe(true);
    expect(sameFact("primaryIp", "192.0.2.10", "192.0.2.11")).toBe(false);
  });

  it("a host as a number or a string; a fee to the cent; a value an older state lacks is no change", () => {
    expect(
      observedChanges(
        { hostServerOid: "764", monthlyFeeUsd: 10 },
        { hostServerOid: 764, monthlyFeeUsd: 10.001 },
      ),
    ).toEqual([]);
    expect(observedChanges({}, { primaryIp: "192.0.2.10", hostServerOid: "764" })).toEqual([]);
  });
});
