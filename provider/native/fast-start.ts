/**
 * What keeps the plugin's first answer (GetPluginInfo, the engine's first call) fast, beyond loading little
 * (issue 42: at most 50 ms from the spawn on linux-amd64, idle; docs/releasing.md gives the figures).
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type * as pluginproto from "@pulumi/pulumi/proto/plugin_pb";
import type { PluginLog } from "./engine-log.js";

type IPv6Test = ((input: string) => boolean) & { full?: (input: string) => boolean };

/**
 * `full` (Node's `net.isIPv6`), but answering false at once for a string with no colon: every IPv6 address in text
 * has at least two. gRPC asks it of 127.0.0.1 when it binds the port and again on each connection. Node answers
 * from one very large regular expression, which V8 compiles at its first use in every process (a startup snapshot
 * keeps no compiled expression): 2.6 ms of CPU of a start measured under load, within the noise idle
 * (docs/releasing.md). Every input gets the answer `full` gives.
 */
export function ipv6TestSkippingIPv4(full: (input: string) => boolean): IPv6Test {
  const test = (input: string) => (typeof input === "string" && !input.includes(":") ? false : full(input));
  return Object.assign(test, { full });
}

/** Puts ipv6TestSkippingIPv4 in place of `net.isIPv6` (gRPC calls it through the module object); once. */
export function skipIPv6PatternForIPv4(): void {
  const net = require("node:net") as { isIPv6: IPv6Test };
  if (!net.isIPv6.full) net.isIPv6 = ipv6TestSkippingIPv4(net.isIPv6);
}

/**
 * Runs once, with no socket, the code the engine's first call runs: a server given the service (as serve() does),
 * and GetPluginInfo's handler with its answer serialized. main.ts runs it while the release's linux-amd64 startup
 * snapshot is made, so the snapshot holds that code compiled instead of each start compiling it. Nothing is bound
 * and nothing is kept: a socket, server or timer left behind would abort the snapshot (test/native/fast-start.test.ts).
 */
export function compileFirstAnswer(
  definition: grpc.ServiceDefinition,
  service: (log: PluginLog) => grpc.UntypedServiceImplementation,
): Promise<void> {
  const quiet: PluginLog = { log() {}, flush: () => Promise.resolve(), close() {} };
  const implementation = service(quiet);
  new grpc.Server({ "grpc.enable_channelz": 0 }).addService(definition, implementation);
  const getPluginInfo = implementation.getPluginInfo as grpc.handleUnaryCall<Empty, pluginproto.PluginInfo>;
  const call = { request: Empty.deserializeBinary(new Uint8Array()) };
  return new Promise((resolve, reject) =>
    getPluginInfo(call as grpc.ServerUnaryCall<Empty, pluginproto.PluginInfo>, (error, info) => {
      if (error || !info) return reject(new Error(`GetPluginInfo gave no answer: ${JSON.stringify(error)}`));
      info.serializeBinary();
      resolve();
    }),
  );
}
