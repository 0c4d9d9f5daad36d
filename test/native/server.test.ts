/**
 * L3: the real native plugin (dist/provider/native/main.js, as bin/pulumi-resource-rimuhosting starts it),
 * driven over gRPC as the engine drives it, against the emulator: every RPC it serves, and what the native
 * front end adds to the shared lifecycle (secret envelopes, creationScope from the URN, detailed diffs,
 * previews through the protocol's preview flag, messages attached to the resource, the Read of an import).
 */
import { rejectionOf } from "../helpers/promises";
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { DEMO_ACCOUNTS, DEMO_API_KEY } from "../../emulator/index";
import { createClient } from "../../provider/client/index";
import { useEmulator } from "../helpers/use-emulator";
import { ProviderRpcError } from "../helpers/provider-client";
import { ROOT, startNativePlugin, vpsUrn, type NativePlugin } from "./plugin-client";

const emulator = useEmulator({ seed: 21 });
const SIG = pulumi.runtime.specialSigKey;
const SECRET = pulumi.runtime.specialSecretSig;
const UNKNOWN = pulumi.runtime.unknownValue;
const secret = (value: unknown) => ({ [SIG]: SECRET, value });
const PROVIDER_URN = "urn:pulumi:dev::native-l3::pulumi:providers:rimuhosting::default";

let plugin: NativePlugin;
beforeAll(async () => {
  // No key or URL from the environment: what the plugin uses must come from Configure.
  plugin = await startNativePlugin({ env: { RIMUHOSTING_APIKEY: "", RIMUHOSTING_BASEURL: "" } });
  const configured = await plugin.configure({ apiKey: secret(DEMO_API_KEY), baseUrl: emulator().baseUrl });
  expect(configured).toEqual({ acceptSecrets: true, supportsPreview: true });
});
afterAll(async () => {
  await plugin?.close();
});

const inputs = (extra: Record<string, unknown> = {}) => ({
  domainName: "native-l3.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  memoryMb: 1024,
  ...extra,
});

const rejection = (promise: Promise<unknown>): Promise<ProviderRpcError> =>
  rejectionOf(promise, ProviderRpcError);

const messagesAbout = (urn: string) => plugin.messages.filter((m) => m.urn === urn);

