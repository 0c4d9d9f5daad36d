/**
 * L3: the real `@pulumi/pulumi/cmd/dynamic-provider` host, started as the engine starts it (argv engine
 * address, cwd = program directory, PULUMI_NODEJS_PROJECT, PULUMI_CONFIG with rimuhosting:apiKey and
 * rimuhosting:baseUrl) and driven over gRPC with the SDK's own stubs. The provider text is the one
 * dynamic.Resource would store (serialized in a child process from dist/; needs `npm run build`).
 */
import { EventEmitter } from "node:events";
import { execFile } from "node:child_process";
import { readFileSync, readdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { createClient } from "../../provider/client/index";
import { startEmulator, DEMO_API_KEY, type RunningEmulator } from "../../emulator/index";
import {
  startProviderHost,
  ProviderRpcError,
  type ProviderHost,
  type PropertyMap,
} from "../helpers/provider-host";
import { rejectionOf } from "../helpers/promises";

const ROOT = resolve(__dirname, "../..");
const URN = "urn:pulumi:dev::rimuhosting-l3::pulumi-nodejs:dynamic/rimuhosting:Vps::web";
const UNKNOWN = pulumi.runtime.unknownValue;

let emulator: RunningEmulator;
let host: ProviderHost;
let providerText: string;
let hostOutput = "";
/** Emits "output" for every chunk the host prints (stdout or stderr). */
const hostEvents = new EventEmitter();

/** Resolves once the host has printed `text` (an event: nothing is polled, no fixed wait). */
function hostPrinted(text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!hostOutput.includes(text)) return;
      hostEvents.off("output", check);
      resolve();
    };
    hostEvents.on("output", check);
    check();
  });
}
let dir: string;

