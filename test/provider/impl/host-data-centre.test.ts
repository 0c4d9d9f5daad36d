// A host named for a VPS must be in its data centre (provider/impl/lookahead/host-checks.ts, checkHost): a move keeps the data
// centre, while a new dcLocation replaces the VPS, so its host is judged against the new data centre. check() (L1)
// of an existing VPS in DCDALLAS against the emulator; the account also has a VPS on host 1201 in DCLONDON, so its
// orders say which data centre each of the two hosts is in.
import * as impl from "../../../provider/impl/index";
import * as testing from "../../../provider/impl/testing";
import { APP_INPUTS, createChecked, useImplFixture } from "../support/impl-fixture";

const fixture = useImplFixture();
const PREVIEW = { __preview: true } as const;
const reasons = (failures?: { reason: string }[]) => failures?.map((f) => f.reason) ?? [];

describe("a host in another data centre (check(), L1)", () => {
  let recorded: Record<string, unknown>;
  let program: Record<string, unknown>;
  beforeEach(async () => {
    await createChecked({
      ...APP_INPUTS,
      domainName: "london.example.com",
      creationScope: "shop/prod/london",
      dcLocation: "DCLONDON",
      hostServerOid: "1201",
    });
    const created = await createChecked({ ...APP_INPUTS, hostServerOid: "835" });
    recorded = created.inputs;
    const { __creationNonce: _nonce, plannedMonthlyFeeUsd: _fee, ...given } = recorded;
    program = given;
    testing.forgetRun();
    expect(fixture().logs.join("\n")).not.toMatch(/error/);
  });

  test("a replacement into DCLONDON naming a host there passes", async () => {
    const moved = await impl.check(recorded, {
      ...program,
      dcLocation: "DCLONDON",
      hostServerOid: "1201",
      ...PREVIEW,
    });
    expect(reasons(moved.failures)).toEqual([]);
  });

  test("a replacement into DCLONDON keeping a host in DCDALLAS is refused against the new data centre", async () => {
    const kept = await impl.check(recorded, { ...program, dcLocation: "DCLONDON", ...PREVIEW });
    expect(reasons(kept.failures)).toEqual([
      "[RIMU_ERR_VALIDATION] hostServerOid: host 835 is in DCDALLAS, but dcLocation is DCLONDON: pick a host in " +
        "DCLONDON, or leave hostServerOid out to let RimuHosting choose.",
    ]);
  });

  test("a move to a host in DCLONDON with dcLocation unchanged is refused, with the advice to change dcLocation", async () => {
    const moved = await impl.check(recorded, { ...program, hostServerOid: "1201", ...PREVIEW });
    expect(reasons(moved.failures)).toEqual([
      expect.stringMatching(
        /^\[RIMU_ERR_VALIDATION\] hostServerOid: host 1201 is in DCLONDON, but this VPS is in DCDALLAS: a move keeps the data centre .* or change dcLocation to order a new VPS there\.$/,
      ),
    ]);
  });
});