describe("the native plugin over gRPC (L3)", () => {
  it("GetPluginInfo and GetSchema: the package's version and the generated schema", async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(await plugin.getPluginInfo()).toBe(pkg.version);
    const served = JSON.parse(await plugin.getSchema()) as Record<string, unknown>;
    expect(served).toEqual(
      JSON.parse(fs.readFileSync(path.join(ROOT, "provider/native/schema.json"), "utf8")),
    );
    expect(served).toMatchObject({ name: "rimuhosting", version: pkg.version });
  });

  it("CheckConfig keeps the API key secret, refuses a bad baseUrl and an unknown key by name; DiffConfig never replaces", async () => {
    const good = await plugin.checkConfig(PROVIDER_URN, {
      apiKey: "123456",
      baseUrl: emulator().baseUrl,
      version: "0.1.0",
    });
    expect(good.failures).toEqual([]);
    expect(good.inputs.apiKey).toEqual(secret("123456"));

    // No failure names its property: the engine would print the property's value with it, secret or not.
    const bad = await plugin.checkConfig(PROVIDER_URN, { baseUrl: "ftp://nowhere", apikey: "123456" });
    expect(bad.failures.map((f) => f.property)).toEqual(["", ""]);
    expect(bad.failures.map((f) => f.reason).sort()).toEqual([
      expect.stringMatching(
        /^\[RIMU_ERR_CONFIG\] rimuhosting:apikey is not a setting of this provider; the settings are rimuhosting:apiKey, rimuhosting:baseUrl, rimuhosting:monthlyBudgetUsd/,
      ),
      expect.stringMatching(
        /^\[RIMU_ERR_CONFIG\] rimuhosting:baseUrl must be an http\(s\) URL.*set it with `pulumi config set rimuhosting:baseUrl <url>`/,
      ),
    ]);
    expect(JSON.stringify(bad.failures)).not.toContain("123456");

    // An explicit provider's failures name it and its argument.
    const alices = await plugin.checkConfig(
      "urn:pulumi:dev::native-l3::pulumi:providers:rimuhosting::alice",
      { baseUrl: "ftp://nowhere" },
    );
    expect(alices.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^\[RIMU_ERR_CONFIG\] provider 'alice': baseUrl must be an http\(s\) URL.*set the baseUrl argument of provider 'alice'/,
        ),
      },
    ]);

    // A YAML program reads a config value of digits as a number (and loses digits): the failure says to quote it,
    // shows none of it, and the number is not handed back to be stored.
    const numeric = await plugin.checkConfig(PROVIDER_URN, { apiKey: 38475619203847564e15 });
    expect(numeric.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/rimuhosting:apiKey arrived as a number, not as text.*--secret/),
      },
    ]);
    expect(numeric.failures[0]!.reason).not.toMatch(/\d{3}/);
    expect(numeric.inputs.apiKey).toBeUndefined();

    // The budget's settings: amounts as numbers or numeric text, 0 or more; enforce or warn; each named.
    const budget = await plugin.checkConfig(PROVIDER_URN, {
      monthlyBudgetUsd: "25.50",
      maxMonthlyIncreaseUsd: 10,
      budgetEnforcement: "warn",
    });
    expect(budget.failures).toEqual([]);
    const badBudget = await plugin.checkConfig(
      "urn:pulumi:dev::native-l3::pulumi:providers:rimuhosting::alice",
      { monthlyBudgetUsd: -1, maxMonthlyIncreaseUsd: "ten", budgetEnforcement: "block" },
    );
    expect(badBudget.failures.map((f) => f.reason)).toEqual([
      expect.stringMatching(
        /^\[RIMU_ERR_CONFIG\] provider 'alice': monthlyBudgetUsd must be a number of US dollars a month, 0 or more, such as 50 \(given: -1\)/,
      ),
      expect.stringMatching(/provider 'alice': maxMonthlyIncreaseUsd must be a number .*\(given: "ten"\)/),
      expect.stringMatching(
        /provider 'alice': budgetEnforcement must be enforce .* or warn .*\(given: "block"\)/,
      ),
    ]);

    const rotated = await plugin.diffConfig(PROVIDER_URN, { apiKey: secret("1") }, { apiKey: secret("2") });
    expect(rotated).toMatchObject({ changes: "some", replaces: [], diffs: ["apiKey"] });
    const same = await plugin.diffConfig(PROVIDER_URN, { apiKey: secret("1") }, { apiKey: "1" });
    expect(same).toMatchObject({ changes: "none", replaces: [] });
  });

  it("Check: creationScope from the URN, secrets unwrapped for impl and kept secret, failures per input with their code", async () => {
    const urn = vpsUrn("web", "shop", "prod");
    const checked = await plugin.check(urn, {}, inputs({ password: secret("a-long-password-1") }));
    expect(checked.failures).toEqual([]);
    // What the dynamic Vps class sends: <project>/<stack>/<name>.
    expect(checked.inputs.creationScope).toBe("shop/prod/web");
    expect(checked.inputs.password).toEqual(secret("a-long-password-1"));
    expect(typeof checked.inputs.__creationNonce).toBe("string");

    const invalid = await plugin.check(urn, {}, inputs({ memoryMb: -5, runningState: "OFF", memorymb: 3 }));
    // One coded line per failure, the input named in the reason (as on the dynamic path): the engine then prints
    // no value of its own notation next to it (docs/errors.md).
    expect(invalid.failures.map((f) => f.property)).toEqual(["", "", ""]);
    const reasons = invalid.failures.map((f) => f.reason);
    expect(reasons).toContainEqual(expect.stringMatching(/^\[RIMU_ERR_VALIDATION\] memoryMb: /));
    expect(reasons).toContainEqual(expect.stringMatching(/^\[RIMU_ERR_VALIDATION\] runningState: /));
    expect(reasons).toContainEqual(
      expect.stringMatching(/^\[RIMU_ERR_VALIDATION\] memorymb: .*did you mean memoryMb/),
    );

    const preview = await plugin.check(urn, {}, inputs({ hostServerOid: UNKNOWN }));
    expect(preview.failures).toEqual([]);
  });

  it("a resource type the plugin does not have is refused with an error naming it, and the plugin serves on", async () => {
    const other = "urn:pulumi:dev::native-l3::rimuhosting:index:Dns::web";
    const refused = await rejection(plugin.check(other, {}, inputs()));
    expect(refused.details).toBe(
      "rimuhosting has no resource type rimuhosting:index:Dns; its resource is rimuhosting:index:Vps.",
    );
    expect((await plugin.check(vpsUrn("web"), {}, inputs())).failures).toEqual([]);
  });

  it("Create, Diff, Update, Read, Delete: the shared lifecycle, with previews through the protocol's preview flag", async () => {
    const urn = vpsUrn("life");
    const checked = await plugin.check(urn, {}, inputs());

    // A preview Create orders nothing, quotes the price, and answers unknown for what the service decides.
    const ordersBefore = emulator().snapshot().length;
    const planned = await plugin.create(urn, checked.inputs, { preview: true });
    expect(planned.id).toBe("");
    expect(planned.properties).toMatchObject({
      domainName: "native-l3.example.com",
      memoryMb: 1024,
      orderOid: UNKNOWN,
      primaryIp: UNKNOWN,
    });
    expect(emulator().snapshot()).toHaveLength(ordersBefore);
    expect(messagesAbout(urn).map((m) => m.message)).toContainEqual(
      expect.stringMatching(/life: new VPS: \$\d+\.\d\d a month \(quoted/),
    );

    const created = await plugin.create(urn, checked.inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({
      orderOid: Number(created.id),
      creationScope: "native-l3/dev/life",
      runningState: "RUNNING",
    });
    // The generated root password leaves as a secret (the engine stores it encrypted).
    expect(created.properties.password).toMatchObject({ [SIG]: SECRET, value: expect.any(String) });
    expect(created.properties).not.toHaveProperty("__provider");
    // The create, the resize and the delete each say the VPS in one line, its fee included (amounts as $N).
    const said = (since: number) =>
      plugin.messages
        .slice(since)
        .filter((m) => m.urn === urn && m.message.includes(`Vps ${created.id}:`))
        .map((m) => m.message.trim().replace(/\$\d+\.\d\d/g, "$N"));
    const vps = `[rimuhosting] Vps ${created.id}`;
    expect(said(0)).toEqual([`${vps}: ordered native-l3.example.com, billed $N a month.`]);

    const none = await plugin.diff(created.id, urn, created.properties, checked.inputs);
    expect(none).toMatchObject({ changes: "none", replaces: [], detailedDiff: {} });
    const resize = await plugin.diff(created.id, urn, created.properties, {
      ...checked.inputs,
      memoryMb: 2048,
    });
    expect(resize).toMatchObject({ changes: "some", replaces: [], detailedDiff: { memoryMb: "update" } });
    const replace = await plugin.diff(created.id, urn, created.properties, {
      ...checked.inputs,
      dcLocation: "DCLONDON",
      memoryMb: 2048,
    });
    expect(replace).toMatchObject({
      changes: "some",
      replaces: ["dcLocation"],
      detailedDiff: { dcLocation: "update-replace", memoryMb: "update" },
    });
    // A setting is the update's to record, so it is listed; an order-only input it cannot apply is not.
    const setting = await plugin.diff(created.id, urn, created.properties, {
      ...checked.inputs,
      allowReinstall: true,
      metaData: { team: "ops" },
    });
    expect(setting).toMatchObject({ changes: "some", replaces: [] });
    expect(setting.detailedDiff).toEqual({ allowReinstall: "add" });

    // Diff says what the change does and costs (the restart and the price, attached to the resource), and a
    // preview Update answers with the outputs it makes unknown; nothing changes.
    const resizedPreview = await plugin.update(
      created.id,
      urn,
      created.properties,
      { ...checked.inputs, memoryMb: 2048 },
      { preview: true },
    );
    expect(resizedPreview.properties).toMatchObject({
      memoryMb: 2048,
      primaryIp: created.properties.primaryIp,
      monthlyFeeUsd: UNKNOWN,
    });
    const warnings = messagesAbout(urn)
      .filter((m) => m.severity === "warning")
      .map((m) => m.message);
    expect(warnings).toContainEqual(expect.stringMatching(/resizing memoryMb restarts the VPS/));
    expect(messagesAbout(urn).map((m) => m.message)).toContainEqual(
      expect.stringMatching(/resize 1024 → 2048 MB: \$[\d.]+ → \$[\d.]+ a month/),
    );
    const live = await createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator().baseUrl }).getOrder(
      Number(created.id),
    );
    expect(live.about_order.vps_parameters?.memory_mb).toBe(1024);

    // A move: Diff's warning says the addresses change; the preview Update makes them unknown.
    await plugin.diff(created.id, urn, created.properties, { ...checked.inputs, hostServerOid: "h-new" });
    const moved = await plugin.update(
      created.id,
      urn,
      created.properties,
      { ...checked.inputs, hostServerOid: "h-new" },
      { preview: true },
    );
    expect(moved.properties).toMatchObject({
      hostServerOid: "h-new",
      primaryIp: UNKNOWN,
      secondaryIps: UNKNOWN,
    });
    expect(
      messagesAbout(urn)
        .filter((m) => m.severity === "warning")
        .map((m) => m.message),
    ).toContainEqual(expect.stringMatching(/moving to host server h-new changes its IP addresses/));

    const beforeUpdate = plugin.messages.length;
    const updated = await plugin.update(created.id, urn, created.properties, {
      ...checked.inputs,
      memoryMb: 2048,
    });
    expect(updated.properties).toMatchObject({ memoryMb: 2048, password: created.properties.password });
    expect(said(beforeUpdate)).toEqual([
      `${vps}: resized memoryMb, which restarts the VPS; the monthly fee went from $N to $N (+$N), as RimuHosting reported.`,
    ]);

    const refreshed = await plugin.read(created.id, urn, updated.properties, updated.properties);
    expect(refreshed).toMatchObject({ id: created.id, properties: { memoryMb: 2048 } });
    expect(refreshed.inputs).toMatchObject({ memoryMb: 2048, creationScope: "native-l3/dev/life" });

    const beforeDelete = plugin.messages.length;
    await plugin.delete(created.id, urn, updated.properties);
    await plugin.delete(created.id, urn, updated.properties);
    expect(said(beforeDelete)).toEqual([
      `${vps}: shut down and cancelled, no longer billed (it was billed $N a month); RimuHosting credited $N for the unused time.`,
    ]);
    expect(
      emulator()
        .snapshot()
        .find((o) => String(o.orderOid) === created.id),
    ).toMatchObject({ cancelled: true });
    expect((await plugin.read(created.id, urn, updated.properties, updated.properties)).id).toBe("");
  });

  it("Read with no recorded state (pulumi import) returns every input the service reports, so a Diff against them is empty", async () => {
    // An order placed outside Pulumi.
    const placed = await emulator().api<{ post_new_vps_response: { about_order: { order_oid: number } } }>(
      "POST",
      "/orders/new-vps",
      {
        new_order_request: {
          instantiation_options: { domain_name: "outside.example.com", distro: "deb12.64" },
          vps_parameters: { memory_mb: 2048, disk_space_mb: 20480 },
          dc_location: "DCDALLAS",
        },
      },
    );
    expect(placed.status).toBe(200);
    const oid = String(placed.body.post_new_vps_response.about_order.order_oid);
    const urn = vpsUrn("imported");
    const read = await plugin.read(oid, urn);
    expect(read.id).toBe(oid);
    expect(read.inputs).toMatchObject({
      domainName: "outside.example.com",
      distro: "deb12.64",
      dcLocation: "DCDALLAS",
      memoryMb: 2048,
      diskSpaceMb: 20480,
      runningState: "RUNNING",
    });
    // What the engine then does: Check the imported inputs, and on the next preview Diff the program's.
    const checked = await plugin.check(urn, read.inputs!, read.inputs!);
    expect(checked.failures).toEqual([]);
    expect(await plugin.diff(oid, urn, read.properties, checked.inputs)).toMatchObject({ changes: "none" });
    await plugin.delete(oid, urn, read.properties);
  });

  it("a refresh's Diff names an input the program marked secret without its value", async () => {
    const urn = vpsUrn("drifted");
    // The engine keeps the program's secret mark on the checked inputs it records.
    const program = inputs({
      domainName: "drifted.example.com",
      memoryMb: secret(1024),
      runningState: "RUNNING",
    });
    const checked = await plugin.check(urn, {}, program);
    expect(checked.failures).toEqual([]);
    const recorded = { ...checked.inputs, memoryMb: secret(1024) };
    const created = await plugin.create(urn, recorded);
    const byHand = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator().baseUrl });
    await byHand.changeParameters(Number(created.id), { memory_mb: 2048 });
    await byHand.setRunningState(Number(created.id), "NOTRUNNING");
    byHand.close();
    const refreshed = await plugin.read(created.id, urn, created.properties, recorded);
    plugin.messages.length = 0;
    await plugin.diff(created.id, urn, refreshed.properties, recorded);
    const said = messagesAbout(urn).map((m) => m.message);
    expect(said).toEqual([
      expect.stringMatching(
        /^drifted: changed outside Pulumi: memoryMb, runningState RUNNING → NOTRUNNING, monthlyFeeUsd [\d.]+ → [\d.]+\.$/,
      ),
    ]);
    await plugin.delete(created.id, urn, refreshed.properties);
  });

  it("a failure after the order exists reaches the engine as ErrorResourceInitFailed, with the outputs marked secret", async () => {
    emulator().injectFault({ route: "setRunningState", kind: "status", status: 400 });
    const urn = vpsUrn("half");
    const checked = await plugin.check(
      urn,
      {},
      inputs({ domainName: "half.example.com", runningState: "NOTRUNNING" }),
    );
    const error = await rejection(plugin.create(urn, checked.inputs));
    expect(error.initFailure).toBeDefined();
    const failure = error.initFailure!;
    expect(failure.id).toMatch(/^\d+$/);
    expect(error.details).toMatch(
      new RegExp(`VPS order ${failure.id} \\(half\\.example\\.com\\) was created`),
    );
    expect(error.details).not.toMatch(/\n\s+at /);
    expect(failure.properties).toMatchObject({ orderOid: Number(failure.id), runningState: "RUNNING" });
    expect(failure.properties.password).toMatchObject({ [SIG]: SECRET });
    expect(failure.properties).not.toHaveProperty("__provider");
    // The next `pulumi up` runs Update on what was recorded, and finishes the job.
    const resumed = await plugin.update(failure.id, urn, failure.properties, checked.inputs);
    expect(resumed.properties).toMatchObject({ runningState: "NOTRUNNING" });
    await plugin.delete(failure.id, urn, resumed.properties);
  });

  it("Invoke: the data sources as functions, with the provider's configuration and their clean errors", async () => {
    const plans = await plugin.invoke("rimuhosting:index:getPricingPlans", { dcLocation: "DCDALLAS" });
    expect((plans.plans as unknown[]).length).toBeGreaterThan(0);
    expect(
      (plans.plans as { dcLocation?: string }[]).every(
        (p) => p.dcLocation === undefined || p.dcLocation === "DCDALLAS",
      ),
    ).toBe(true);
    // Billing methods need the key: the configured one (demo's), not the environment's (empty).
    const billing = await plugin.invoke("rimuhosting:index:getBillingMethods", {});
    expect((billing.billingMethods as unknown[]).length).toBeGreaterThan(0);

    const bad = await rejection(plugin.invoke("rimuhosting:index:getOrder", { orderOid: -1 }));
    expect(bad.details).toMatch(/^\[RIMU_ERR_INVALID_INPUT\] getOrder: orderOid must be an order oid/);
    const unknown = await rejection(plugin.invoke("rimuhosting:index:getNothing", {}));
    expect(unknown.details).toMatch(
      /rimuhosting has no function rimuhosting:index:getNothing; its functions are .*getPricingPlans/,
    );
  });

  it("two plugin processes configured for two accounts each order in their own account", async () => {
    const alice = DEMO_ACCOUNTS.find((a) => a.name === "alice")!;
    const other = await startNativePlugin({ env: { RIMUHOSTING_APIKEY: "", RIMUHOSTING_BASEURL: "" } });
    try {
      await other.configure({ apiKey: secret(alice.apiKey), baseUrl: emulator().baseUrl });
      const urn = vpsUrn("alices");
      const checked = await other.check(urn, {}, inputs({ domainName: "alice.example.com" }));
      const created = await other.create(urn, checked.inputs);
      const order = emulator()
        .snapshot()
        .find((o) => String(o.orderOid) === created.id);
      expect(order).toMatchObject({ account: "alice" });
      // The first plugin (demo's key) cannot see it.
      expect((await plugin.read(created.id, urn, created.properties, created.properties)).id).toBe("");
      await other.delete(created.id, urn, created.properties);
    } finally {
      await other.close();
    }
  });

  it("secrets never reach the engine's log or the plugin's output", async () => {
    const canary = "CANARY-native-pw-9c1e";
    const urn = vpsUrn("canary");
    const checked = await plugin.check(
      urn,
      {},
      inputs({ domainName: "canary.example.com", password: secret(canary) }),
    );
    const created = await plugin.create(urn, checked.inputs);
    await plugin.delete(created.id, urn, created.properties);
    const said = `${JSON.stringify(plugin.messages)}\n${plugin.stderr()}`;
    expect(said).not.toContain(canary);
    expect(said).not.toContain(DEMO_API_KEY);
  });
});
