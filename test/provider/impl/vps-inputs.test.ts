import * as pulumi from "@pulumi/pulumi";
import { UNKNOWN } from "../../../provider/impl/inputs/unknowns";
import { SECRET_SIG, SECRET_SIG_KEY, unwrapSecret } from "../../../provider/impl/inputs/secret-values";
import { checkCore as check, startImplFixture, type ImplFixture } from "../support/impl-fixture";

let fx: ImplFixture;
beforeAll(async () => {
  fx = await startImplFixture();
});
afterAll(async () => {
  await fx.close();
});

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
  it("check: accepts valid inputs, with __provider present, and returns them with a nonce and secrets wrapped", async () => {
    const result = await check({}, VALID);
    expect(result.failures).toBeUndefined();
    const { files, __creationNonce, plannedMonthlyFeeUsd, ...rest } = result.inputs;
    expect(rest).toEqual(Object.fromEntries(Object.entries(VALID).filter(([k]) => k !== "files")));
    // The quote, outside a preview too: a policy pack judges the update of `pulumi up` from it (planned-fee.ts).
    expect(plannedMonthlyFeeUsd).toBeGreaterThan(0);
    expect(files).toEqual({ [SECRET_SIG_KEY]: SECRET_SIG, value: VALID.files });
    expect(__creationNonce).toMatch(/^[0-9a-f]{32}$/);
    // The nonce is kept from the old inputs: it identifies this state's orders for the resource's life.
    const again = await check(result.inputs, VALID);
    expect(again.inputs.__creationNonce).toBe(__creationNonce);
    expect(unwrapSecret(again.inputs.files)).toEqual(VALID.files);
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
      "metaData.pulumi-rimuhosting:creation-token",
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

  it("check: a digits-only password a YAML program read as a number gets the quoting hint, not its digits", async () => {
    const result = await check({}, { domainName: "web1.example.com", password: 12345678901234 });
    expect(result.failures).toEqual([
      {
        property: "password",
        reason:
          "must be the root password as text, and it arrived as a number: a YAML program reads a value made only " +
          'of digits as a number, and a long one loses digits that way. Quote it: `password: "<value>"` in the ' +
          "program, or, for a config value the program reads, `pulumi config set --secret <name> '\"<value>\"'`.",
      },
    ]);
    expect(JSON.stringify(result.failures)).not.toMatch(/1234/);
    const other = await check({}, { domainName: "web1.example.com", password: true });
    expect(other.failures).toEqual([
      { property: "password", reason: "must be the root password (a string)" },
    ]);
  });

  it("check: a hostServerOid a YAML program read as a number (a config value of digits) is that host", async () => {
    // `pulumi config set host 764`, then `hostServerOid: ${host}`: YAML hands the plugin 764, not "764" (issue 65).
    const result = await check({}, { domainName: "web1.example.com", hostServerOid: 764 });
    expect(result.failures).toBeUndefined();
    expect(result.inputs.hostServerOid).toBe("764");
    const literal = await check({}, { domainName: "web1.example.com", hostServerOid: "764" });
    expect(literal.inputs.hostServerOid).toBe(result.inputs.hostServerOid);
    // A number that is no host's id is still refused, naming what a host id is.
    for (const hostServerOid of [7.5, -764, true])
      expect((await check({}, { domainName: "web1.example.com", hostServerOid })).failures).toEqual([
        {
          property: "hostServerOid",
          reason: expect.stringMatching(/host server id given as a string, e\.g\. "764"/),
        },
      ]);
  });

  it("check: an international name in its punycode form is taken; in Unicode letters, refused with that form", async () => {
    // RimuHosting's domain name is a fully qualified one, which DNS writes in punycode (docs/rimuhosting-api.md).
    expect((await check({}, { domainName: "xn--caf-dma.example.com" })).failures).toBeUndefined();
    expect((await check({}, { domainName: "café.example.com" })).failures).toEqual([
      {
        property: "domainName",
        reason:
          'must be a fully qualified domain name such as web1.example.com (given: "café.example.com"); DNS ' +
          "writes this name as xn--caf-dma.example.com: give that form",
      },
    ]);
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
    expect(result.inputs).toMatchObject(news);
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
    expect(refused.failures).toEqual([
      { property: "password", reason: expect.stringMatching(/^changing password/) },
    ]);
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
