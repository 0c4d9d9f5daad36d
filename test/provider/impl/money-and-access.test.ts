/**
 * L1: prices in preview, the bill after the fact, reverse DNS and SSH keys: the provider implementation
 * called as the shim calls it, against a real emulator on 127.0.0.1 (real HTTP).
 */
import * as impl from "../../../provider/impl/index";
import { parseCredit } from "../../../provider/impl/budget/money";
import { computeChanges } from "../../../provider/impl/inputs/vps-changes";
import { UNKNOWN } from "../../../provider/impl/inputs/unknowns";
import { deleteBillWords } from "../../../provider/impl/budget/money";
import {
  APP_INPUTS,
  checkCore,
  createChecked,
  rejectionOf,
  unchecked,
  useImplFixture,
} from "../support/impl-fixture";
import { ED25519_KEY, ED25519_KEY_2, MISLABELLED_KEY, RSA_KEY } from "../support/ssh-keys";

const fixture = useImplFixture();
const PREVIEW = { __preview: true } as const;
const quotes = () =>
  fixture()
    .emulator.requestLog()
    .filter((r) => r.route === "quoteNewVm");
const orderOf = (id: string) =>
  fixture()
    .emulator.snapshot()
    .find((o) => String(o.orderOid) === id)!;
const money = (line: string) => [...line.matchAll(/\$(\d+\.\d\d)/g)].map((m) => Number(m[1]));

