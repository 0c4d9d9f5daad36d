import { diff } from "../../../provider/impl/vps-provider";
import {
  assertChangesAllowed,
  changedInputNames,
  computeChanges,
} from "../../../provider/impl/inputs/vps-changes";
import { setLogSink } from "../../../provider/impl/testing";
import { UNKNOWN } from "../../../provider/impl/inputs/unknowns";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";
import type { VpsOutputs } from "../../../provider/impl/inputs/vps-outputs";
import { unchecked } from "../support/impl-fixture";

/** Old outputs as create() records them: inputs echoed, service values, output-only fields. */
const OLDS = {
  orderOid: 1001,
  slug: "order-1001-web1-example-com",
  domainName: "web1.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  pricingPlanCode: "MIRO1B",
  memoryMb: 1024,
  diskSpaceMb: 8192,
  diskSpace2Mb: 0,
  billingOid: 55,
  hostServerOid: "764",
  runningState: "RUNNING",
  password: "generated-pw-1",
  ipCount: 1,
  metaData: { team: "web" },
  primaryIp: "192.0.2.10",
  secondaryIps: [],
  __provider: "text",
} satisfies VpsOutputs;
const NEWS = {
  domainName: "web1.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  pricingPlanCode: "MIRO1B",
  memoryMb: 1024,
  diskSpaceMb: 8192,
  __provider: "text",
} satisfies VpsInputs;

let logged: string[] = [];
beforeEach(() => {
  logged = [];
  setLogSink((line) => logged.push(line));
});

