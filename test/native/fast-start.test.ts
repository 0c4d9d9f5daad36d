// What keeps the plugin's first answer fast (provider/native/fast-start.ts): the IPv6 test that skips Node's large
// pattern for an address with no colon must answer as Node's does, and be the one gRPC calls once the server is up;
// the warm-up that runs while the startup snapshot is made must answer GetPluginInfo and leave nothing behind that a
// snapshot cannot hold (a socket, a server, a timer), or the release build aborts; the port is announced before the
// HTTP/2 server is made, and the engine watch asks its first question after a pause, not at once. (That the port
// goes out without building process.stdout's stream is port-line.test.ts: it starts the built plugin, and this file
// starts no process, so that `npm run test:unit` runs it.) Also: the engine's Log client is made with the first
// message, not as the plugin starts, and where Node has net.BoundSocket the port is bound without a DNS lookup.
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as pluginproto from "@pulumi/pulumi/proto/plugin_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as net from "node:net";
import { stopWatchingEngine } from "../../provider/impl/engine/engine-watch";
import { compileFirstAnswer, ipv6TestSkippingIPv4 } from "../../provider/native/fast-start";
import { startPluginLog } from "../../provider/native/engine-log";
import { firstAnswerParts, loopbackPort, serve } from "../../provider/native/server";
import { standInEngine } from "../../bench/stand-in-engine";
import { until } from "../helpers/promises";

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

const getPluginInfo = (port: number): Promise<pluginproto.PluginInfo> => {
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise<pluginproto.PluginInfo>((resolve, reject) =>
    client.getPluginInfo(new Empty(), (error, info) => (error ? reject(error) : resolve(info))),
  ).finally(() => client.close());
};

describe("announcing the port", () => {
  it("announces it before the HTTP/2 server is made, and answers a call made at once", async () => {
    // What happened, in order: gRPC's connection injector is what makes the HTTP/2 server (and, in the release's
    // executable, loads Node's http2 stack, which its snapshot cannot hold).
    const order: string[] = [];
    const original = grpc.Server.prototype.createConnectionInjector;
    const spied = jest.spyOn(grpc.Server.prototype, "createConnectionInjector").mockImplementation(function (
      this: grpc.Server,
      credentials,
    ) {
      order.push("HTTP/2 server made");
      return original.call(this, credentials);
    });
    let answered: Promise<pluginproto.PluginInfo> | undefined;
    const served = await serve(undefined, (port) => {
      order.push(`port ${port} announced`);
      // The engine calls as soon as it reads the port: this connection may arrive before the hand-over.
      answered = getPluginInfo(port);
    });
    try {
      expect(order).toEqual([`port ${served.port} announced`, "HTTP/2 server made"]);
      expect((await answered!).getVersion()).toMatch(/^\d+\.\d+\.\d+/);
    } finally {
      spied.mockRestore();
      await served.close();
    }
  });
});

/** `check` with the plugin served, given a stand-in engine's address; `asked` lists the engine's health checks. */
async function withWatchedPlugin(check: (port: number, asked: string[]) => Promise<void>): Promise<void> {
  const asked: string[] = [];
  const engine = await standInEngine(() => asked.push("engine asked"));
  const served = await serve(engine.address);
  try {
    await check(served.port, asked);
  } finally {
    stopWatchingEngine();
    await served.close();
    await engine.close();
  }
}

const firstQuestion = (asked: string[]) =>
  until("the engine watch's first question", () => asked.includes("engine asked"), { timeoutMs: 10_000 });

describe("the engine watch's first question", () => {
  it("is asked after the plugin answered the engine's first call, not before", () =>
    withWatchedPlugin(async (port, order) => {
      order.push(`answered ${(await getPluginInfo(port)).getVersion()}`);
      await firstQuestion(order);
      expect(order[0]).toMatch(/^answered \d/);
    }));

  it("is asked after one pause when no call comes", () =>
    withWatchedPlugin(async (_port, asked) => {
      await firstQuestion(asked);
    }));
});

describe("the engine's Log client", () => {
  it("is made with the first message, not as the plugin starts", async () => {
    const engine = await standInEngine();
    // Making a gRPC client asks for its credentials first: the count of clients made.
    const clientsMade = jest.spyOn(grpc.credentials, "createInsecure");
    const log = startPluginLog(engine.address);
    try {
      expect(clientsMade).not.toHaveBeenCalled();
      log.log("info", "first");
      log.log("info", "second");
      await log.flush();
      expect(clientsMade).toHaveBeenCalledTimes(1);
    } finally {
      clientsMade.mockRestore();
      log.close();
      await engine.close();
    }
  });
});

describe("the port the plugin listens on", () => {
  /** Runs `check` with node:net's BoundSocket set to `value` (undefined: none, as before Node 26). */
  function withBoundSocket(value: unknown, check: () => void): void {
    const netModule = require("node:net") as { BoundSocket?: unknown };
    const had = "BoundSocket" in netModule;
    const original = netModule.BoundSocket;
    if (value === undefined) delete netModule.BoundSocket;
    else netModule.BoundSocket = value;
    try {
      check();
    } finally {
      if (had) netModule.BoundSocket = original;
      else delete netModule.BoundSocket;
    }
  }

  it("is a socket bound on 127.0.0.1 where Node has net.BoundSocket", () => {
    const bound: unknown[] = [];
    class BoundSocket {
      constructor(options: unknown) {
        bound.push(options);
      }
    }
    withBoundSocket(BoundSocket, () => expect(loopbackPort()).toBeInstanceOf(BoundSocket));
    expect(bound).toEqual([{ host: "127.0.0.1", port: 0 }]);
  });

  it("is port 0 of 127.0.0.1 where Node has no net.BoundSocket", () => {
    withBoundSocket(undefined, () => expect(loopbackPort()).toEqual({ port: 0, host: "127.0.0.1" }));
  });
});