describe("price in preview", () => {
  it("check() of a new VPS in a preview quotes it once, and the order is then billed exactly that", async () => {
    const checked = await impl.check({}, { ...APP_INPUTS, ...PREVIEW });
    expect(checked.failures).toBeUndefined();
    expect(quotes()).toHaveLength(1);
    const line = fixture().logs.find((l) => l.includes("app: new VPS:"));
    expect(line).toMatch(/^\[rimuhosting\] app: new VPS: \$\d+\.\d\d a month \(quoted by RimuHosting\)\.$/);
    const quoted = money(line!)[0];

    const { id, outs } = await createChecked(APP_INPUTS);
    expect(outs.monthlyFeeUsd).toBe(quoted);
    expect(orderOf(id).monthlyFeeUsd).toBe(quoted);
    // create() states the order and its fee in one line; no quote outside a preview.
    expect(fixture().logs.filter((l) => l.startsWith(`[rimuhosting] Vps ${id}:`))).toEqual([
      `[rimuhosting] Vps ${id}: ordered ${APP_INPUTS.domainName}, billed $${quoted!.toFixed(2)} a month.`,
    ]);
    expect(quotes()).toHaveLength(1);
  });

  it("outside a preview (the update of `pulumi up`), check() quotes only the planned fee, and prints no price", async () => {
    await impl.check({}, APP_INPUTS);
    expect(quotes()).toHaveLength(1);
    expect(fixture().logs.join("\n")).not.toContain("new VPS:");
  });

  it("values still unknown: one line says so, and check() passes", async () => {
    const checked = await impl.check({}, unchecked({ ...APP_INPUTS, memoryMb: UNKNOWN, ...PREVIEW }));
    expect(checked.failures).toBeUndefined();
    expect(quotes()).toHaveLength(0);
    expect(fixture().logs).toContain(
      "[rimuhosting] app: new VPS: price not quoted: memoryMb not known until the update runs.",
    );
  });

  it("the quote judges the order as create would: what it refuses fails the preview, naming the input", async () => {
    const checked = await impl.check({}, { ...APP_INPUTS, memoryMb: 1024 * 1024, ...PREVIEW });
    expect(checked.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^\[RIMU_ERR_CONFLICT\] .*No host server in Dallas has 1048576MB memory/,
        ),
      },
    ]);
    expect(quotes()).toHaveLength(1);
  });

  it("a quote answered 503 is a warning naming the check that did not run; the preview goes on", async () => {
    fixture().emulator.injectFault({ route: "quoteNewVm", kind: "status", status: 503, times: 10 });
    const checked = await impl.check({}, { ...APP_INPUTS, ...PREVIEW });
    expect(checked.failures).toBeUndefined();
    const logs = fixture().logs.join("\n");
    expect(logs).toMatch(
      /warning: \[RIMU_ERR_TRANSIENT\] app: checking the order with RimuHosting .* did not run: RimuHosting answered 503 to PUT http:\/\/127(\.\d+){3}:\d+\/r\/pricing-plans\/new-vm-pricing/,
    );
    expect(logs).toMatch(/app: new VPS: price not quoted/);
  });

  it("diff() of a resize in a preview shows the fee before and after and the difference, which update() then bills", async () => {
    const { id, outs } = await createChecked(APP_INPUTS);
    const before = quotes().length;
    const news = { ...APP_INPUTS, memoryMb: 2048, ...PREVIEW };
    const result = await impl.diff(id, outs as never, news);
    expect(result).toMatchObject({ changes: true, replaces: [] });
    expect(quotes()).toHaveLength(before + 1);
    const line = fixture().logs.find((l) => l.includes("resize"))!;
    expect(line).toMatch(
      /^\[rimuhosting\] app: resize 1024 → 2048 MB: \$\d+\.\d\d → \$\d+\.\d\d a month \(\+\$\d+\.\d\d\)$/,
    );
    const [was, will, more] = money(line);
    expect(was).toBe(outs.monthlyFeeUsd);
    expect(Math.round((will! - was!) * 100)).toBe(Math.round(more! * 100));

    const said = fixture().logs.length;
    const updated = await impl.update(id, outs as never, { ...APP_INPUTS, memoryMb: 2048 });
    expect(updated.outs.monthlyFeeUsd).toBe(will);
    expect(orderOf(id).monthlyFeeUsd).toBe(will);
    // One line for the resize, after it: its diff already warned that it restarts the VPS.
    expect(fixture().logs.slice(said)).toEqual([
      `[rimuhosting] Vps ${id}: resized memoryMb, which restarts the VPS; the monthly fee went from ` +
        `$${was!.toFixed(2)} to $${will!.toFixed(2)} (+$${more!.toFixed(2)}), as RimuHosting reported.`,
    ]);
  });

  it("a new VPS kept stopped, with a reverse DNS name, is said in one line: its order, fee, name and state", async () => {
    const { id, outs } = await createChecked({
      ...APP_INPUTS,
      reverseDns: "mail.example.com",
      runningState: "NOTRUNNING",
    });
    expect(orderOf(id).runningState).toBe("NOTRUNNING");
    expect(fixture().logs.filter((l) => l.startsWith(`[rimuhosting] Vps ${id}:`))).toEqual([
      `[rimuhosting] Vps ${id}: ordered ${APP_INPUTS.domainName}, billed $${outs.monthlyFeeUsd!.toFixed(2)} a ` +
        `month; reverse DNS of ${outs.primaryIp} set to mail.example.com; its running state set to NOTRUNNING.`,
    ]);
  });

  it("a no-op preview asks for no quote; a second change in the same preview shows the running total", async () => {
    const a = await createChecked(APP_INPUTS);
    const b = await createChecked({
      ...APP_INPUTS,
      domainName: "app2.example.com",
      creationScope: "shop/prod/app2",
    });
    const before = quotes().length;
    await impl.diff(a.id, a.outs as never, { ...APP_INPUTS, ...PREVIEW });
    expect(quotes()).toHaveLength(before);
    await impl.diff(a.id, a.outs as never, { ...APP_INPUTS, memoryMb: 2048, ...PREVIEW });
    await impl.diff(b.id, b.outs as never, {
      ...APP_INPUTS,
      domainName: "app2.example.com",
      creationScope: "shop/prod/app2",
      diskSpaceMb: 30720,
      ...PREVIEW,
    });
    expect(quotes()).toHaveLength(before + 2);
    const first = money(fixture().logs.find((l) => l.includes("app: resize"))!);
    const second = fixture().logs.find((l) => l.includes("app2: resize disk 20480 → 30720 MB"))!;
    const [b1, b2, , total] = money(second);
    expect(total).toBeCloseTo(first[2]! + (b2! - b1!), 2);
    expect(second).toMatch(/\[all VPS changes so far: \+\$\d+\.\d\d a month\]$/);
  });

  it("diff() of a replacement quotes the new VPS against the old fee", async () => {
    const { id, outs } = await createChecked(APP_INPUTS);
    await impl.diff(id, outs as never, { ...APP_INPUTS, dcLocation: "DCLONDON", ...PREVIEW });
    expect(fixture().logs.find((l) => l.includes("replacement VPS:"))).toMatch(
      /app: replacement VPS: \$\d+\.\d\d → \$\d+\.\d\d a month \([+-]\$\d+\.\d\d; the old VPS is cancelled/,
    );
  });
});

