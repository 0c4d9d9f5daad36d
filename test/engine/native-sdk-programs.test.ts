// The SDK packages of the release (tools/release/sdk-packages.ts builds them into dist/release; ensureRelease builds it
// once for all the release's tests, test/engine/release-support.ts), each installed as a user installs it, running the
// quickstart of its language from examples/ through the real CLI against the emulator: up (a data source as a
// provider function, then the VPS) and a resize, each example's `memoryMb` config. Their `pulumi destroy` is run by
// test/engine/first-hour-release.test.ts (each language page's try-it: the same examples on the same packages), so
// the stacks here are left to the emulator's end. TypeScript: the npm tarball unpacked into the example's
// node_modules as npm puts it, @pulumi/pulumi, typescript and @types/node linked at the lockfile's versions
// (unpackIntoProject; npm 12 installs the tarball in first-hour-release.test.ts's try-it); Python:
// the wheel pip-installed into a fresh virtual environment; Go: the module as the sdk/v<version> tag will hold it.
// The plugin is this checkout's (test/engine/native-programs.ts); the download is relbin's test.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packedTarball, unpackIntoProject } from "../package/support/offline-project";
import { liveOrders, type Scenario } from "./e2e-support";
import { findLanguageHosts } from "../../tools/release/language-hosts";
import { pythonVenvWith, useGoModule } from "./language-programs";
import {
  copyExample,
  describeNative,
  goSdkAsTagged,
  languageSkipReason,
  nativeOps,
  startNativeScenario,
} from "./native-programs";
import { ensureRelease, RELEASE_SDK, releaseBuildSkipReason } from "./release-support";

// The Go host builds the program with `go build`: minutes the first time on a cold Go build cache.
jest.setTimeout(900_000);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "native-sdk-programs-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** up and a resize: what each SDK program must get through. */
async function upAndResize(s: Scenario): Promise<void> {
  const created = await s.stack.up();
  expect(nativeOps(created)).toEqual({ web: "create" });
  const oid = created.outputs.orderOid as number;
  expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([oid]);
  expect(created.outputs.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  expect(created.outputs.monthlyPriceUsd).toBeGreaterThan(0);
  expect(JSON.stringify(created.outputs.rootPassword)).toContain("[secret]");

  await s.stack.setConfig("memoryMb", { value: "2048" });
  const resized = await s.stack.up();
  expect(nativeOps(resized)).toEqual({ web: "update" });
  expect((await s.client.getOrder(oid)).about_order.vps_parameters?.memory_mb).toBe(2048);
  expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([oid]);
}

/** Runs the example program prepared in `dir` (removed afterwards) through upAndResize. */
async function runExample(dir: string, env: Record<string, string> = {}): Promise<void> {
  const s = await startNativeScenario(dir, { env });
  try {
    await upAndResize(s);
  } finally {
    await s.close();
  }
}

describeNative("go", "examples/go-quickstart on the Go SDK module as tagged", () => {
  test("up, resize", async () => {
    const dir = copyExample("go-quickstart");
    await runExample(dir, await useGoModule(dir, goSdkAsTagged(path.join(scratch, "go"))));
  });
});

describeNative(
  "python",
  "examples/python-quickstart on the release's wheel",
  () => {
    test("up, resize", async () => {
      await ensureRelease();
      const dir = copyExample("python-quickstart");
      const python = await pythonVenvWith(
        path.join(dir, "venv"),
        RELEASE_SDK.wheel,
        findLanguageHosts().hosts!,
      );
      await runExample(dir, { PULUMI_PYTHON_CMD: python });
    });
  },
  languageSkipReason("python") ?? releaseBuildSkipReason(),
);

describeNative(
  "nodejs",
  "examples/typescript-quickstart on the release's Node.js SDK npm tarball",
  () => {
    test("up, resize", async () => {
      await ensureRelease();
      const packed = packedTarball(RELEASE_SDK.npmTarball);
      const dir = copyExample("typescript-quickstart");
      unpackIntoProject(dir, packed, ["@pulumi/pulumi", "typescript", "@types/node"]);
      await runExample(dir);
    });
  },
  languageSkipReason("nodejs") ?? releaseBuildSkipReason(),
);
