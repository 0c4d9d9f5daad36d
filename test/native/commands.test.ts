// The plugin's own commands (provider/native/subcommands.ts): which first arguments are a command, and
// `pulumi-resource-rimuhosting emulator` run as a checkout (bin/) and the launcher tarball (`npm run plugin:pack`)
// run it, as real processes (`npm run build` first). The release's self-contained executable runs it in
// test/engine/release-emulator.test.ts.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO_API_KEY } from "../../emulator/index";
import { bundlePlugin, packPlugin } from "../../provider/native/pack";
import { commandOf, withoutEngineFlags } from "../../provider/native/subcommands";
import { answersAsTheEmulator, startEmulatorCommand } from "../helpers/emulator-command";
import { rejectionOf } from "../helpers/promises";
import { ProviderRpcError } from "../helpers/provider-client";
import { useEmulator } from "../helpers/use-emulator";
import { ROOT, startNativePlugin, vpsUrn } from "./plugin-client";

jest.setTimeout(120_000);

const BIN = path.join(ROOT, "bin/pulumi-resource-rimuhosting");

/** The emulator command of plugin `executable` answers a client: GET /r/distributions. */
async function servesDistributions(executable: string): Promise<void> {
  const emulator = await startEmulatorCommand(executable, [
    "emulator",
    "--port",
    "0",
    "--time-scale",
    "0.05",
  ]);
  try {
    await answersAsTheEmulator(emulator);
  } finally {
    expect(await emulator.stop()).toBe(0);
  }
}

const run = (file: string, args: string[]) =>
  promisify(execFile)(file, args, { timeout: 30_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? "",
    }),
  );

describe("the plugin's first argument", () => {
  test("the engine's address is the provider; a command's name is that command, after any flags of the engine", () => {
    expect(commandOf(["127.0.0.1:34567"])).toBeUndefined();
    expect(commandOf([])).toBeUndefined();
    expect(commandOf(["emulator", "--port", "0"])).toMatchObject({ name: "emulator", args: ["--port", "0"] });
    expect(
      commandOf(["--logtostderr", "-v=9", "--tracing", "127.0.0.1:1", "emulator", "--quiet"]),
    ).toMatchObject({
      name: "emulator",
      args: ["--quiet"],
    });
    expect(commandOf(["emulater"])).toEqual({ unknown: "emulater" });
  });

  test("under `pulumi --logflow` the engine's address comes after its logging flags, and the provider takes it", () => {
    expect(withoutEngineFlags(["127.0.0.1:34567"])[0]).toBe("127.0.0.1:34567");
    expect(withoutEngineFlags(["--logtostderr", "-v=9", "127.0.0.1:34567"])[0]).toBe("127.0.0.1:34567");
    expect(withoutEngineFlags(["--logtostderr", "--tracing", "file:/tmp/t", "127.0.0.1:34567"])[0]).toBe(
      "127.0.0.1:34567",
    );
  });
});

