/**
 * The native plugin loads what a call needs when the call first comes (provider/native/server.ts, issue 34): the
 * engine's first call (GetPluginInfo) is answered with gRPC and its own two messages (service-definition.ts), GetSchema
 * with the protocol's stubs; the configuration and the Vps lifecycle (calls.ts) come with the first call about them; the functions, and with them
 * @pulumi/pulumi's runtime, with the first Invoke, which still uses the configuration Configure gave.
 *
 * The built plugin runs as bin/ starts it, with a `--require` that writes down each module file as Node loads it.
 * A second plugin runs with a `--require` that makes calls.js fail to load: each call that needs it is answered with
 * a clean error, and the plugin stays up.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { ProviderRpcError } from "../helpers/provider-client";
import { rejectionOf } from "../helpers/promises";
import { useEmulator } from "../helpers/use-emulator";
import { startNativePlugin, type NativePlugin } from "./plugin-client";

const emulator = useEmulator({ seed: 34 });
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "lazy-loading-"));
const loadedFile = path.join(scratch, "loaded.txt");
const probe = path.join(scratch, "probe.js");
fs.writeFileSync(
  probe,
  `const Module = require("node:module");
const fs = require("node:fs");
const load = Module.prototype.load;
Module.prototype.load = function (filename) {
  fs.appendFileSync(${JSON.stringify(loadedFile)}, filename + "\\n");
  return load.call(this, filename);
};
`,
);

const breakCalls = path.join(scratch, "break-calls.js");
fs.writeFileSync(
  breakCalls,
  `const Module = require("node:module");
const load = Module.prototype.load;
Module.prototype.load = function (filename) {
  if (filename.endsWith("/provider/native/calls.js")) throw new Error("calls.js is broken for this test");
  return load.call(this, filename);
};
`,
);

/** The module files the plugin has loaded so far, relative to the checkout's root. */
const loaded = (): string[] =>
  fs
    .readFileSync(loadedFile, "utf8")
    .trim()
    .split("\n")
    .map((file) => path.relative(path.resolve(__dirname, "../.."), file).split(path.sep).join("/"));

const PULUMI_RUNTIME = /^node_modules\/@pulumi\/pulumi\/(?!proto\/)/;
const has = (files: string[], file: string | RegExp) =>
  files.some((f) => (typeof file === "string" ? f === file : file.test(f)));

let plugin: NativePlugin;
beforeAll(async () => {
  plugin = await startNativePlugin({
    env: {
      NODE_OPTIONS: `--require ${probe}`,
      // What the plugin uses must come from Configure.
      RIMUHOSTING_APIKEY: "",
      RIMUHOSTING_BASEURL: "",
    },
  });
});
afterAll(async () => {
  await plugin?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The messages of the calls after the first (the other calls' stubs, and the engine's), loaded with those calls. */
const LATER_MESSAGES =
  /^node_modules\/@pulumi\/pulumi\/proto\/(provider|provider_grpc|engine|engine_grpc|status)_pb\.js$/;

describe("the native plugin loads a call's code with the first call that needs it", () => {
  it("GetPluginInfo, the engine's first call: gRPC and its own two messages, not the other calls' messages", async () => {
    expect(await plugin.getPluginInfo()).toMatch(/^\d+\.\d+\.\d+/);
    const files = loaded();
    expect(has(files, /^node_modules\/@grpc\/grpc-js\//)).toBe(true);
    expect(has(files, "node_modules/@pulumi/pulumi/proto/plugin_pb.js")).toBe(true);
    expect(files.filter((f) => LATER_MESSAGES.test(f))).toEqual([]);
  });

  it("GetSchema: only gRPC and the protocol's stubs, none of the calls' code", async () => {
    expect(JSON.parse(await plugin.getSchema())).toMatchObject({ name: "rimuhosting" });
    const files = loaded();
    expect(has(files, "node_modules/@pulumi/pulumi/proto/provider_pb.js")).toBe(true);
    expect(has(files, "dist/provider/native/server.js")).toBe(true);
    expect(has(files, /^node_modules\/@grpc\/grpc-js\//)).toBe(true);
    const notYet = [
      "dist/provider/native/calls.js",
      "dist/provider/native/vps-resource.js",
      "dist/provider/native/provider-config.js",
      "dist/provider/native/functions.js",
    ];
    expect(
      files.filter((f) => notYet.includes(f) || PULUMI_RUNTIME.test(f) || f.startsWith("node_modules/zod/")),
    ).toEqual([]);
  });

  it("CheckConfig and Configure: the configuration and the Vps, still not the functions nor @pulumi/pulumi", async () => {
    const checked = await plugin.checkConfig("urn:pulumi:dev::lazy::pulumi:providers:rimuhosting::default", {
      baseUrl: emulator().baseUrl,
    });
    expect(checked.failures).toEqual([]);
    await plugin.configure({ apiKey: DEMO_API_KEY, baseUrl: emulator().baseUrl });
    const files = loaded();
    expect(has(files, "dist/provider/native/calls.js")).toBe(true);
    expect(has(files, "dist/provider/native/vps-resource.js")).toBe(true);
    expect(files.filter((f) => f === "dist/provider/native/functions.js" || PULUMI_RUNTIME.test(f))).toEqual(
      [],
    );
  });

  it("the first Invoke loads the functions, which use the configuration Configure gave before they were loaded", async () => {
    // Billing methods need the API key: the configured one, since the environment's is empty.
    const billing = await plugin.invoke("rimuhosting:index:getBillingMethods", {});
    expect((billing.billingMethods as unknown[]).length).toBeGreaterThan(0);
    const files = loaded();
    expect(has(files, "dist/provider/native/functions.js")).toBe(true);
    expect(has(files, PULUMI_RUNTIME)).toBe(true);
  });
});

describe("a lazily loaded module that fails to load", () => {
  let broken: NativePlugin;
  beforeAll(async () => {
    broken = await startNativePlugin({ env: { NODE_OPTIONS: `--require ${breakCalls}` } });
  });
  afterAll(async () => {
    await broken?.close();
  });

  it("each call that needs it is answered with a clean error, and the plugin stays up", async () => {
    const PROVIDER_URN = "urn:pulumi:dev::lazy::pulumi:providers:rimuhosting::default";
    const expected =
      "pulumi-resource-rimuhosting could not load its Vps code: calls.js is broken for this test";
    const first = await rejectionOf(broken.checkConfig(PROVIDER_URN, {}), ProviderRpcError);
    expect(first.details).toBe(expected);
    const later = await rejectionOf(broken.configure({ apiKey: DEMO_API_KEY }), ProviderRpcError);
    expect(later.details).toBe(expected);
    expect(await broken.getPluginInfo()).toMatch(/^\d+\.\d+\.\d+/);
    expect(broken.stderr()).not.toMatch(/\n\s+at /);
  });
});
