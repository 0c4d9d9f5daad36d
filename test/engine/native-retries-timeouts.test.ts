// Through the real CLI, on the native plugin (YAML): the engine's customTimeouts as the default of the provider's own
// time limits, and the retry and pace settings against the emulator's rate limit. In-process, the same rules are
// tested in test/provider/impl/time-limits.test.ts and retries-and-pace.test.ts; here only what needs the engine: that
// it sends customTimeouts with each Create, and that the stack config's settings reach the plugin's client.
import * as fs from "node:fs";
import * as path from "node:path";
import { DeploymentError, type OperationResult } from "./steps";
import { liveOrders, type Scenario } from "./e2e-support";
import {
  NATIVE_VPS_TYPE,
  describeNative,
  nativeOps,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";

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

  test("with the emulator's rate limit on and no pace, a 20-VPS up completes on retryLimit 5 alone; at 0 it fails", async () => {
    const programDir = writeYamlProgram("native-rate-limit", fleetProgram(20));
    s = await startNativeScenario(programDir, {
      // A quota of 8 requests per 3 s: at least the engine's 8 parallel creates, so that a request refused in one
      // window is served in the next (one retry each); a long window, so that the run's 22 requests certainly go
      // past it.
      emulator: { rateLimit: { requests: 8, windowSeconds: 3 }, control: true },
      // docs/installation-configuration.md, "Retries and pace": 5 retries, and no pace, so only the retries bring
      // the run through (the pace alone is shown in-process, test/provider/impl/retries-and-pace.test.ts).
      config: { "rimuhosting:retryLimit": "5" },
    });
    const up = await s.stack.up();
    expect(Object.values(nativeOps(up)).filter((op) => op === "create")).toHaveLength(20);
    // Requests were refused with 429 and sent again: every VPS ordered exactly once.
    expect(s.emulator.requestLog().filter((entry) => entry.status === 429).length).toBeGreaterThan(0);
    expect(orderedDomains(s)).toEqual(fleetDomains(20));
    const firstIds = createdIds(up);

    // The same kind of run, the retry limit alone changed: 20 more VPSs at retryLimit 0 go past the quota, and the
    // run fails saying which settings cope with the limit. Nothing is ordered twice, and the engine recorded every
    // order it made.
    await s.stack.setConfigs({ "rimuhosting:retryLimit": "0" });
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
    const ordered = orderedDomains(s);
    expect(ordered.length).toBeGreaterThan(20);
    expect(ordered.length).toBeLessThan(40);
    expect(new Set(ordered).size).toBe(ordered.length);
    const live = liveOrders(s.emulator).map((order) => String(order.orderOid));
    expect([...firstIds, ...createdIds((failure as DeploymentError).result)].sort()).toEqual(live.sort());
    // The teardown's deletes are not under test: the quota off.
    await setRateLimit(s, { requests: null });
  });
});

/** Sets the emulator's rate limit over its control API (docs/emulator.md, "Rate limit"). */
async function setRateLimit(scenario: Scenario, limit: { requests: number | null; windowSeconds?: number }) {
  const response = await fetch(scenario.emulator.baseUrl.replace(/\/r$/, "/__emulator/rate-limit"), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(limit),
  });
  expect(response.status).toBe(200);
}

/** vps1.example.com … vps<count>.example.com, sorted. */
const fleetDomains = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `vps${i + 1}.example.com`).sort();

/** The domain names of the account's orders, one entry per order, sorted. */
const orderedDomains = (scenario: Scenario): string[] =>
  scenario.emulator
    .snapshot()
    .map((order) => order.domainName)
    .sort();

/** The ids (order numbers) of the VPSs an operation created. */
const createdIds = (result: OperationResult): string[] =>
  result.steps
    .filter((step) => step.type === NATIVE_VPS_TYPE && step.op === "create" && !step.failed && step.id)
    .map((step) => step.id!);
