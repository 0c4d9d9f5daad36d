// Through the real CLI, on the native plugin (YAML): the engine's customTimeouts as the default of the provider's own
// time limits, and the retry and pace settings against the emulator's rate limit. In-process, the same rules are
// tested in test/provider/impl/time-limits.test.ts and retries-and-pace.test.ts; here only what needs the engine: that
// it sends customTimeouts with each Create, and that the stack config's settings reach the plugin's client.
import * as fs from "node:fs";
import * as path from "node:path";
import { DeploymentError } from "./steps";
import { liveOrders, type Scenario } from "./e2e-support";
import { describeNative, nativeOps, startNativeScenario, writeYamlProgram } from "./native-programs";

jest.setTimeout(300_000);

/** Two VPSs whose orders each take 10 s; both have customTimeouts.create 2s, and `patient` the timeouts input too. */
const TIMEOUTS_PROGRAM = `resources:
  slow:
    type: rimuhosting:Vps
    properties:
      domainName: slow.example.com
    options:
      customTimeouts:
        create: 2s
  patient:
    type: rimuhosting:Vps
    properties:
      domainName: patient.example.com
      timeouts:
        createMinutes: 1
    options:
      customTimeouts:
        create: 2s
`;

/** `count` VPSs in one program, ordered in parallel by the engine. */
const fleetProgram = (count: number): string =>
  "resources:\n" +
  Array.from(
    { length: count },
    (_, i) =>
      `  vps${i + 1}:\n    type: rimuhosting:Vps\n    properties:\n      domainName: vps${i + 1}.example.com\n`,
  ).join("");

describeNative("yaml", "customTimeouts and the retry settings", () => {
  let s: Scenario | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  test("a create over customTimeouts fails soon, naming the limit; the timeouts input wins over it", async () => {
    s = await startNativeScenario(writeYamlProgram("native-timeouts", TIMEOUTS_PROGRAM));
    // Each of the two orders is answered after 10 s.
    s.emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 10_000, times: 2 });
    const failure = await s.stack.up().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DeploymentError);
    const text = (failure as Error).message;
    expect(text).toContain(
      "POST /orders/new-vps: no response within 2000 ms (the create limit of 2 s, from the resource's " +
        "customTimeouts.create (the Vps `timeouts` input's createMinutes would win over it))",
    );
    // After the limit, the look-ups for the order wait at most as long again, not the client's minute.
    const lookups = /\((\d+) lookups over (\d+) ms\)/.exec(text ?? "");
    expect(Number(lookups?.[2])).toBeLessThanOrEqual(2000);
    expect(nativeOps((failure as DeploymentError).result)).toMatchObject({ patient: "create" });
    expect(liveOrders(s.emulator).length).toBe(1);
    expect(s.emulator.snapshot().map((o) => o.domainName)).toEqual(["patient.example.com"]);
  });

  test("with the emulator's rate limit on, a 20-VPS up completes with the documented settings; at retryLimit 0 it fails", async () => {
    const programDir = writeYamlProgram("native-rate-limit", fleetProgram(20));
    s = await startNativeScenario(programDir, {
      emulator: { rateLimit: { requests: 5, windowSeconds: 1 } },
      // docs/installation-configuration.md, "Retries and pace": a pace a little under the quota (4 a second for 5),
      // and 5 retries.
      config: { "rimuhosting:retryLimit": "5", "rimuhosting:requestsPerSecond": "4" },
    });
    const up = await s.stack.up();
    expect(Object.values(nativeOps(up)).filter((op) => op === "create")).toHaveLength(20);
    expect(liveOrders(s.emulator)).toHaveLength(20);
    // The pace kept every request of the run under the quota.
    expect(s.emulator.requestLog().filter((entry) => entry.status === 429)).toEqual([]);

    // No retries and no pace: 20 more VPSs ordered at once go past the quota, and the run fails saying which settings
    // cope with the limit. What it did order, its state holds.
    await s.stack.setConfigs({ "rimuhosting:retryLimit": "0" });
    await s.stack.cli.removeConfig("rimuhosting:requestsPerSecond");
    fs.writeFileSync(
      path.join(programDir, "Pulumi.yaml"),
      fs
        .readFileSync(path.join(programDir, "Pulumi.yaml"), "utf8")
        .replace(/resources:[\s\S]*$/, fleetProgram(40)),
    );
    const failure = await s.stack.up().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DeploymentError);
    expect((failure as Error).message).toContain(
      "RimuHosting limits how many requests an API key may make (429 Too Many Requests",
    );
    // With retryLimit 0, a request refused once is not sent again.
    expect((failure as Error).message).toContain(
      "the only attempt was refused: raise rimuhosting:retryLimit",
    );
    // Some of the 20 were ordered before the quota ran out, none twice, and the state holds exactly the live orders.
    const live = liveOrders(s.emulator).map((order) => String(order.orderOid));
    expect(live.length).toBeGreaterThan(20);
    expect(live.length).toBeLessThan(40);
    const state = JSON.parse(await s.stack.exportState()) as {
      deployment: { resources: { type: string; id?: string }[] };
    };
    const held = state.deployment.resources
      .filter((r) => r.type === "rimuhosting:index:Vps")
      .map((r) => r.id);
    expect(held.sort()).toEqual(live.sort());
    // The documented settings again, for the teardown's deletes.
    await s.stack.setConfigs({ "rimuhosting:retryLimit": "5", "rimuhosting:requestsPerSecond": "4" });
  });
});
