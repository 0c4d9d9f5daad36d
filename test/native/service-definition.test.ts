// The ResourceProvider definition the plugin's server is given (provider/native/service-definition.ts): the same
// methods, paths and streaming as the generated one, and for each method the same bytes and messages both ways;
// GetPluginInfo's with no more than its own two messages. (That the plugin answers GetPluginInfo without the other
// calls' messages loaded is lazy-loading.test.ts: it starts the built plugin.)
import type * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as pluginproto from "@pulumi/pulumi/proto/plugin_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import {
  RESOURCE_PROVIDER_METHODS,
  resourceProviderDefinition,
} from "../../provider/native/service-definition";

const GENERATED = provrpc.ResourceProviderService as unknown as grpc.ServiceDefinition;
type Method = grpc.MethodDefinition<{ serializeBinary(): Uint8Array }, { serializeBinary(): Uint8Array }>;

describe("the ResourceProvider definition the server is given", () => {
  const ours = resourceProviderDefinition();

  it("has the generated definition's methods, paths and streaming", () => {
    const shape = (definition: grpc.ServiceDefinition) =>
      Object.fromEntries(
        Object.entries(definition).map(([key, m]) => [key, [m.path, m.requestStream, m.responseStream]]),
      );
    expect(shape(ours)).toEqual(shape(GENERATED));
    expect([...RESOURCE_PROVIDER_METHODS].sort()).toEqual(Object.keys(GENERATED).sort());
  });

  it("(de)serializes each method's messages as the generated definition does", () => {
    const request = new provproto.CheckRequest()
      .setUrn("urn:pulumi:dev::p::rimuhosting:index:Vps::web")
      .setNews(Struct.fromJavaScript({ memoryMb: 1024 }));
    const answer = new provproto.CheckResponse().setInputs(Struct.fromJavaScript({ memoryMb: 1024 }));
    const check = ours.check as unknown as Method;
    const generated = GENERATED.check as unknown as Method;
    expect(check.requestSerialize(request)).toEqual(generated.requestSerialize(request));
    expect(check.responseSerialize(answer)).toEqual(generated.responseSerialize(answer));
    const bytes = generated.requestSerialize(request);
    const read = check.requestDeserialize(bytes);
    expect(read).toBeInstanceOf(provproto.CheckRequest);
    expect(read.serializeBinary()).toEqual(request.serializeBinary());
    expect(check.responseDeserialize(generated.responseSerialize(answer))).toBeInstanceOf(
      provproto.CheckResponse,
    );
  });

  it("serves GetPluginInfo with its own two messages, byte for byte the generated ones", () => {
    const info = new pluginproto.PluginInfo().setVersion("1.2.3");
    const ourMethod = ours.getPluginInfo as unknown as Method;
    const generated = GENERATED.getPluginInfo as unknown as Method;
    expect(ourMethod.responseSerialize(info)).toEqual(generated.responseSerialize(info));
    expect(ourMethod.requestSerialize(new Empty())).toEqual(generated.requestSerialize(new Empty()));
    expect(ourMethod.requestDeserialize(Buffer.alloc(0))).toBeInstanceOf(Empty);
    const back = ourMethod.responseDeserialize(generated.responseSerialize(info)) as pluginproto.PluginInfo;
    expect(back.getVersion()).toBe("1.2.3");
  });
});