describe("money after the fact", () => {
  it("delete() says the cancellation and the credit for unused time that cancel_messages states, in one line", async () => {
    const { id, outs } = await createChecked(APP_INPUTS);
    const said = fixture().logs.length;
    await impl.delete(id, outs as never);
    const lines = fixture().logs.slice(said);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\[rimuhosting\\] Vps ${id}: shut down and cancelled, no longer billed \\(it was billed \\$${outs.monthlyFeeUsd!.toFixed(2)} a month\\); RimuHosting credited \\$\\d+\\.\\d\\d for the unused time\\.$`,
      ),
    );
  });

  it("parses the recorded credit wording, and gives up (verbatim) on anything else", () => {
    expect(parseCredit(["x is being shut down.", "A $7.98 credit has been added to your account."])).toBe(
      7.98,
    );
    expect(parseCredit(["Thank you."])).toBeUndefined();
    expect(deleteBillWords(["Server gone.", "Credit pending review."], 9.5)).toBe(
      "no longer billed (it was billed $9.50 a month); no credit could be read from RimuHosting's answer, which said: Server gone. Credit pending review.",
    );
  });

  it("a move is said in one line, once it is done: the host, the new address and the fee", async () => {
    const { id, outs } = await createChecked(APP_INPUTS);
    const target = outs.hostServerOid === "835" ? "764" : "835";
    const said = fixture().logs.length;
    const moved = await impl.update(id, outs as never, { ...APP_INPUTS, hostServerOid: target });
    expect(moved.outs.primaryIp).not.toBe(outs.primaryIp);
    const fee = orderOf(id).monthlyFeeUsd;
    const feeWords =
      fee === outs.monthlyFeeUsd
        ? `the monthly fee stays $${fee.toFixed(2)}`
        : `the monthly fee went from $${outs.monthlyFeeUsd!.toFixed(2)} to $${fee.toFixed(2)}`;
    expect(
      fixture()
        .logs.slice(said)
        .filter((l) => l.startsWith(`[rimuhosting] Vps ${id}:`)),
    ).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\[rimuhosting\\] Vps ${id}: moved to host server ${target}, its primary address now ` +
            `${moved.outs.primaryIp!.replace(/\./g, "\\.")}; ${feeWords.replace(/[$.()+]/g, "\\$&")}`,
        ),
      ),
    ]);
  });
});

describe("reverseDns", () => {
  it("check() refuses a name that is not a host name, naming reverseDns", async () => {
    for (const bad of [
      "web1",
      "-a.example.com",
      "a..example.com",
      "under_score.example.com",
      `${"a".repeat(64)}.com`,
    ]) {
      const checked = await checkCore({}, { ...APP_INPUTS, reverseDns: bad });
      expect(checked.failures?.[0]?.property).toBe("reverseDns");
    }
    for (const good of ["mail.example.com", "mail.example.com.", ""]) {
      expect((await checkCore({}, { ...APP_INPUTS, reverseDns: good })).failures).toBeUndefined();
    }
  });

  it('is set after create, changed in place, kept on refresh, set again after a move, cleared with ""', async () => {
    const { id, outs } = await createChecked({ ...APP_INPUTS, reverseDns: "mail.example.com" });
    expect(outs.reverseDns).toBe("mail.example.com");
    expect(orderOf(id).ptr).toEqual({ [outs.primaryIp!]: "mail.example.com" });

    const news = { ...APP_INPUTS, reverseDns: "smtp.example.com" };
    expect(computeChanges(id, outs as never, news)).toMatchObject({
      reverseDns: true,
      reinstall: [],
      replaces: [],
    });
    expect(await impl.diff(id, outs as never, news)).toMatchObject({ changes: true, replaces: [] });
    const mutationsBefore = fixture()
      .emulator.requestLog()
      .filter((r) => r.method !== "GET").length;
    const updated = await impl.update(id, outs as never, news);
    const mutations = fixture()
      .emulator.requestLog()
      .filter((r) => r.method !== "GET")
      .slice(mutationsBefore);
    expect(mutations.map((r) => r.route)).toEqual(["setReverseDns"]);
    expect(orderOf(id).ptr).toEqual({ [outs.primaryIp!]: "smtp.example.com" });
    expect(updated.outs.reverseDns).toBe("smtp.example.com");

    const refreshed = await impl.read(id, updated.outs as never);
    expect(refreshed.props?.reverseDns).toBe("smtp.example.com");
    expect(refreshed.inputs?.reverseDns).toBe("smtp.example.com");

    const target = updated.outs.hostServerOid === "835" ? "764" : "835";
    const moved = await impl.update(id, updated.outs as never, { ...news, hostServerOid: target });
    expect(orderOf(id).ptr).toEqual({ [moved.outs.primaryIp!]: "smtp.example.com" });

    await impl.update(id, moved.outs as never, { ...news, hostServerOid: target, reverseDns: "" });
    expect(orderOf(id).ptr).toEqual({});
  });

  it("a PTR refused after the create records the VPS without the name, so the next update sets it", async () => {
    fixture().emulator.injectFault({ route: "setReverseDns", kind: "status", status: 400 });
    const checked = await checkCore({}, { ...APP_INPUTS, reverseDns: "mail.example.com" });
    const error = await rejectionOf(impl.create(checked.inputs));
    expect(error).toBeInstanceOf(impl.VpsIncompleteError);
    const recorded = error.properties as Record<string, unknown>;
    expect(recorded.reverseDns).toBeUndefined();
    const updated = await impl.update(error.id, recorded, checked.inputs);
    expect(updated.outs.reverseDns).toBe("mail.example.com");
    expect(orderOf(error.id).ptr).toEqual({ [updated.outs.primaryIp!]: "mail.example.com" });
  });
});

