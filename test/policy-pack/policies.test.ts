/**
 * The policy pack's resource policies and RimuHostingGuard's arguments (policy-pack/policies.ts, guard-config.ts),
 * called the way @pulumi/policy calls them (./support.ts); monthly-budget: ./monthly-budget.test.ts.
 * test/engine/policy-pack.test.ts runs the same policies through the real CLI.
 */
import { describe, expect, it } from "@jest/globals";
import { initialConfig } from "../../policy-pack/guard-config";
import { allowedDataCentres, maxDiskMb, maxMemoryMb, noReinstall } from "../../policy-pack/policies";
import { isRimuHostingVps } from "../../policy-pack/readings";
import { DYNAMIC, NATIVE, judge, props } from "./support";

describe("which resources are VPSs", () => {
  it("the native plugin's Vps and the npm package's Vps", () => {
    expect(isRimuHostingVps(NATIVE, {})).toBe(true);
    expect(isRimuHostingVps(DYNAMIC, {})).toBe(true);
  });

  it("a generic dynamic resource whose provider text loads this package, and no other", () => {
    const ours = { __provider: 'exports.handler = () => require("pulumi-rimuhosting/shim");\n' };
    expect(isRimuHostingVps("pulumi-nodejs:dynamic:Resource", ours)).toBe(true);
    expect(
      isRimuHostingVps("pulumi-nodejs:dynamic:Resource", { __provider: "exports.handler = () => other" }),
    ).toBe(false);
    expect(isRimuHostingVps("pulumi-nodejs:dynamic:Resource", props({}, ["__provider"]))).toBe(false);
    expect(isRimuHostingVps("aws:ec2/instance:Instance", ours)).toBe(false);
  });
});

describe("allowed-data-centres", () => {
  const config = { dataCentres: ["DCDALLAS", "DCLONDON"] };

  it("passes a VPS in an allowed data centre, on either front end", () => {
    expect(judge(allowedDataCentres, config, { dcLocation: "DCLONDON" })).toEqual([]);
    expect(judge(allowedDataCentres, config, { dcLocation: "DCDALLAS" }, DYNAMIC)).toEqual([]);
  });

  it("reports a VPS elsewhere, naming dcLocation, its value and the allowed ones", () => {
    expect(judge(allowedDataCentres, config, { dcLocation: "DCSYDNEY" }, DYNAMIC)).toEqual([
      'VPS "web" is in DCSYDNEY, which is not an allowed data centre (allowed: DCDALLAS, DCLONDON). ' +
        "Set dcLocation to one of: DCDALLAS, DCLONDON. Or add it to allowed-data-centres.dataCentres in the " +
        "policy pack's config.",
    ]);
  });

  it("says it could not judge a VPS whose dcLocation is left out or unknown in preview", () => {
    expect(judge(allowedDataCentres, config, {})).toEqual([
      'allowed-data-centres could not judge VPS "web": dcLocation is not set, so RimuHosting chooses the data ' +
        "centre. Set dcLocation to one of: DCDALLAS, DCLONDON.",
    ]);
    expect(judge(allowedDataCentres, config, props({}, ["dcLocation"]))).toEqual([
      'allowed-data-centres could not judge VPS "web": its dcLocation is not known during preview (it comes ' +
        "from another resource's output). Set dcLocation to one of: DCDALLAS, DCLONDON.",
    ]);
  });

  it("is not applicable to other resources, or without configured data centres", () => {
    expect(
      judge(allowedDataCentres, config, { dcLocation: "DCSYDNEY" }, "random:index/randomId:RandomId"),
    ).toBe("not applicable: not a RimuHosting VPS");
    expect(judge(allowedDataCentres, {}, { dcLocation: "DCSYDNEY" })).toBe(
      "not applicable: no data centres configured (allowed-data-centres.dataCentres)",
    );
  });
});

