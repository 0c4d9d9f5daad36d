// What keeps the plugin's first answer fast (provider/native/fast-start.ts): the IPv6 test that skips Node's large
// pattern for an address with no colon must answer as Node's does, and be the one gRPC calls once the server is up;
// the warm-up that runs while the startup snapshot is made must answer GetPluginInfo and leave nothing behind that a
// snapshot cannot hold (a socket, a server, a timer), or the release build aborts.
import * as net from "node:net";
import { compileFirstAnswer, ipv6TestSkippingIPv4 } from "../../provider/native/fast-start";
import { firstAnswerParts, serve } from "../../provider/native/server";

const handles = (): string[] => process.getActiveResourcesInfo().filter((kind) => kind !== "TTYWrap");

const INPUTS: unknown[] = [
  "127.0.0.1",
  "0.0.0.0",
  "localhost",
  "",
  "::",
  "::1",
  "::ffff:127.0.0.1",
  "fe80::1%eth0",
  "2001:db8::8a2e:370:7334",
  "2001:db8:::1",
  "1:2:3:4:5:6:7:8:9",
  "[::1]",
  "not:an:address",
  undefined,
  null,
  12,
  { toString: () => "::1" },
];

describe("the IPv6 test gRPC calls", () => {
  it("answers every input as Node's net.isIPv6 does", () => {
    const original = (net.isIPv6 as { full?: (s: string) => boolean }).full ?? net.isIPv6;
    const skipping = ipv6TestSkippingIPv4(original);
    for (const input of INPUTS)
      expect([input, skipping(input as string)]).toEqual([input, original(input as string)]);
  });

  it("leaves an address with no colon out of Node's pattern", () => {
    const asked: string[] = [];
    const skipping = ipv6TestSkippingIPv4((input) => (asked.push(input), net.isIPv6(input)));
    expect([skipping("127.0.0.1"), skipping("::1")]).toEqual([false, true]);
    expect(asked).toEqual(["::1"]);
  });

  it("is net.isIPv6 once the server is up", async () => {
    const served = await serve(undefined);
    try {
      expect(typeof (net.isIPv6 as { full?: unknown }).full).toBe("function");
    } finally {
      await served.close();
    }
  });
});

describe("compiling the first answer into the snapshot", () => {
  it("answers GetPluginInfo without a socket and leaves no handle open", async () => {
    const before = handles();
    await expect(compileFirstAnswer(...firstAnswerParts())).resolves.toBeUndefined();
    expect(handles()).toEqual(before);
  });
});