describe("sshKeys", () => {
  it("check() accepts OpenSSH public keys and refuses anything else, naming the entry", async () => {
    expect(
      (await checkCore({}, { ...APP_INPUTS, sshKeys: [ED25519_KEY, RSA_KEY] })).failures,
    ).toBeUndefined();
    const cases: [string, RegExp][] = [
      ["-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----", /private key/],
      [`${ED25519_KEY}\n${ED25519_KEY_2}`, /one public key per entry/],
      ["ssh-foo AAAA", /must start with a key type/],
      ["ssh-ed25519 not*base64", /base64 key body/],
      [MISLABELLED_KEY, /does not encode a ssh-rsa key/],
    ];
    for (const [key, reason] of cases) {
      const checked = await checkCore({}, { ...APP_INPUTS, sshKeys: [ED25519_KEY, key] });
      expect(checked.failures).toEqual([{ property: "sshKeys.1", reason: expect.stringMatching(reason) }]);
    }
  });

  it("check() refuses a files entry for /root/.ssh/authorized_keys next to sshKeys", async () => {
    const checked = await checkCore(
      {},
      {
        ...APP_INPUTS,
        sshKeys: [ED25519_KEY],
        files: [{ path: "/root/.ssh/authorized_keys", content: "x" }],
      },
    );
    expect(checked.failures).toEqual([
      {
        property: "sshKeys",
        reason: expect.stringContaining("files also has an entry for /root/.ssh/authorized_keys"),
      },
    ]);
  });

  it("installs the keys as root's authorized_keys at create, next to other files", async () => {
    const { id, outs } = await createChecked({
      ...APP_INPUTS,
      sshKeys: [ED25519_KEY, ` ${RSA_KEY} `],
      files: [{ path: "/etc/motd", content: "hello" }],
    });
    expect(orderOf(id).rootAuthorizedKeys).toBe(`${ED25519_KEY}\n${RSA_KEY}\n`);
    expect(outs.sshKeys).toEqual([ED25519_KEY, ` ${RSA_KEY} `]);
  });

  it("a change is a reinstall: refused in check without allowReinstall, applied with it", async () => {
    const { id, outs, inputs } = await createChecked({ ...APP_INPUTS, sshKeys: [ED25519_KEY] });
    const news = { ...APP_INPUTS, sshKeys: [ED25519_KEY_2] };
    const refused = await checkCore(inputs, news);
    expect(refused.failures).toEqual([
      { property: "sshKeys", reason: expect.stringContaining("Set allowReinstall: true") },
    ]);
    expect(computeChanges(id, outs as never, news)).toMatchObject({ reinstall: ["sshKeys"], replaces: [] });
    await expect(impl.update(id, outs as never, news)).rejects.toThrow(/allowReinstall/);
    expect(orderOf(id).rootAuthorizedKeys).toBe(`${ED25519_KEY}\n`);

    const allowed = { ...news, allowReinstall: true };
    expect((await checkCore(inputs, allowed)).failures).toBeUndefined();
    const updated = await impl.update(id, outs as never, allowed);
    expect(
      fixture()
        .emulator.requestLog()
        .some((r) => r.route === "reinstallVps"),
    ).toBe(true);
    expect(orderOf(id).rootAuthorizedKeys).toBe(`${ED25519_KEY_2}\n`);
    expect(updated.outs.sshKeys).toEqual([ED25519_KEY_2]);
  });
});
