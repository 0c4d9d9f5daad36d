import * as pulumi from "@pulumi/pulumi";
import { check } from "../../../provider/impl/vps-provider";
import { UNKNOWN } from "../../../provider/impl/unknowns";

const VALID = {
  domainName: "web1.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  pricingPlanCode: "MIRO1B",
  memoryMb: 1024,
  diskSpaceMb: 8192,
  runningState: "RUNNING",
  files: [{ path: "/root/.ssh/authorized_keys", content: "ssh-ed25519 AAAA test" }],
  metaData: { team: "web" },
  timeouts: { createMinutes: 30 },
  __provider: "exports.handler = ...",
};

const properties = (failures: { property: string }[] | undefined) =>
  (failures ?? []).map((f) => f.property).sort();

describe("check", () => {
  it("check: accepts valid inputs, with __provider present, and returns them unchanged", async () => {
    const result = await check({}, VALID);
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toEqual(VALID);
  });

  it("check: reports each invalid field with a reason that says how to fix it", async () => {
    const result = await check(
      {},
      {
        domainName: "not a domain",
        dcLocation: "DCMARS",
        memoryMb: 10.5,
        diskSpaceMb: -1,
        runningState: "SLEEPING",
        hostServerOid: "host-7",
        files: [{ path: "relative/path", content: "x" }],
        metaData: { "pulumi-rimuhosting:creation-token": "x" },
        password: "short",
      },
    );
    expect(properties(result.failures)).toEqual([
      "dcLocation",
      "diskSpaceMb",
      "domainName",
      "files.0.path",
      "hostServerOid",
      "memoryMb",
      "metaData",
      "password",
      "runningState",
    ]);
    const reason = (p: string) => result.failures?.find((f) => f.property === p)?.reason ?? "";
    expect(reason("domainName")).toMatch(/fully qualified domain name such as web1\.example\.com/);
    expect(reason("dcLocation")).toMatch(/DCDALLAS.*getDataCenters/);
    expect(reason("memoryMb")).toMatch(/whole number of megabytes/);
    expect(reason("runningState")).toMatch(/"RUNNING" or "NOTRUNNING"/);
    expect(reason("files.0.path")).toMatch(/absolute path/);
    // A failure never echoes a password.
    expect(JSON.stringify(result.failures)).not.toContain("short");
  });

  it("check: requires domainName", async () => {
    const result = await check({}, { memoryMb: 1024 });
    expect(result.failures).toEqual([
      { property: "domainName", reason: expect.stringMatching(/is required/) },
    ]);
  });

  it("check: never fails on unknown values during preview, even for required fields", async () => {
    expect(UNKNOWN).toBe(pulumi.runtime.unknownValue);
    const news = {
      domainName: UNKNOWN,
      memoryMb: UNKNOWN,
      hostServerOid: UNKNOWN,
      files: [{ path: UNKNOWN, content: UNKNOWN }],
      metaData: { team: UNKNOWN },
      distro: UNKNOWN,
    };
    const result = await check({ domainName: "web1.example.com", distro: "deb12.64" }, news);
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toBe(news);
  });

  it("check: still validates the known fields next to unknown ones", async () => {
    const result = await check({}, { domainName: UNKNOWN, memoryMb: "lots" });
    expect(properties(result.failures)).toEqual(["memoryMb"]);
  });

  it("check: refuses a distro change unless allowReinstall is true", async () => {
    const olds = { domainName: "web1.example.com", distro: "deb12.64" };
    const refused = await check(olds, { ...olds, distro: "deb13.64" });
    expect(refused.failures).toEqual([
      {
        property: "distro",
        reason: expect.stringMatching(/from deb12\.64 to deb13\.64.*erases its disk.*allowReinstall: true/),
      },
    ]);
    const allowed = await check(olds, { ...olds, distro: "deb13.64", allowReinstall: true });
    expect(allowed.failures).toBeUndefined();
    const unknownAllow = await check(olds, { ...olds, distro: "deb13.64", allowReinstall: UNKNOWN });
    expect(unknownAllow.failures).toBeUndefined();
  });

  it("check: refuses a password or files change without allowReinstall, without naming the values", async () => {
    const olds = { domainName: "web1.example.com", password: "old-secret-pw" };
    const refused = await check(olds, { ...olds, password: "new-secret-pw" });
    expect(properties(refused.failures)).toEqual(["password"]);
    expect(JSON.stringify(refused.failures)).not.toMatch(/secret-pw/);
  });

  it("check: refuses a disk shrink early", async () => {
    const olds = { domainName: "web1.example.com", diskSpaceMb: 8192, diskSpace2Mb: 2048 };
    const result = await check(olds, { ...olds, diskSpaceMb: 4096, diskSpace2Mb: 0 });
    expect(properties(result.failures)).toEqual(["diskSpace2Mb", "diskSpaceMb"]);
    expect(result.failures?.[0]?.reason).toMatch(/cannot shrink.*Keep diskSpace/);
    const grow = await check(olds, { ...olds, diskSpaceMb: 16384 });
    expect(grow.failures).toBeUndefined();
  });

  it("check: treats null as unset", async () => {
    const result = await check({}, { domainName: "web1.example.com", distro: null, memoryMb: null });
    expect(result.failures).toBeUndefined();
  });
});
