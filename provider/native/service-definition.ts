/**
 * The ResourceProvider service as gRPC's server is given it, without the messages of every call evaluated at start.
 *
 * The generated definition (@pulumi/pulumi/proto/provider_grpc_pb) loads provider_pb, the messages of every call of
 * the protocol, before the server can be made. In the release's linux-amd64 executable what the plugin evaluated to
 * start is what its startup snapshot holds, and every start deserializes it (docs/releasing.md, "Start-up"). Here,
 * GetPluginInfo, the engine's first call, is served with its two messages alone (Empty, PluginInfo: small modules);
 * every other method takes its (de)serializers from the generated definition when it is first used, so provider_pb
 * loads with the first call after GetPluginInfo (test/native/lazy-loading.test.ts). The methods, their paths and
 * their streaming are the generated ones' (test/native/service-definition.test.ts).
 */
import type * as grpc from "@grpc/grpc-js";
import type * as ProviderGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pluginproto from "@pulumi/pulumi/proto/plugin_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { lazyModule } from "./lazy-module.js";

/** Every method of pulumirpc.ResourceProvider, by its key in the generated definition (its name, camel-cased). */
export const RESOURCE_PROVIDER_METHODS = [
  "handshake",
  "parameterize",
  "getSchema",
  "checkConfig",
  "diffConfig",
  "configure",
  "invoke",
  "call",
  "check",
  "diff",
  "create",
  "read",
  "list",
  "update",
  "delete",
  "construct",
  "cancel",
  "getPluginInfo",
  "attach",
  "getMapping",
  "getMappings",
] as const;

/** The methods whose answer is a stream (the rest answer once). No method takes a stream. */
const STREAMED_ANSWERS: ReadonlySet<string> = new Set(["list"]);

type Method = grpc.MethodDefinition<unknown, unknown>;

const generated = lazyModule(
  "protocol's messages",
  () =>
    (require("@pulumi/pulumi/proto/provider_grpc_pb") as typeof ProviderGrpc)
      .ResourceProviderService as unknown as grpc.ServiceDefinition,
);

/** Method `key`, whose (de)serializers are the generated ones, loaded at their first use. */
function deferred(key: string): Method {
  const real = () => generated()[key] as Method;
  return {
    path: `/pulumirpc.ResourceProvider/${key[0]!.toUpperCase()}${key.slice(1)}`,
    requestStream: false,
    responseStream: STREAMED_ANSWERS.has(key),
    requestSerialize: (value) => real().requestSerialize(value),
    requestDeserialize: (bytes) => real().requestDeserialize(bytes),
    responseSerialize: (value) => real().responseSerialize(value),
    responseDeserialize: (bytes) => real().responseDeserialize(bytes),
  };
}

/** GetPluginInfo, on its own two messages: what the generated (de)serializers do, with them. */
const getPluginInfo: grpc.MethodDefinition<Empty, pluginproto.PluginInfo> = {
  path: "/pulumirpc.ResourceProvider/GetPluginInfo",
  requestStream: false,
  responseStream: false,
  requestSerialize: (value) => Buffer.from(value.serializeBinary()),
  requestDeserialize: (bytes) => Empty.deserializeBinary(new Uint8Array(bytes)),
  responseSerialize: (value) => Buffer.from(value.serializeBinary()),
  responseDeserialize: (bytes) => pluginproto.PluginInfo.deserializeBinary(new Uint8Array(bytes)),
};

/** The ResourceProvider service's definition, for `grpc.Server.addService`. */
export function resourceProviderDefinition(): grpc.ServiceDefinition {
  return Object.fromEntries(
    RESOURCE_PROVIDER_METHODS.map((key) => [
      key,
      key === "getPluginInfo" ? (getPluginInfo as unknown as Method) : deferred(key),
    ]),
  );
}
