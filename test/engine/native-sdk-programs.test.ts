// The SDK packages of the release (tools/release/sdk-packages.ts builds them into dist/release; ensureRelease builds it
// once for all the release's tests, test/engine/release-support.ts), each installed as a user installs it, running the
// quickstart of its language from examples/ through the real CLI against the emulator: with the pages' `pulumi config
// set memoryMb 2048`, the preview (a data source as a provider function, then the VPS) plans the VPS with 2048 MB.
// Once through the CLI (CPU, issue 67): the same examples on the same packages go up and are destroyed in
// test/engine/first-hour-release.test.ts (each language page's try-it), and a resize in place is the plugin's, the same
// for every language (through the CLI: native-yaml.test.ts; in-process: test/provider/impl/vps-lifecycle.test.ts);
// what only this file shows is that each example reads `memoryMb` from the stack config. TypeScript: the npm tarball
// unpacked into the example's
// node_modules as npm puts it, @pulumi/pulumi, typescript and @types/node linked at the lockfile's versions
// (unpackIntoProject; npm 12 installs the tarball in first-hour-release.test.ts's try-it); Python:
// the wheel pip-installed into a fresh virtual environment; Go: the module as the sdk/v<version> tag will hold it.
// The plugin is this checkout's (test/engine/native-programs.ts); the download is relbin's test.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packedTarball, unpackIntoProject } from "../package/support/offline-project";
import { previewJson } from "./budget-support";
import type { Scenario } from "./e2e-support";
import { findLanguageHosts } from "../../tools/release/language-hosts";
import { pythonVenvWith, useGoModule } from "./language-programs";
import {
  copyExample,
  describeNative,
  goSdkAsTagged,
  languageSkipReason,
  NATIVE_VPS_TYPE,
  startNativeScenario,
} from "./native-programs";
import { ensureRelease, RELEASE_SDK, releaseBuildSkipReason } from "./release-support";

// The Go host builds the program with `go build`: minutes the first time on a cold Go build cache.
jest.setTimeout(900_000);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "native-sdk-programs-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The page's `pulumi config set memoryMb 2048`, then the preview: the VPS planned with 2048 MB, nothing ordered. */
async function previewWithMemory(s: Scenario): Promise<void> {
  await s.stack.setConfig("memoryMb", { value: "2048" });
  const mark = s.mark();
  const steps = await previewJson(s, NATIVE_VPS_TYPE);
  expect(
    Object.fromEntries(
      Object.entries(steps).map(([name, step]) => [name, [step.op, step.newState?.inputs?.memoryMb]]),
    ),
  ).toEqual({ web: ["create", 2048] });
  expect(steps.web!.newState?.inputs?.plannedMonthlyFeeUsd).toBeGreaterThan(0);
  expect(s.mutationsSince(mark)).toEqual([]);
}

/** Runs the example program prepared in `dir` (removed afterwards) through previewWithMemory. */
async function runExample(dir: string, env: Record<string, string> = {}): Promise<void> {
  const s = await startNativeScenario(dir, { env });
  try {
    await previewWithMemory(s);
  } finally {
    await s.close();
  }
}

describeNative("go", "examples/go-quickstart on the Go SDK module as tagged", () => {
  test("memoryMb 2048 in the stack config: the preview plans the VPS with it", async () => {
    const dir = copyExample("go-quickstart");
    await runExample(dir, await useGoModule(dir, goSdkAsTagged(path.join(scratch, "go"))));
  });
});

describeNative(
  "python",
  "examples/python-quickstart on the release's wheel",
  () => {
    test("memoryMb 2048 in the stack config: the preview plans the VPS with it", async () => {
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
    test("memoryMb 2048 in the stack config: the preview plans the VPS with it", async () => {
      await ensureRelease();
      const packed = packedTarball(RELEASE_SDK.npmTarball);
      const dir = copyExample("typescript-quickstart");
      unpackIntoProject(dir, packed, ["@pulumi/pulumi", "typescript", "@types/node"]);
      await runExample(dir);
    });
  },
  languageSkipReason("nodejs") ?? releaseBuildSkipReason(),
);