beforeAll(async () => {
  emulator = await startEmulator({ timeScale: 0, seed: 13, validateResponses: true });
  dir = mkdtempSync(join(tmpdir(), "rimu-l3-"));
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.RIMUHOSTING_APIKEY;
  delete env.RIMUHOSTING_BASEURL;
  // Built JS on purpose: the provider text must be the one users' stacks store (serialized from the
  // compiled shim in a plain node child; jest's transform would change it), and the real host then
  // require()s pulumi-rimuhosting/impl, which is the built package.
  await promisify(execFile)(
    process.execPath,
    [join(ROOT, "dist/tools/serialize-provider.js"), join(dir, "p.js")],
    { cwd: ROOT, env },
  );
  providerText = readFileSync(join(dir, "p.js"), "utf8");
  const config = { "rimuhosting:apiKey": DEMO_API_KEY, "rimuhosting:baseUrl": emulator.baseUrl };
  host = await startProviderHost({
    cwd: ROOT,
    project: "rimuhosting-l3",
    config,
    env: { RIMUHOSTING_APIKEY: "", RIMUHOSTING_BASEURL: "", NODE_OPTIONS: "" },
    onOutput: (_stream, text) => {
      hostOutput += text;
      hostEvents.emit("output");
    },
  });
  const configured = await host.configure();
  expect(configured.acceptSecrets).toBe(false);
});
afterAll(async () => {
  await host?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const inputs = (extra: PropertyMap = {}): PropertyMap => ({
  domainName: "l3.example.com",
  distro: "deb12.64",
  dcLocation: "DCDALLAS",
  memoryMb: 1024,
  diskSpaceMb: 20480,
  creationScope: "l3-project/dev/web", // what the Vps class adds (project/stack/name)
  __provider: providerText,
  ...extra,
});

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, ProviderRpcError);

describe("the real dynamic-provider host (L3)", () => {
  it("Check: valid inputs pass (with __provider), invalid ones fail per field, unknowns never fail", async () => {
    const valid = await host.check(URN, {}, inputs());
    expect(valid.failures).toEqual([]);
    expect(valid.inputs).toMatchObject({ domainName: "l3.example.com", __provider: providerText });

    const invalid = await host.check(
      URN,
      {},
      inputs({ domainName: "nope", memoryMb: -5, runningState: "OFF" }),
    );
    // Each failure is one coded line naming the input, with no property: the engine then prints no value.
    expect(invalid.failures.map((f) => f.property)).toEqual(["", "", ""]);
    expect(invalid.failures.map((f) => f.reason.replace(/:.*/s, "")).sort()).toEqual([
      "[RIMU_ERR_VALIDATION] domainName",
      "[RIMU_ERR_VALIDATION] memoryMb",
      "[RIMU_ERR_VALIDATION] runningState",
    ]);
    expect(invalid.failures.find((f) => f.reason.includes("runningState"))?.reason).toMatch(
      /"RUNNING" or "NOTRUNNING" .*\(given: "OFF"\)/,
    );

    const preview = await host.check(URN, {}, inputs({ domainName: UNKNOWN, hostServerOid: UNKNOWN }));
    expect(preview.failures).toEqual([]);

    const reinstall = await host.check(URN, inputs(), inputs({ distro: "deb13.64" }));
    expect(reinstall.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^\[RIMU_ERR_CHANGE_REFUSED\] distro: .*allowReinstall: true/),
      },
    ]);
  });

  it("Create, Diff, Read, Update, Delete twice: the whole lifecycle through the host", async () => {
    const checked = await host.check(URN, {}, inputs());
    const created = await host.create(URN, checked.inputs);
    expect(created.id).toMatch(/^\d+$/);
    expect(created.properties).toMatchObject({
      orderOid: Number(created.id),
      domainName: "l3.example.com",
      runningState: "RUNNING",
      memoryMb: 1024,
      __provider: providerText,
    });
    expect(typeof created.properties.password).toBe("string");
    expect(typeof created.properties.primaryIp).toBe("string");

    const none = await host.diff(created.id, URN, created.properties, inputs());
    expect(none).toMatchObject({ changes: "none", replaces: [], deleteBeforeReplace: false });
    // creationScope is never a change (e.g. a stack renamed, or state from before it existed).
    const { creationScope: _omitted, ...unscoped } = inputs();
    for (const news of [inputs({ creationScope: "renamed/dev/web" }), unscoped]) {
      const scoped = await host.diff(created.id, URN, created.properties, news);
      expect(scoped).toMatchObject({ changes: "none", replaces: [], deleteBeforeReplace: false });
    }
    const some = await host.diff(created.id, URN, created.properties, inputs({ memoryMb: 2048 }));
    expect(some).toMatchObject({ changes: "some", replaces: [], deleteBeforeReplace: false });
    const replace = await host.diff(created.id, URN, created.properties, inputs({ dcLocation: "DCLONDON" }));
    expect(replace).toMatchObject({ changes: "some", replaces: ["dcLocation"], deleteBeforeReplace: false });
    // A refused change is reported by Check (once, per input) and refused by Update before any call;
    // Diff never throws (the host would print its text twice plus a JS stack).
    const refusedDiff = await host.diff(created.id, URN, created.properties, inputs({ distro: "deb13.64" }));
    expect(refusedDiff.changes).toBe("some");
    const refused = await rejection(
      host.update(created.id, URN, created.properties, inputs({ distro: "deb13.64" })),
    );
    expect(refused.details).toMatch(
      /^\[RIMU_ERR_CHANGE_REFUSED\] distro: changing distro from deb12\.64 to deb13\.64/,
    );
    expect(refused.details).not.toMatch(/\n\s+at /);

    // Drift made by hand shows up on refresh, in the properties and in the returned inputs.
    await emulatorClientStop(Number(created.id));
    const refreshed = await host.read(created.id, URN, created.properties, inputs());
    expect(refreshed.id).toBe(created.id);
    expect(refreshed.properties).toMatchObject({ runningState: "NOTRUNNING", __provider: providerText });
    // Inputs hand back only what the program set (plus creationScope and the nonce), so the next
    // preview lists no key that did not change; runningState and the password were not set.
    expect(refreshed.inputs).toMatchObject({
      memoryMb: 1024,
      creationScope: "l3-project/dev/web",
      __provider: providerText,
    });
    expect(refreshed.inputs).not.toHaveProperty("runningState");
    expect(refreshed.inputs).not.toHaveProperty("password");
    expect(refreshed.inputs).not.toHaveProperty("billingOid");

    // A Get-style read: no properties, only inputs carrying __provider (3.270 falls back to them).
    const got = await host.read(created.id, URN, {}, { __provider: providerText });
    expect(got.properties).toMatchObject({ orderOid: Number(created.id), domainName: "l3.example.com" });

    const updated = await host.update(
      created.id,
      URN,
      refreshed.properties,
      inputs({ memoryMb: 2048, runningState: "RUNNING" }),
    );
    expect(updated.properties).toMatchObject({
      memoryMb: 2048,
      runningState: "RUNNING",
      primaryIp: created.properties.primaryIp,
      password: created.properties.password,
      __provider: providerText,
    });

    await host.delete(created.id, URN, updated.properties);
    await host.delete(created.id, URN, updated.properties);
    expect(emulator.snapshot().find((o) => String(o.orderOid) === created.id)).toMatchObject({
      cancelled: true,
    });
    const gone = await host.read(created.id, URN, updated.properties, inputs());
    expect(gone.id).toBe("");
  });

  // The texts earlier versions stored, which every Vps of such a stack holds until its next update (a no-op `up`
  // renews only the inputs' copy; delete runs the outputs' copy): 0.1.0's seven methods calling
  // pulumi-rimuhosting/impl's exports by name; the SDK's closure serializer's require() of the shim by its path
  // (the package installed); the shim copied by value (the package linked).
  it.each([
    ["0.1.0's seven-method text", "provider-text-0.1.0.txt", "impl.check(olds, news)"],
    [
      "the serializer's require() of the shim by its path",
      "provider-text-shim-path.txt",
      "dist/provider/vps-shim.js",
    ],
    [
      "the serializer's copy of the shim (a linked package)",
      "provider-text-shim-linked.txt",
      'require("pulumi-rimuhosting/impl")',
    ],
  ])("a state stored with %s keeps working, served by this implementation", async (_what, file, marker) => {
    const oldText = readFileSync(join(__dirname, "fixtures", file), "utf8");
    expect(oldText).toContain(marker);
    expect(oldText).not.toBe(providerText);
    const old = (extra: PropertyMap = {}) =>
      inputs({ domainName: "l3-old.example.com", __provider: oldText, ...extra });
    const checked = await host.check(URN, {}, old());
    expect(checked.failures).toEqual([]);
    const created = await host.create(URN, checked.inputs);
    expect(created.properties).toMatchObject({ domainName: "l3-old.example.com", __provider: oldText });
    // The next `up` brings the new text in the inputs: never a change, never a replacement.
    const renewed = await host.diff(
      created.id,
      URN,
      created.properties,
      inputs({ domainName: "l3-old.example.com" }),
    );
    expect(renewed).toMatchObject({ changes: "none", replaces: [] });
    const refreshed = await host.read(created.id, URN, created.properties, old());
    expect(refreshed.properties).toMatchObject({ orderOid: Number(created.id), __provider: oldText });
    // An update stores the text it was given (the new one), so the state shrinks VPS by VPS.
    const updated = await host.update(
      created.id,
      URN,
      refreshed.properties,
      inputs({ domainName: "l3-old.example.com", memoryMb: 2048 }),
    );
    expect(updated.properties).toMatchObject({ memoryMb: 2048, __provider: providerText });
    // A destroy before any update runs the old text kept in the outputs.
    await host.delete(created.id, URN, refreshed.properties);
    expect(emulator.snapshot().find((o) => String(o.orderOid) === created.id)).toMatchObject({
      cancelled: true,
    });
  });

  it("a failure after the order exists reaches the engine as ErrorResourceInitFailed with the order id", async () => {
    emulator.injectFault({ route: "setRunningState", kind: "status", status: 400 });
    const error = await rejection(
      host.create(URN, inputs({ domainName: "l3-fail.example.com", runningState: "NOTRUNNING" })),
    );
    expect(error.initFailure).toBeDefined();
    const failure = error.initFailure!;
    expect(failure.id).toMatch(/^\d+$/);
    expect(error.details).toMatch(
      new RegExp(`VPS order ${failure.id} \\(l3-fail\\.example\\.com\\) was created`),
    );
    expect(failure.reasons).toEqual([error.details]);
    expect(failure.properties).toMatchObject({ orderOid: Number(failure.id), runningState: "RUNNING" });
    // The recorded properties carry __provider, so refresh and destroy can load the provider later.
    expect(failure.properties.__provider).toBe(providerText);
    const refreshed = await host.read(failure.id, URN, failure.properties, inputs());
    expect(refreshed.id).toBe(failure.id);
    expect(error.details).not.toContain(DEMO_API_KEY);
    expect(emulator.snapshot().find((o) => String(o.orderOid) === failure.id)).toMatchObject({
      cancelled: false,
    });

    // Next `pulumi up`: the engine runs Update on the recorded order, which finishes the job.
    const resumed = await host.update(
      failure.id,
      URN,
      { ...failure.properties, __provider: providerText },
      inputs({ domainName: "l3-fail.example.com", runningState: "NOTRUNNING" }),
    );
    expect(resumed.properties).toMatchObject({ orderOid: Number(failure.id), runningState: "NOTRUNNING" });
    await host.delete(failure.id, URN, resumed.properties);
  });

  it("secret inputs given as plain strings come back from Check as secrets, so the state's inputs hold them encrypted", async () => {
    const canary = {
      cloudConfig: "#cloud-config\n# CANARY-CLOUD-7f3a",
      files: [{ path: "/root/canary", content: "CANARY-FILE-7f3a" }],
      password: "CANARY-PW-7f3a-long",
    };
    const checked = await host.check(URN, {}, inputs({ domainName: "l3-secret.example.com", ...canary }));
    expect(checked.failures).toEqual([]);
    const sig = pulumi.runtime.specialSigKey;
    for (const [name, value] of Object.entries(canary)) {
      expect(checked.inputs[name]).toEqual({ [sig]: pulumi.runtime.specialSecretSig, value });
    }
    // The host hands create plain values again (it accepts no secrets); outputs carry them for the
    // engine, which marks them secret because the inputs of the same name are.
    const created = await host.create(URN, {
      ...checked.inputs,
      ...canary,
    });
    expect(created.properties.password).toBe(canary.password);
    const refreshed = await host.read(created.id, URN, created.properties, checked.inputs);
    for (const name of Object.keys(canary)) {
      expect(refreshed.inputs?.[name]).toMatchObject({ [sig]: pulumi.runtime.specialSecretSig });
    }
    await host.delete(created.id, URN, created.properties);
    for (const text of Object.values(canary).flatMap((v) =>
      typeof v === "string" ? [v] : [v[0]!.content],
    )) {
      expect(hostOutput).not.toContain(text);
    }
  });

  it("an error from Read or Delete is printed by the host once, as one line, without a JS stack", async () => {
    const before = hostOutput.length;
    const error = await rejection(host.delete("not-an-order", URN, inputs()));
    expect(error.details).toMatch(
      /^\[RIMU_ERR_INVALID_INPUT\] "not-an-order" is not a RimuHosting order oid/,
    );
    await hostPrinted(error.details);
    // A second failing call as a sentinel: once the host has printed its error, anything the first call
    // printed (a duplicate, a stack) has arrived too, since the host writes in order.
    const sentinel = await rejection(host.delete("not-an-order-either", URN, inputs()));
    await hostPrinted(sentinel.details);
    const printed = hostOutput.slice(before);
    expect(printed.split(error.details).length - 1).toBe(1);
    expect(printed).not.toMatch(/\n\s+at /);
    expect(printed).not.toContain("\u001b[");
  });

  it("writes Node's compile cache of this package as it loads it, before the engine kills the host", async () => {
    const cache = mkdtempSync(join(tmpdir(), "rimu-compile-cache-"));
    const config = { "rimuhosting:apiKey": DEMO_API_KEY, "rimuhosting:baseUrl": emulator.baseUrl };
    const killed = await startProviderHost({
      cwd: ROOT,
      project: "rimuhosting-l3",
      config,
      env: { RIMUHOSTING_APIKEY: "", RIMUHOSTING_BASEURL: "", NODE_OPTIONS: "", NODE_COMPILE_CACHE: cache },
    });
    try {
      await killed.configure();
      // The host configures the provider with the first call that carries its text.
      expect((await killed.check(URN, {}, inputs())).failures).toEqual([]);
      process.kill(killed.pid!, "SIGKILL"); // as the engine ends its provider hosts: no exit handler runs
      await killed.close();
      const written = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
      expect(written.length).toBeGreaterThan(0);
    } finally {
      await killed.close();
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it("never prints the API key or a password", () => {
    expect(hostOutput).not.toContain(DEMO_API_KEY);
    expect(hostOutput).toMatch(/\[rimuhosting\] Vps \d+: ordered l3\.example\.com/);
  });
});

/** Stops a VPS behind the provider's back, as a person in the control panel would. */
async function emulatorClientStop(oid: number): Promise<void> {
  const client = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
  try {
    await client.setRunningState(oid, "NOTRUNNING");
  } finally {
    client.close();
  }
}
