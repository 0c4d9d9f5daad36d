// The two gRPC services a Pulumi program talks to: Engine (logging, root resource) and ResourceMonitor
// (registrations). This module only speaks the protocol; what a registration does is up to the handlers.
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import * as resrpc from "@pulumi/pulumi/proto/resource_grpc_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { PropertyMap } from "../helpers/provider-host";

export interface Registration {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  object: PropertyMap;
  dependencies: string[];
  additionalSecretOutputs: string[];
  deleteBeforeReplace: boolean;
  provider: string;
  importId: string;
}
export interface RegistrationResult {
  urn: string;
  id: string;
  object: PropertyMap;
}

export interface MonitorHandlers {
  dryRun: boolean;
  project: string;
  stack: string;
  registerResource(r: Registration): Promise<RegistrationResult>;
  registerResourceOutputs(urn: string, outputs: PropertyMap): void;
  readResource(r: {
    type: string;
    name: string;
    parent: string;
    id: string;
    properties: PropertyMap;
  }): Promise<{
    urn: string;
    properties: PropertyMap;
  }>;
  log(severity: "debug" | "info" | "warning" | "error", message: string, urn: string): void;
}

export interface EngineServers {
  engineAddress: string;
  monitorAddress: string;
  close(): void;
}

/** A handler error travels to the program as a gRPC status; `code` may carry a grpc.status value. */
function toStatus(e: unknown): Partial<grpc.StatusObject> {
  const err = e as { code?: number; message?: string };
  return {
    code: typeof err.code === "number" ? err.code : grpc.status.UNKNOWN,
    details: err.message ?? String(e),
  };
}

const SEVERITIES = ["debug", "info", "warning", "error"] as const;

async function listen(add: (s: grpc.Server) => void): Promise<{ server: grpc.Server; address: string }> {
  const server = new grpc.Server();
  add(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  return { server, address: `127.0.0.1:${port}` };
}

export async function startEngineServers(h: MonitorHandlers): Promise<EngineServers> {
  let rootUrn = "";
  const unimplemented =
    (name: string) =>
    (_call: unknown, cb: grpc.sendUnaryData<never>): void =>
      cb({ code: grpc.status.UNIMPLEMENTED, details: `${name} is not modelled by the engine harness` });

  const engineImpl: engrpc.IEngineServer = {
    log(call, cb) {
      const r = call.request;
      h.log(SEVERITIES[r.getSeverity()] ?? "info", r.getMessage(), r.getUrn());
      cb(null, new Empty());
    },
    getRootResource(_call, cb) {
      cb(null, new engproto.GetRootResourceResponse().setUrn(rootUrn));
    },
    setRootResource(call, cb) {
      rootUrn = call.request.getUrn();
      cb(null, new engproto.SetRootResourceResponse());
    },
    startDebugging(_call, cb) {
      cb(null, new Empty());
    },
    requirePulumiVersion(_call, cb) {
      cb(null, new engproto.RequirePulumiVersionResponse());
    },
  };

  const monitorImpl: resrpc.IResourceMonitorServer = {
    getDeploymentInfo(_call, cb) {
      const info = new resproto.DeploymentInfo();
      info.setProject(h.project);
      info.setStack(h.stack);
      info.setOrganization("organization");
      info.setDryrun(h.dryRun);
      info.setParallel(16);
      // Only secrets: resource references and output values would change what the SDK sends.
      info.setSupportedfeaturesList([resproto.ResourceMonitorFeature.RESOURCE_MONITOR_FEATURE_SECRETS]);
      cb(null, info);
    },
    supportsFeature(call, cb) {
      cb(null, new resproto.SupportsFeatureResponse().setHassupport(call.request.getId() === "secrets"));
    },
    registerResource(call, cb) {
      const r = call.request;
      const deps = new Set(r.getDependenciesList());
      r.getPropertydependenciesMap().forEach((v) => v.getUrnsList().forEach((u) => deps.add(u)));
      h.registerResource({
        type: r.getType(),
        name: r.getName(),
        parent: r.getParent(),
        custom: r.getCustom(),
        object: r.getObject()?.toJavaScript() ?? {},
        dependencies: [...deps],
        additionalSecretOutputs: r.getAdditionalsecretoutputsList(),
        deleteBeforeReplace: r.getDeletebeforereplace(),
        provider: r.getProvider(),
        importId: r.getImportid(),
      }).then(
        (res) => {
          const out = new resproto.RegisterResourceResponse();
          out.setUrn(res.urn);
          out.setId(res.id);
          out.setObject(Struct.fromJavaScript(res.object as never));
          cb(null, out);
        },
        (e) => cb(toStatus(e)),
      );
    },
    registerResourceOutputs(call, cb) {
      h.registerResourceOutputs(call.request.getUrn(), call.request.getOutputs()?.toJavaScript() ?? {});
      cb(null, new Empty());
    },
    readResource(call, cb) {
      const r = call.request;
      h.readResource({
        type: r.getType(),
        name: r.getName(),
        parent: r.getParent(),
        id: r.getId(),
        properties: r.getProperties()?.toJavaScript() ?? {},
      }).then(
        (res) => {
          const out = new resproto.ReadResourceResponse();
          out.setUrn(res.urn);
          out.setProperties(Struct.fromJavaScript(res.properties as never));
          cb(null, out);
        },
        (e) => cb(toStatus(e)),
      );
    },
    signalAndWaitForShutdown(_call, cb) {
      cb(null, new Empty());
    },
    invoke: unimplemented("Invoke"),
    call: unimplemented("Call"),
    existsResource: unimplemented("ExistsResource"),
    registerStackTransform: unimplemented("RegisterStackTransform"),
    registerStackInvokeTransform: unimplemented("RegisterStackInvokeTransform"),
    registerResourceHook: unimplemented("RegisterResourceHook"),
    registerErrorHook: unimplemented("RegisterErrorHook"),
    registerPackage: unimplemented("RegisterPackage"),
  };

  const engine = await listen((s) => s.addService(engrpc.EngineService, engineImpl));
  const monitor = await listen((s) => s.addService(resrpc.ResourceMonitorService, monitorImpl));
  return {
    engineAddress: engine.address,
    monitorAddress: monitor.address,
    close() {
      engine.server.forceShutdown();
      monitor.server.forceShutdown();
    },
  };
}
