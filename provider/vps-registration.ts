/**
 * What the Pulumi SDK does with stack traces while a Vps registers, made cheap and small.
 *
 * Registering a resource captures stack traces twice over (docs/benchmarks.md has the figures):
 *
 * - Four promises per property (about 35 properties per Vps), each with a stack trace kept only for
 *   the SDK's promise-leak report, which prints them only when `PULUMI_DEBUG_PROMISE_LEAKS` is set.
 *   Formatting them (through ts-node's source maps in a TypeScript program) was most of a Vps's
 *   registration time, so they are captured without frames unless that variable is set.
 * - One full stack, which the engine stores in the resource's state (`sourcePosition` and
 *   `stackTrace`). The SDK skips a fixed number of frames, expecting Resource > CustomResource > the
 *   resource's class > user code, which is the Vps's hierarchy (it extends CustomResource, not
 *   dynamic.Resource, whose extra class once made the position recorded this package's own `super()`
 *   line). Below the user's code come a dozen frames of the program runner (ts-node, Node's module
 *   loader, the SDK's `cmd/run`): about 700 bytes per Vps, none of which a user can act on. Those
 *   trailing runner frames are left out, so the state records where the program declared the VPS and
 *   the user's frames above it. The frames the SDK skips (its own and the class's constructor) are written
 *   as V8 gives them, not through the program's source maps (ts-node maps every frame: 0.2 ms a Vps, for lines
 *   the SDK throws away).
 */
import * as path from "node:path";

/** Where the SDK is installed (undefined: not found): trailing frames in it are the program runner's. */
const SDK_DIRECTORY: string | undefined = sdkDirectoryOf();
function sdkDirectoryOf(): string | undefined {
  try {
    return path.dirname(require.resolve("@pulumi/pulumi/package.json")) + path.sep;
  } catch {
    return undefined;
  }
}

/** A frame of Node itself (the module loader, timers) or of native code. */
function isNodeInternal(file: string | null | undefined): boolean {
  return !file || file.startsWith("node:") || !file.includes(path.sep);
}

/**
 * The frames to keep: all but, at the bottom, the run of frames that belong to Node or to the SDK (the
 * program runner). The frames from the SDK's constructors down to the resource class's stay, because the
 * SDK skips a fixed number of them.
 */
export function framesToRecord(frames: NodeJS.CallSite[]): NodeJS.CallSite[] {
  const sdk = SDK_DIRECTORY;
  let end = frames.length;
  while (end > 0) {
    const file = frames[end - 1]!.getFileName();
    if (!isNodeInternal(file) && !(sdk && file!.startsWith(sdk))) break;
    end--;
  }
  return frames.slice(0, end);
}

/**
 * The frames at the top of the stack the SDK's Resource constructor captures that it skips: `Resource.callsites`,
 * `Resource.stackTrace`, `new Resource`, `new CustomResource` and the resource class's constructor (its
 * `Resource.stackTrace(4)` drops those five lines). Zero for any other stack.
 */
export function framesTheSdkSkips(frames: readonly NodeJS.CallSite[]): number {
  const top = frames[0];
  const sdk = SDK_DIRECTORY;
  const file = top?.getFileName();
  const isCapture = !!sdk && !!file?.startsWith(sdk) && top!.getFunctionName() === "callsites";
  return isCapture && frames.length >= 5 ? 5 : 0;
}

/** V8's own text of a stack, which a prepareStackTrace hook replaces. */
const plainStack = (error: Error, frames: readonly NodeJS.CallSite[]): string =>
  [String(error), ...frames.map((f) => `    at ${f}`)].join("\n");

/**
 * Trims the SDK's stack traces as described above until the returned function is called: around a
 * resource constructor's `super()` call, in a `finally`.
 */
export function trimRegistrationStacks(): () => void {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  if (!process.env.PULUMI_DEBUG_PROMISE_LEAKS) Error.stackTraceLimit = 0;
  Error.prepareStackTrace = (error, frames) => {
    const kept = framesToRecord(frames);
    if (!prepare) return plainStack(error, kept);
    const skipped = framesTheSdkSkips(kept);
    if (skipped === 0) return prepare(error, kept);
    // The hook's text of the frames the SDK keeps, with V8's lines of the skipped ones after its first line.
    const header = prepare(error, []);
    const mapped = prepare(error, kept.slice(skipped));
    if (!mapped.startsWith(header)) return prepare(error, kept);
    const skippedLines = kept.slice(0, skipped).map((f) => `\n    at ${f}`);
    return header + skippedLines.join("") + mapped.slice(header.length);
  };
  return () => {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  };
}
