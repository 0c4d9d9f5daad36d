/**
 * The frames a Vps lets the SDK record at registration (provider/vps-registration.ts): the SDK's constructors and the
 * Vps class's (it skips a fixed number of them), then the user's frames; not the program runner's frames under the
 * user's code. test/engine/state-size.test.ts checks the same through the real CLI. The frames the SDK skips are
 * not given to the program's source-map hook (ts-node's in a TypeScript program): the SDK records the same.
 */
import * as path from "node:path";
import { Resource } from "@pulumi/pulumi";
import { framesTheSdkSkips, framesToRecord, trimRegistrationStacks } from "../../provider/vps-registration";

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

/**
 * What the SDK's Resource constructor records, called as it is: Resource.stackTrace(4) under three constructors
 * (Resource, CustomResource, the resource class), below the caller's frame.
 */
const asResourceRecords = () => newResource();
const newResource = () => newCustomResource();
const newCustomResource = () => newVps();
type Recorded = ({ uri: string; line: number; column: number } | undefined)[];
/** The SDK's own capture (private in its typings; the Resource constructor calls it). */
const sdkResource = Resource as unknown as { stackTrace(skip: number): Recorded };
const newVps = () => sdkResource.stackTrace(4);

/** What the SDK records, called from one place, with or without the trimming. */
function recorded(trim: boolean): Recorded {
  const restore = trim ? trimRegistrationStacks() : () => undefined;
  try {
    return asResourceRecords();
  } finally {
    restore();
  }
}

describe("the frames the SDK skips", () => {
  it("are the five at the top of the SDK's capture, and none of any other stack", () => {
    const seen: NodeJS.CallSite[][] = [];
    const prepare = Error.prepareStackTrace;
    Error.prepareStackTrace = (_error, frames) => {
      seen.push(frames);
      return "";
    };
    try {
      asResourceRecords();
      void new Error("another").stack;
    } finally {
      Error.prepareStackTrace = prepare;
    }
    expect(seen.map(framesTheSdkSkips)).toEqual([5, 0]);
    expect(seen[0]![0]!.getFunctionName()).toBe("callsites");
  });

  it("reach the program's hook only as V8 writes them; the SDK records the same positions", () => {
    const mapped: (string | null)[] = [];
    const prepare = Error.prepareStackTrace;
    // A source-map hook as ts-node's: it writes every frame it is given (here, without changing it).
    Error.prepareStackTrace = (error, frames) => {
      mapped.push(...frames.map((f) => f.getFunctionName()));
      return [`${error.name}: ${error.message}`, ...frames.map((f) => `    at ${f}`)].join("\n");
    };
    try {
      // Both from one place; `mapped` keeps what the second, trimmed, gave the hook.
      const [untrimmed, trimmed] = [false, true].map((trim) => {
        mapped.length = 0;
        return recorded(trim);
      });
      expect(mapped).not.toContain("callsites");
      expect(mapped).not.toContain("newVps");
      expect(mapped[0]).toBe("asResourceRecords");
      // The caller's position and those under it, but for the program runner's frames trimmed at the bottom.
      expect(trimmed![0]?.uri).toMatch(/vps-registration\.test\.ts$/);
      expect(trimmed).toEqual(untrimmed!.slice(0, trimmed!.length));
    } finally {
      Error.prepareStackTrace = prepare;
    }
  });
});