describe("diff", () => {
  it("diff: no change when the inputs match and unset fields differ (service-picked host, password)", async () => {
    expect(await diff("1001", OLDS, NEWS)).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
    });
  });

  it("diff: memory and disk resize in place", async () => {
    const result = await diff("1001", OLDS, { ...NEWS, memoryMb: 2048, diskSpaceMb: 16384 });
    expect(result).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    const changes = computeChanges("1001", OLDS, { ...NEWS, memoryMb: 2048, diskSpaceMb: 16384 });
    expect(changes.parameters).toEqual(["memoryMb", "diskSpaceMb"]);
  });

  it("diff: hostServerOid moves in place; unset means no move", async () => {
    const move = computeChanges("1001", OLDS, { ...NEWS, hostServerOid: "835" });
    expect(move.move).toBe(true);
    expect(await diff("1001", OLDS, { ...NEWS, hostServerOid: "835" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(computeChanges("1001", OLDS, { ...NEWS, hostServerOid: "764" }).move).toBe(false);
  });

  it("diff: runningState starts or stops in place", async () => {
    expect(computeChanges("1001", OLDS, { ...NEWS, runningState: "NOTRUNNING" }).runningState).toBe(true);
    expect(await diff("1001", OLDS, { ...NEWS, runningState: "RUNNING" })).toMatchObject({ changes: false });
  });

  it("diff: distro reinstalls in place with allowReinstall; without it diff() reports the change and never throws (check and update refuse it)", async () => {
    const news = { ...NEWS, distro: "deb13.64" };
    expect(await diff("1001", OLDS, news)).toMatchObject({ changes: true, replaces: [] });
    expect(() => assertChangesAllowed(computeChanges("1001", OLDS, news), OLDS, news)).toThrow(
      /distro: changing distro from deb12\.64 to deb13\.64.*allowReinstall/,
    );
    const allowed = { ...news, allowReinstall: true };
    expect(await diff("1001", OLDS, allowed)).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect(computeChanges("1001", OLDS, allowed).reinstall).toEqual(["distro"]);
  });

  it("diff: domainName, dcLocation, pricingPlanCode, vpsType and ipCount replace", async () => {
    const result = await diff(
      "1001",
      { ...OLDS, vpsType: "REGULAR" },
      {
        ...NEWS,
        domainName: "web2.example.com",
        dcLocation: "DCLONDON",
        pricingPlanCode: "MIRO4B",
        vpsType: "DEDICATED",
        ipCount: 2,
      },
    );
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual(["domainName", "dcLocation", "pricingPlanCode", "vpsType", "ipCount"]);
  });

  it("diff: a replacement is not refused for a distro change or a smaller disk (the new VPS gets them)", async () => {
    const result = await diff("1001", OLDS, {
      ...NEWS,
      dcLocation: "DCLONDON",
      distro: "deb13.64",
      diskSpaceMb: 4096,
    });
    expect(result.replaces).toEqual(["dcLocation"]);
  });

  it("a disk shrink measured against the live size is refused before any change (not by diff, which never throws)", async () => {
    const news = { ...NEWS, diskSpaceMb: 4096 };
    expect(await diff("1001", OLDS, news)).toMatchObject({ changes: true });
    expect(() => assertChangesAllowed(computeChanges("1001", OLDS, news), OLDS, news)).toThrow(
      /diskSpaceMb: a disk cannot shrink \(8192 MB to 4096 MB\)/,
    );
  });

  it("diff: setting pricingPlanCode or vpsType where none was recorded does not replace", async () => {
    const olds = { ...OLDS, pricingPlanCode: undefined };
    expect(await diff("1001", olds, { ...NEWS, vpsType: "REGULAR" })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("diff: billingOid and metaData changes are reported, not applied", async () => {
    const result = await diff("1001", OLDS, { ...NEWS, billingOid: 77, metaData: { team: "api" } });
    expect(result).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    expect(logged.join("\n")).toMatch(/billingOid is used only when ordering/);
    expect(logged.join("\n")).toMatch(/metaData is used only when ordering/);
  });

  it("diff: settings (allowReinstall, timeouts) are changes without a replacement", async () => {
    expect(await diff("1001", OLDS, { ...NEWS, timeouts: { updateMinutes: 5 } })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await diff("1001", { ...OLDS, allowReinstall: true }, NEWS)).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("diff: a setting left out is its default (a generated SDK sends allowReinstall: false, the Vps class leaves it out)", async () => {
    expect(await diff("1001", OLDS, { ...NEWS, allowReinstall: false })).toMatchObject({ changes: false });
    expect(await diff("1001", { ...OLDS, allowReinstall: false }, NEWS)).toMatchObject({ changes: false });
  });

  it("diff: unknown values count as changed (replace fields replace)", async () => {
    const result = await diff("1001", OLDS, unchecked({ ...NEWS, domainName: UNKNOWN, memoryMb: UNKNOWN }));
    expect(result).toEqual({ changes: true, replaces: ["domainName"], deleteBeforeReplace: false });
    const unknownDistro = await diff(
      "1001",
      OLDS,
      unchecked({ ...NEWS, distro: UNKNOWN, allowReinstall: UNKNOWN }),
    );
    expect(unknownDistro).toMatchObject({ changes: true, replaces: [] });
  });

  it("diff: adoptOrderOid equal to the id is no change; another order replaces", async () => {
    expect(await diff("1001", OLDS, { ...NEWS, adoptOrderOid: 1001 })).toMatchObject({ changes: false });
    expect(await diff("1001", OLDS, { ...NEWS, adoptOrderOid: 2002 })).toMatchObject({
      replaces: ["adoptOrderOid"],
    });
  });
});

describe("changedInputNames", () => {
  // Every part of a change set at once: a resize, a move, a start, a reinstall, a setting and an order-only input.
  const changes = computeChanges("1001", OLDS, {
    ...NEWS,
    memoryMb: 2048,
    hostServerOid: "765",
    runningState: "NOTRUNNING",
    distro: "ubuntu2404.64",
    allowReinstall: true,
    metaData: { team: "ops" },
  });

  it("for a detailed diff: what an update acts on, settings included, order-only inputs (not applied) left out", () => {
    expect(changedInputNames(changes, { settings: true, orderOnly: false })).toEqual([
      "distro",
      "memoryMb",
      "hostServerOid",
      "runningState",
      "allowReinstall",
    ]);
  });

  it("for a refresh's drift: what the service reports changed, order-only inputs included, settings left out", () => {
    expect(changedInputNames(changes, { settings: false, orderOnly: true })).toEqual([
      "distro",
      "memoryMb",
      "hostServerOid",
      "runningState",
      "metaData",
    ]);
  });
});
