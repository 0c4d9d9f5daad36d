/**
 * L1: check() lets no bad input through, and says in preview what it can know. Against the real
 * emulator (catalogue, orders): every bad input below fails in check, naming the field, and not one
 * request that changes anything reaches the API.
 */
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import {
  DEMO_API_KEY,
  checkCore,
  startImplFixture,
  stackConfig,
  type ImplFixture,
  unchecked,
} from "../support/impl-fixture";
import type { VpsInputs } from "../../../provider/impl/inputs/vps-input-schema";

const PROGRAM = {
  domainName: "web1.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  pricingPlanCode: "MIRO1B",
  memoryMb: 1024,
  diskSpaceMb: 20480,
  creationScope: "shop/prod/web",
  __provider: "text",
} satisfies VpsInputs;

const MB = 1024 * 1024;
const big = (chars: number) => "x".repeat(chars);
const file = (path: string, content = "ssh-ed25519 AAAA test") => ({ path, content });

/** [what, the inputs changed from PROGRAM, the field the failure must name]. */
const BAD_INPUTS: [string, Record<string, unknown>, string][] = [
  ["a path escaping with ..", { files: [file("/../../etc/shadow")] }, "files"],
  ["a path with a .. segment inside", { files: [file("/root/../etc/shadow")] }, "files"],
  ["a relative path", { files: [file("relative/path")] }, "files"],
  ["an empty path", { files: [file("")] }, "files"],
  ["a NUL in a path", { files: [file("/root/\u0000evil")] }, "files"],
  ["a newline in a path", { files: [file("/root/a\nb")] }, "files"],
  ["duplicate paths", { files: [file("/root/a"), file("/root/a")] }, "files"],
  ["a directory as a path", { files: [file("/root/.ssh/")] }, "files"],
  ["a // in a path", { files: [file("//etc/passwd")] }, "files"],
  ["a /./ in a path", { files: [file("/./etc/passwd")] }, "files"],
  ["a 2000-character path", { files: [file(`/${big(2000)}`)] }, "files"],
  ["a 2 MB file", { files: [file("/root/a", big(2 * MB))] }, "files"],
  ["5 MB of files in all", { files: [1, 2, 3, 4, 5].map((i) => file(`/root/f${i}`, big(MB))) }, "files"],
  ["101 files", { files: Array.from({ length: 101 }, (_, i) => file(`/root/f${i}`)) }, "files"],
  ["a file entry with an extra key", { files: [{ ...file("/root/a"), mode: "0600" }] }, "files"],
  ["files not a list", { files: "/root/a" }, "files"],
  ["a file content that is a number", { files: [{ path: "/root/a", content: 5 }] }, "files"],
  ["a file without content", { files: [{ path: "/root/a" }] }, "files"],
  ["a 10 MB cloudConfig", { cloudConfig: big(10 * MB) }, "cloudConfig"],
  ["a cloudConfig that is a number", { cloudConfig: 42 }, "cloudConfig"],
  ["a NUL in cloudConfig", { cloudConfig: "#cloud-config\u0000" }, "cloudConfig"],
  ["a short password", { password: "short" }, "password"],
  ["a 10 MB password", { password: big(10 * MB) }, "password"],
  ["a NUL in the password", { password: "abcdefgh\u0000" }, "password"],
  ["a password that is a number", { password: 12345678 }, "password"],
  ["no domainName", { domainName: undefined }, "domainName"],
  ["a domainName with spaces", { domainName: "not a domain" }, "domainName"],
  ["a 300-character domainName", { domainName: `${big(290)}.example.com` }, "domainName"],
  ["a domainName without a dot", { domainName: "web1" }, "domainName"],
  ["a NUL in the domainName", { domainName: "web1\u0000.example.com" }, "domainName"],
  ["an empty distro", { distro: "" }, "distro"],
  ["a distro with a space", { distro: "deb12 64" }, "distro"],
  ["a 10 MB distro", { distro: big(10 * MB) }, "distro"],
  ["a distro that is a number", { distro: 12 }, "distro"],
  ["an unknown data centre", { dcLocation: "DCMARS" }, "dcLocation"],
  ["a data centre that takes no new servers", { dcLocation: "DCDALLAS2" }, "dcLocation"],
  ["an unknown pricing plan", { pricingPlanCode: "NOPE1" }, "pricingPlanCode"],
  ["a pricing plan with a space", { pricingPlanCode: "MIRO 1B" }, "pricingPlanCode"],
  ["negative memory", { memoryMb: -1 }, "memoryMb"],
  ["fractional memory", { memoryMb: 1.5 }, "memoryMb"],
  ["memory as a string", { memoryMb: "1024" }, "memoryMb"],
  ["a terabyte-scale memory", { memoryMb: 1e12 }, "memoryMb"],
  ["a zero disk", { diskSpaceMb: 0 }, "diskSpaceMb"],
  ["a negative second disk", { diskSpace2Mb: -5 }, "diskSpace2Mb"],
  ["an absurd disk", { diskSpaceMb: 1e15 }, "diskSpaceMb"],
  ["an unknown vpsType", { vpsType: "FAST" }, "vpsType"],
  ["a negative billingOid", { billingOid: -3 }, "billingOid"],
  ["a billingOid that is text", { billingOid: "abc" }, "billingOid"],
  ["a hostServerOid that is not digits", { hostServerOid: "host-7" }, "hostServerOid"],
  // A whole number is a host id (a YAML config value of digits, issue 65: vps-inputs.test.ts); a fraction is none.
  ["a hostServerOid that is a fraction", { hostServerOid: 7.5 }, "hostServerOid"],
  ["an unknown runningState", { runningState: "SLEEPING" }, "runningState"],
  ["an unknown control panel", { controlPanel: "cpanel" }, "controlPanel"],
  ["no IPs", { ipCount: 0 }, "ipCount"],
  ["a thousand IPs", { ipCount: 1000 }, "ipCount"],
  ["a metadata value that is a number", { metaData: { team: 5 } }, "metaData"],
  ["a metadata key with a space", { metaData: { "my team": "web" } }, "metaData"],
  ["a reserved metadata key", { metaData: { "pulumi-rimuhosting:x": "y" } }, "metaData"],
  [
    "51 metadata entries",
    { metaData: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) },
    "metaData",
  ],
  ["a 10 MB metadata value", { metaData: { team: big(10 * MB) } }, "metaData"],
  ["a 10 MB metadata key", { metaData: { [big(10 * MB)]: "v" } }, "metaData"],
  ["a 10 MB pricing plan", { pricingPlanCode: big(10 * MB) }, "pricingPlanCode"],
  ["a 10 MB file path", { files: [file(`/${big(10 * MB)}`)] }, "files"],
  ["allowReinstall as text", { allowReinstall: "yes" }, "allowReinstall"],
  ["a negative timeout", { timeouts: { createMinutes: -1 } }, "timeouts"],
  ["a mistyped timeout key", { timeouts: { createMinute: 5 } }, "timeouts"],
  ["a timeout of a billion minutes", { timeouts: { createMinutes: 1e9 } }, "timeouts"],
  ["a negative adoptOrderOid", { adoptOrderOid: -1 }, "adoptOrderOid"],
  ["a fractional adoptOrderOid", { adoptOrderOid: 1.5 }, "adoptOrderOid"],
  ["an adoptOrderOid that does not exist", { adoptOrderOid: 999999 }, "adoptOrderOid"],
  ["a mistyped input key (memorymb)", { memorymb: 2048 }, "memorymb"],
  ["a mistyped input key (dcLocaton)", { dcLocaton: "DCDALLAS" }, "dcLocaton"],
  ["an unknown input key", { colour: "blue" }, "colour"],
  ["creationScope that is not a string", { creationScope: 5 }, "creationScope"],
  ["a forged creation nonce", { __creationNonce: "not-a-nonce" }, "__creationNonce"],
];