describe("pulumi-resource-rimuhosting emulator", () => {
  test("a checkout's bin/ runs the emulator, banner first, and a client gets /r/distributions", async () => {
    await servesDistributions(BIN);
  });

  test("a bad flag exits 2 with the usage under the plugin's name; an unknown command exits 2 naming the commands", async () => {
    const bad = await run(BIN, ["emulator", "--time-scale", "fast"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "pulumi-resource-rimuhosting emulator: --time-scale must be a number, not 'fast'",
    );
    expect(bad.stderr).toContain("Usage: pulumi-resource-rimuhosting emulator [options]");
    const typo = await run(BIN, ["emulater"]);
    expect(typo).toMatchObject({ code: 2, stdout: "" });
    expect(typo.stderr).toMatch(
      /^pulumi-resource-rimuhosting: unknown command 'emulater'. Its commands: emulator, bill, drift, import-file, killed-orders /,
    );
  });

  describe("the launcher tarball", () => {
    const emulator = useEmulator();
    let dir: string;
    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-commands-"));
      const tarball = await packPlugin(dir);
      await promisify(execFile)("tar", ["-xzf", tarball, "-C", dir]);
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    test("runs the emulator from its own bundle beside the plugin's", async () => {
      expect(fs.existsSync(path.join(dir, "emulator.js"))).toBe(true);
      await servesDistributions(path.join(dir, "pulumi-resource-rimuhosting"));
    });

    test("@pulumi/pulumi rides beside the plugin's bundle, not in it, and loads with the first Invoke", async () => {
      // its automation API's class names: in its own bundle, pulumi.js, and none in the plugin's
      const pulumiMark = /LocalWorkspace|ConcurrentUpdateError/;
      expect(pulumiMark.exec(fs.readFileSync(path.join(dir, "provider.js"), "utf8"))?.[0]).toBeUndefined();
      expect(pulumiMark.exec(fs.readFileSync(path.join(dir, "pulumi.js"), "utf8"))?.[0]).toBeDefined();
      const plugin = await startNativePlugin({
        script: path.join(dir, "provider.js"),
        env: { RIMUHOSTING_APIKEY: "", RIMUHOSTING_BASEURL: "" },
      });
      try {
        await plugin.configure({ apiKey: DEMO_API_KEY, baseUrl: emulator().baseUrl });
        // the functions, which use it (their errors are pulumi.RunError's), answer from the launcher's bundle
        const { distributions } = await plugin.invoke("rimuhosting:index:getDistributions", {});
        expect((distributions as { code: string }[]).map((d) => d.code)).toContain("deb12.64");
        const bad = await rejectionOf(
          plugin.invoke("rimuhosting:index:getOrder", { orderOid: -1 }),
          ProviderRpcError,
        );
        expect(bad.details).toMatch(/^\[RIMU_ERR_INVALID_INPUT\] getOrder: orderOid/);
        // The part brings its own copy of the protocol's stubs and google-protobuf, which register themselves
        // on the global object again: the Vps's calls still encode and decode their messages after it loaded.
        const urn = vpsUrn("after-invoke");
        const inputs = { domainName: "after-invoke.example.com", dcLocation: "DCDALLAS", memoryMb: 1024 };
        expect((await plugin.check(urn, {}, { ...inputs, memoryMb: -5 })).failures).toEqual([
          expect.objectContaining({
            reason: expect.stringMatching(/^\[RIMU_ERR_VALIDATION\] memoryMb: must be/),
          }),
        ]);
        const checked = await plugin.check(urn, {}, inputs);
        expect(checked.failures).toEqual([]);
        const created = await plugin.create(urn, checked.inputs);
        expect(created.properties).toMatchObject({ domainName: "after-invoke.example.com", memoryMb: 1024 });
        const diff = await plugin.diff(created.id, urn, created.properties, {
          ...checked.inputs,
          memoryMb: 2048,
        });
        expect(diff.diffs).toContain("memoryMb");
        await plugin.delete(created.id, urn, created.properties);
      } finally {
        await plugin.close();
      }
    });

    test("without pulumi.js the plugin starts and serves the Vps: @pulumi/pulumi is not loaded before an Invoke", async () => {
      const bare = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-without-pulumi-"));
      try {
        fs.copyFileSync(path.join(dir, "provider.js"), path.join(bare, "provider.js"));
        const plugin = await startNativePlugin({
          script: path.join(bare, "provider.js"),
          env: { RIMUHOSTING_APIKEY: "", RIMUHOSTING_BASEURL: "" },
        });
        try {
          expect(await plugin.getPluginInfo()).toMatch(/^\d+\.\d+\.\d+/);
          await plugin.configure({ apiKey: DEMO_API_KEY, baseUrl: emulator().baseUrl });
          const inputs = { domainName: "no-sdk.example.com", dcLocation: "DCDALLAS" };
          expect((await plugin.check(vpsUrn("no-sdk"), {}, inputs)).failures).toEqual([]);
          const failed = await rejectionOf(
            plugin.invoke("rimuhosting:index:getDistributions", {}),
            ProviderRpcError,
          );
          expect(failed.details).toMatch(/could not load its data sources/);
        } finally {
          await plugin.close();
        }
      } finally {
        fs.rmSync(bare, { recursive: true, force: true });
      }
    });

    test("the plugin's bundle holds none of the emulator: its start-up does not load it", async () => {
      const bundle = path.join(dir, "again.js");
      await bundlePlugin(bundle);
      const text = fs.readFileSync(bundle, "utf8");
      // fastify's error codes, and the emulator's banner
      const emulatorMark = /FST_ERR_\w+|RimuHosting emulator listening/;
      expect(emulatorMark.exec(text)?.[0]).toBeUndefined();
      expect(emulatorMark.exec(fs.readFileSync(path.join(dir, "emulator.js"), "utf8"))?.[0]).toBeDefined();
    });
  });
});
