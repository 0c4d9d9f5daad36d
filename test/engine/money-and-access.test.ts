// examples/money end to end against the emulator: the preview prints the quoted price of the new VPS, a preview of
// a memory change prints the fee before and after and the difference, the following up is billed exactly that,
// the reverse DNS name and SSH keys reach the VPS, and destroy logs the credit. Through the real CLI (the
// provider's lines are what the CLI shows as diagnostics of the stack). A reverse DNS name changed later, set in place
// and alone, is money-cases.test.ts's case 2 (both front ends), not run again here (CPU, issue 67).
import { describeCliOnly } from "./describe-cli";
import { liveOrders, startScenario, type Scenario } from "./e2e-support";

jest.setTimeout(240_000);

const money = (line: string) => [...line.matchAll(/\$(\d+\.\d\d)/g)].map((m) => Number(m[1]));

describeCliOnly("money and access", () => {
  let s: Scenario;
  let output = "";
  let orderOid = 0;
  /** The monthly price the first test's preview quoted for the new VPS. */
  let previewQuoted: number | undefined;
  /** The CLI's display since the last call. */
  const take = (): string => {
    const text = output;
    output = "";
    return text;
  };
  const line = (text: string, pattern: RegExp): string => {
    const found = text.split("\n").find((l) => pattern.test(l));
    if (!found) throw new Error(`no line matching ${pattern} in:\n${text}`);
    return found;
  };

  beforeAll(async () => {
    s = await startScenario("money", {
      onCliOutput: (text) => (output += text),
    });
  });
  afterAll(async () => s?.close());

  test("preview prints the quoted monthly price of the new VPS", async () => {
    take();
    await s.stack.preview();
    const quoted = line(take(), /web: new VPS: \$\d+\.\d\d a month \(quoted by RimuHosting\)/);
    expect(money(quoted)).toHaveLength(1);
    expect(s.emulator.snapshot()).toEqual([]);
    previewQuoted = money(quoted)[0];
  });

  test("up bills what the preview quoted, sets the reverse DNS name and installs the SSH keys", async () => {
    // Not needed after the first test: its preview of the same program, config and empty account quoted the price.
    if (previewQuoted === undefined) await s.stack.preview();
    const quoted = previewQuoted ?? money(line(take(), /web: new VPS:/))[0];
    take();
    const r = await s.stack.up();
    const shown = take();
    expect(r.outputs.monthlyFeeUsd).toBe(quoted);
    expect(line(shown, /Vps \d+: ordered money\.example\.com, billed \$/)).toContain(
      `billed $${quoted!.toFixed(2)} a month`,
    );
    const [order] = liveOrders(s.emulator);
    orderOid = order!.orderOid;
    const snap = s.emulator.snapshot().find((o) => o.orderOid === orderOid)!;
    expect(snap.monthlyFeeUsd).toBe(quoted);
    expect(snap.ptr).toEqual({ [r.outputs.ip as string]: "money.example.com" });
    expect(snap.rootAuthorizedKeys).toMatch(/^ssh-ed25519 AAAA\S+ admin@example\.com\n$/);
    expect(r.outputs.reverseDns).toBe("money.example.com");
  });

  test("a memory change previews before/after/difference, and up charges exactly that", async () => {
    await s.stack.setConfig("memoryMb", "2048");
    take();
    const mark = s.mark();
    await s.stack.preview();
    expect(s.mutationsSince(mark)).toEqual([]);
    // One quote for the one resize.
    expect(
      s.emulator
        .requestLog()
        .slice(mark)
        .filter((e) => e.route === "quoteNewVm"),
    ).toHaveLength(1);
    const previewed = line(
      take(),
      /web: resize 1024 → 2048 MB: \$\d+\.\d\d → \$\d+\.\d\d a month \(\+\$\d+\.\d\d\)/,
    );
    const [before, after, difference] = money(previewed);
    expect(Math.round((after! - before!) * 100)).toBe(Math.round(difference! * 100));

    const r = await s.stack.up();
    const shown = take();
    expect(r.outputs.memory).toBe(2048);
    expect(r.outputs.monthlyFeeUsd).toBe(after);
    expect(s.emulator.snapshot().find((o) => o.orderOid === orderOid)?.monthlyFeeUsd).toBe(after);
    expect(
      line(shown, /Vps \d+: resized memoryMb, which restarts the VPS; the monthly fee went from/),
    ).toContain(`from $${before!.toFixed(2)} to $${after!.toFixed(2)} (+$${difference!.toFixed(2)})`);
  });

  test("destroy logs the credit for the unused time", async () => {
    take();
    await s.stack.destroy();
    const credited = line(take(), /Vps \d+: shut down and cancelled, no longer billed/);
    expect(credited).toMatch(/RimuHosting credited \$\d+\.\d\d for the unused time/);
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