let fx: ImplFixture;
beforeAll(async () => {
  fx = await startImplFixture();
});
afterAll(async () => {
  await fx.close();
});

const mutations = () => fx.emulator.requestLog().filter((r) => r.method !== "GET");

describe("check(): no bad input reaches the API", () => {
  it(`has at least 59 bad inputs`, () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(59);
  });

  it.each(BAD_INPUTS)("refuses %s, naming the field, in a short message", async (_what, change, field) => {
    const before = mutations().length;
    const result = await impl.check({}, { ...PROGRAM, ...change });
    expect(result.failures?.length).toBeGreaterThan(0);
    // As the engine shows it: no property (so it prints no value), the code first, then the input named.
    const named = new RegExp(`^\\[RIMU_ERR_[A-Z_]+\\] ${field}[.:]`);
    for (const failure of result.failures ?? []) {
      expect(failure.property).toBe("");
      expect(failure.reason).toMatch(/^\[RIMU_ERR_[A-Z_]+\] /);
    }
    expect({ failures: result.failures }).toMatchObject({
      failures: expect.arrayContaining([expect.objectContaining({ reason: expect.stringMatching(named) })]),
    });
    // Never the value of a secret or a huge input, never a stack.
    const text = JSON.stringify(result.failures);
    expect(text.length).toBeLessThan(4000);
    expect(text).not.toMatch(/\n\s+at /);
    expect(text).not.toContain("\u001b["); // no ANSI colour codes
    if (field === "password") expect(text).not.toContain('short"');
    expect(mutations().length).toBe(before);
  });

  it("0 of them reached the API with a change (only catalogue and order reads)", () => {
    expect(mutations()).toEqual([]);
  });
});

