/**
 * The frames a Vps lets the SDK record at registration (provider/vps-registration.ts): the SDK's constructors and the
 * Vps class's (it skips a fixed number of them), then the user's frames; not the program runner's frames under the
 * user's code. test/engine/state-size.test.ts checks the same through the real CLI.
 */
import * as path from "node:path";
import { framesToRecord, trimRegistrationStacks } from "../../provider/vps-registration";

const SDK = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const CLASS_FILE = "/app/node_modules/pulumi-rimuhosting/dist/provider/vps.js";

/** Enough of a V8 CallSite for framesToRecord. */
const frame = (file: string | null) => ({ getFileName: () => file }) as unknown as NodeJS.CallSite;

describe("framesToRecord", () => {
  it("keeps the SDK's constructors, the class's and the user's frames, drops the runner's", () => {
    const frames = [
      frame(path.join(SDK, "resource.js")), // Resource.callsites
      frame(path.join(SDK, "resource.js")), // Resource.stackTrace
      frame(path.join(SDK, "resource.js")), // new Resource
      frame(path.join(SDK, "resource.js")), // new CustomResource
      frame(CLASS_FILE), // new Vps
      frame("/app/fleet.ts"), // the user's helper
      frame(path.join(SDK, "output.js")), // an apply between user frames stays
      frame("/app/index.ts"), // the program
      frame("node:internal/modules/cjs/loader"),
      frame(path.join(SDK, "vendor/ts-node@7.0.1/index.js")),
      frame(null),
      frame(path.join(SDK, "cmd/run/run.js")),
    ];
    expect(framesToRecord(frames).map((f) => f.getFileName())).toEqual([
      path.join(SDK, "resource.js"),
      path.join(SDK, "resource.js"),
      path.join(SDK, "resource.js"),
      path.join(SDK, "resource.js"),
      CLASS_FILE,
      "/app/fleet.ts",
      path.join(SDK, "output.js"),
      "/app/index.ts",
    ]);
  });
});

describe("trimRegistrationStacks", () => {
  it("captures no frames for the SDK's promise stacks until restored, then restores both settings", () => {
    const limit = Error.stackTraceLimit;
    const prepare = Error.prepareStackTrace;
    const restore = trimRegistrationStacks();
    try {
      expect(new Error("inside").stack).toBe("Error: inside");
    } finally {
      restore();
    }
    expect(Error.stackTraceLimit).toBe(limit);
    expect(Error.prepareStackTrace).toBe(prepare);
    expect(new Error("outside").stack?.split("\n").length).toBeGreaterThan(1);
  });

  it("keeps the frames when PULUMI_DEBUG_PROMISE_LEAKS asks for the leak report's stacks", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    const restore = trimRegistrationStacks();
    try {
      expect(new Error("inside").stack?.split("\n").length).toBeGreaterThan(1);
    } finally {
      restore();
      delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    }
  });
});