describe("max-memory-mb and max-disk-mb", () => {
  it("pass at the limit and report over it", () => {
    expect(judge(maxMemoryMb, { limit: 4096 }, { memoryMb: 4096 })).toEqual([]);
    expect(judge(maxMemoryMb, { limit: 4096 }, { memoryMb: 8192 })).toEqual([
      'VPS "web" has 8192 MB of memory (memoryMb), over the limit of 4096 MB (max-memory-mb.limit). ' +
        "Lower memoryMb, or raise max-memory-mb.limit in the policy pack's config.",
    ]);
  });

  it("max-disk-mb counts the second disk too", () => {
    expect(judge(maxDiskMb, { limit: 20000 }, { diskSpaceMb: 16000 })).toEqual([]);
    expect(judge(maxDiskMb, { limit: 20000 }, { diskSpaceMb: 16000, diskSpace2Mb: 8000 })).toEqual([
      'VPS "web" has 24000 MB of disk (diskSpaceMb + diskSpace2Mb), over the limit of 20000 MB ' +
        "(max-disk-mb.limit). Lower diskSpaceMb + diskSpace2Mb, or raise max-disk-mb.limit in the policy pack's config.",
    ]);
  });

  it("say they could not judge a size left out (the plan's applies) or unknown in preview", () => {
    expect(judge(maxMemoryMb, { limit: 4096 }, {})).toEqual([
      'max-memory-mb could not judge VPS "web": memoryMb is not set, so the pricing plan\'s size applies. ' +
        "Set memoryMb to at most 4096 MB.",
    ]);
    expect(judge(maxDiskMb, { limit: 4096 }, props({}, ["diskSpaceMb"]))).toEqual([
      'max-disk-mb could not judge VPS "web": its diskSpaceMb is not known during preview (it comes from ' +
        "another resource's output). Set diskSpaceMb to at most 4096 MB.",
    ]);
  });

  it("are not applicable without a limit", () => {
    expect(judge(maxMemoryMb, {}, { memoryMb: 1 << 20 })).toBe(
      "not applicable: no limit configured (max-memory-mb.limit)",
    );
  });
});

describe("no-reinstall", () => {
  it("passes allowReinstall false or left out, reports true", () => {
    expect(judge(noReinstall, {}, { allowReinstall: false })).toEqual([]);
    expect(judge(noReinstall, {}, {})).toEqual([]);
    expect(judge(noReinstall, {}, { allowReinstall: true }, DYNAMIC)).toEqual([
      'VPS "web" sets allowReinstall: true, which lets a change reinstall it and erase its disk; this stack holds ' +
        "data (no-reinstall). Remove allowReinstall or set it to false.",
    ]);
  });

  it("says it could not judge allowReinstall unknown in preview", () => {
    expect(judge(noReinstall, {}, props({}, ["allowReinstall"]))).toEqual([
      'no-reinstall could not judge VPS "web": its allowReinstall is not known during preview (it comes from ' +
        "another resource's output). Remove allowReinstall or set it to false.",
    ]);
  });
});

describe("RimuHostingGuard's arguments", () => {
  it("become the pack's initial config under each policy's name", () => {
    expect(
      initialConfig({
        all: "mandatory",
        maxMemoryMb: { enforcementLevel: "advisory", limit: 4096 },
        allowedDataCentres: { dataCentres: ["DCDALLAS"] },
        monthlyBudget: { maxMonthlyUsd: 200 },
        maxDiskMb: "disabled",
        noReinstall: "advisory",
      }),
    ).toEqual({
      all: "mandatory",
      "max-memory-mb": { enforcementLevel: "advisory", limit: 4096 },
      "allowed-data-centres": { dataCentres: ["DCDALLAS"] },
      "monthly-budget": { maxMonthlyUsd: 200 },
      "max-disk-mb": "disabled",
      "no-reinstall": "advisory",
    });
  });

  it("refuse an argument it does not know, naming the known ones", () => {
    expect(() => initialConfig({ maxMemory: 1 } as never)).toThrow(
      'RimuHostingGuard has no argument "maxMemory"; the arguments are: all, monthlyBudget, allowedDataCentres, ' +
        "maxMemoryMb, maxDiskMb, noReinstall.",
    );
  });
});