describe("check(): preview says what it can know", () => {
  it("a mistyped key names the input it most likely meant", async () => {
    const result = await impl.check({}, unchecked({ ...PROGRAM, memorymb: 2048 }));
    expect(result.failures).toEqual([
      {
        property: "",
        reason: "[RIMU_ERR_VALIDATION] memorymb: is not an input of Vps; did you mean memoryMb?",
      },
    ]);
  });

  it("a distro the catalogue does not list is a warning, not a failure (older codes are still valid)", async () => {
    fx.logs.length = 0;
    const result = await impl.check({}, { ...PROGRAM, distro: "deb11.64" });
    expect(result.failures).toBeUndefined();
    expect(fx.logs.join("\n")).toMatch(
      /distro deb11\.64 is not in RimuHosting's list of distributions.*older codes are still accepted/,
    );
  });

  it("an existing VPS in a data centre that no longer takes new servers is fine; moving there is not", async () => {
    const olds = { ...PROGRAM, dcLocation: "DCDALLAS2" as const };
    expect((await impl.check(olds, olds)).failures).toBeUndefined();
    const moved = await checkCore(PROGRAM, olds);
    expect(moved.failures).toEqual([
      {
        property: "dcLocation",
        reason: expect.stringMatching(/^DCDALLAS2 takes no new servers; use one of DCDALLAS/),
      },
    ]);
  });

  it("adoption: preview names the order it will adopt; a cancelled or mismatched one fails in preview", async () => {
    const order = await fx.byHand.createVps({
      instantiation_options: { domain_name: "legacy.example.com", distro: "deb12.64" },
      dc_location: "DCDALLAS",
    });
    const oid = order.about_order.order_oid;
    fx.logs.length = 0;
    const ok = await impl.check({}, { ...PROGRAM, domainName: "legacy.example.com", adoptOrderOid: oid });
    expect(ok.failures).toBeUndefined();
    expect(fx.logs.join("\n")).toContain(`will adopt existing order ${oid} (legacy.example.com`);
    const mismatch = await checkCore({}, { ...PROGRAM, adoptOrderOid: oid });
    expect(mismatch.failures).toEqual([
      {
        property: "adoptOrderOid",
        reason: expect.stringContaining(
          `order ${oid} is legacy.example.com, but domainName is web1.example.com`,
        ),
      },
    ]);
  });

  it("a missing API key fails in preview with how to set it", async () => {
    testing.resetConfiguration();
    try {
      const result = await impl.check({}, PROGRAM);
      expect(result.failures).toEqual([
        {
          property: "",
          reason: expect.stringMatching(
            /^\[RIMU_ERR_CONFIG\] .*needs a RimuHosting API key.*pulumi config set rimuhosting:apiKey/,
          ),
        },
      ]);
    } finally {
      await impl.configure({ config: stackConfig(fx.emulator.baseUrl, DEMO_API_KEY) });
    }
  });
});
