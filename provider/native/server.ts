/**
 * The ResourceProvider gRPC service of `pulumi-resource-rimuhosting`, on the SDK's own generated stubs
 * (@pulumi/pulumi/proto) and @grpc/grpc-js. Each method decodes its request, runs the matching function of
 * the front end (provider-config.ts, vps-resource.ts, functions.ts) with log lines attached to the request's
 * resource, and encodes the answer. Errors leave as one clean message; a VPS that exists but did not finish
 * (impl's VpsIncompleteError) as pulumirpc.ErrorResourceInitFailed, so the engine records it and the next
 * `pulumi up` finishes it, exactly as with the dynamic provider (docs/dynamic-providers.md §5).
 *
 * Written out rather than on `@pulumi/pulumi/provider`'s main(), whose Configure drops its arguments (no
 * explicit providers), which has no CheckConfig or DiffConfig, sends no detailed diff, and fails on the
 * property-less Read of `pulumi import` (docs/native-plugin.md, "Why our own server").
 */
import * as grpc from "@grpc/grpc-js";
import type * as Provproto from "@pulumi/pulumi/proto/provider_pb";
import * as pluginproto from "@pulumi/pulumi/proto/plugin_pb";
import type * as Statusproto from "@pulumi/pulumi/proto/status_pb";
import type * as AnyModule from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as net from "node:net";
import { engineConnected, watchEngine, WATCH_RULE, type WatchGrpc } from "../impl/engine/engine-watch.js";
import { VpsIncompleteError } from "../impl/engine/errors.js";
import { beginRun } from "../impl/engine/run-context.js";
import type * as Calls from "./calls.js";
import type * as Functions from "./functions.js";
import { startPluginLog, withResource, type PluginLog } from "./engine-log.js";
import { skipIPv6PatternForIPv4 } from "./fast-start.js";
import { lazyModule } from "./lazy-module.js";
import type { Bag } from "./protocol.js";
import { resourceProviderDefinition } from "./service-definition.js";
import type { EngineRequest } from "../impl/engine/time-limits.js";
import type { PropertyDiffKind } from "./vps-resource.js";
import schema = require("./schema.json");

/*
 * What the calls run is evaluated with the first call that needs it, not at start-up, so the plugin answers the
 * engine's first call (GetPluginInfo) with only gRPC and that call's two messages loaded (issue 34): the other calls'
 * messages with the first of them (service-definition.ts), the configuration and the Vps (calls.ts) with the first
 * of their calls, the functions (the data sources, with @pulumi/pulumi) with
 * the first Invoke. Each is loaded once; a module that fails to load fails each call that needs it with the same
 * clean error (lazy-module.ts), and the plugin stays up. VpsIncompleteError is imported here, not taken from
 * calls.ts: impl/engine/errors.js is loaded at start anyway (engine-watch.ts uses it), and grpcError, which answers every
 * failed call, must not depend on a module that may have failed to load (the status messages it sends for a VPS that
 * did not finish load with the first such answer, after the Vps code that threw it).
 */
const calls = lazyModule("Vps code", () => require("./calls.js") as typeof Calls);
const functions = lazyModule("data sources", () => require("./functions.js") as typeof Functions);
/** The messages of the calls after GetPluginInfo (service-definition.ts says why they wait). */
const provproto = lazyModule(
  "protocol's messages",
  () => require("@pulumi/pulumi/proto/provider_pb") as typeof Provproto,
);
/** What answers a VPS that did not finish: only then. */
const statusDetail = lazyModule("status messages", () => ({
  status: require("@pulumi/pulumi/proto/status_pb") as typeof Statusproto,
  Any: (require("google-protobuf/google/protobuf/any_pb") as typeof AnyModule).Any,
}));

const VPS_TYPE = "rimuhosting:index:Vps";
const SCHEMA_TEXT = JSON.stringify(schema);
/** The plugin's version: the package's, as the schema carries it. */
export const PLUGIN_VERSION = schema.version;

type Callback<Res> = (error: grpc.ServiceError | Partial<grpc.StatusObject> | null, response?: Res) => void;
type Handler<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, callback: Callback<Res>) => void;

/** The error the engine shows: the message alone (impl's errors carry their code and advice). */
function grpcError(error: unknown): Partial<grpc.StatusObject> {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof VpsIncompleteError)) return { code: grpc.status.UNKNOWN, details: message };
  // Created (or changed) but not finished: the engine records id and properties; the next `up` resumes.
  const { status: statusproto, Any } = statusDetail();
  const detail = new (provproto().ErrorResourceInitFailed)();
  detail.setId(error.id);
  detail.setProperties(calls().toStruct(calls().withSecretOutputs(error.properties)));
  detail.setReasonsList(error.reasons);
  const any = new Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusproto.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(message);
  status.addDetails(any);
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

const unimplemented =
  (method: string): Handler<unknown, unknown> =>
  (_call, callback) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: `rimuhosting does not implement ${method}` });

/**
 * A handler that runs `work` with log lines attached to `urn` and waits for those lines to reach the engine
 * before it answers (so they are shown with the step they belong to).
 */
function handler<Req, Res>(
  log: PluginLog,
  work: (req: Req) => Promise<Res>,
  urnOf: (req: Req) => string = () => "",
): Handler<Req, Res> {
  return (call, callback) => {
    const req = call.request;
    withResource(urnOf(req), () => work(req)).then(
      async (response) => {
        await log.flush();
        callback(null, response);
      },
      async (error: unknown) => {
        await log.flush();
        callback(grpcError(error));
      },
    );
  };
}

function checkResponse(
  inputs: Bag,
  failures: { property: string; reason: string }[],
): Provproto.CheckResponse {
  const { CheckResponse, CheckFailure } = provproto();
  const res = new CheckResponse();
  res.setInputs(calls().toStruct(inputs));
  res.setFailuresList(failures.map((f) => new CheckFailure().setProperty(f.property).setReason(f.reason)));
  return res;
}

function assertVps(urn: string): void {
  const type = calls().typeOfUrn(urn);
  if (type !== VPS_TYPE)
    throw new Error(`rimuhosting has no resource type ${type}; its resource is ${VPS_TYPE}.`);
}

/** A handler of a request about a Vps: another type's URN is refused, and its log lines go to the Vps. */
function vpsHandler<Req extends { getUrn(): string }, Res>(
  log: PluginLog,
  work: (req: Req) => Promise<Res>,
): Handler<Req, Res> {
  return handler<Req, Res>(
    log,
    // async: a refused URN is a rejection, answered as an error like any other
    async (req) => {
      assertVps(req.getUrn());
      return work(req);
    },
    (req) => req.getUrn(),
  );
}

/**
 * The engine's timeout of a Create, Read, Update or Delete (seconds, from the resource's customTimeouts; 0 when none
 * is set): the default of the operation's time limit (impl/engine/time-limits.ts).
 */
function engineRequestOf(req: { getTimeout(): number }): EngineRequest {
  return { timeoutSeconds: req.getTimeout() };
}

/** The protocol's kind of a property's change. */
function diffKind(kind: PropertyDiffKind): Provproto.PropertyDiff.Kind {
  const { Kind } = provproto().PropertyDiff;
  const kinds: Record<PropertyDiffKind, Provproto.PropertyDiff.Kind> = {
    add: Kind.ADD,
    delete: Kind.DELETE,
    update: Kind.UPDATE,
    "add-replace": Kind.ADD_REPLACE,
    "delete-replace": Kind.DELETE_REPLACE,
    "update-replace": Kind.UPDATE_REPLACE,
  };
  return kinds[kind];
}

/** The service implementation, with `log` as the engine's Log RPC. */
export function resourceProviderService(log: PluginLog): grpc.UntypedServiceImplementation {
  /** Configure was called: from then on the functions use the provider's configuration. */
  let configured = false;
  const service = {
    getPluginInfo: handler<Empty, pluginproto.PluginInfo>(log, async () =>
      new pluginproto.PluginInfo().setVersion(PLUGIN_VERSION),
    ),
    getSchema: handler<Provproto.GetSchemaRequest, Provproto.GetSchemaResponse>(log, async () =>
      new (provproto().GetSchemaResponse)().setSchema(SCHEMA_TEXT),
    ),
    checkConfig: handler<Provproto.CheckRequest, Provproto.CheckResponse>(
      log,
      async (req) => {
        const { checkConfig, fromStruct } = calls();
        const { inputs, failures } = checkConfig(req.getUrn(), fromStruct(req.getNews()));
        return checkResponse(inputs, failures);
      },
      (req) => req.getUrn(),
    ),
    diffConfig: handler<Provproto.DiffRequest, Provproto.DiffResponse>(
      log,
      async (req) => {
        const { diffConfig, fromStruct } = calls();
        const olds = req.getOldInputs() ? fromStruct(req.getOldInputs()) : fromStruct(req.getOlds());
        const { changed } = diffConfig(olds, fromStruct(req.getNews()));
        const res = new (provproto().DiffResponse)();
        res.setChanges(
          changed.length > 0
            ? provproto().DiffResponse.DiffChanges.DIFF_SOME
            : provproto().DiffResponse.DiffChanges.DIFF_NONE,
        );
        res.setDiffsList(changed);
        return res;
      },
      (req) => req.getUrn(),
    ),
    configure: handler<Provproto.ConfigureRequest, Provproto.ConfigureResponse>(log, async (req) => {
      const { configureProvider, fromStruct } = calls();
      await configureProvider(
        req.getUrn(),
        req.hasArgs() ? fromStruct(req.getArgs()) : undefined,
        new Map(req.getVariablesMap().entries()),
      );
      configured = true;
      const res = new (provproto().ConfigureResponse)();
      res.setAcceptsecrets(true);
      res.setSupportspreview(true);
      res.setAcceptresources(false);
      res.setAcceptoutputs(false);
      return res;
    }),
    check: vpsHandler<Provproto.CheckRequest, Provproto.CheckResponse>(log, async (req) => {
      const { vps, fromStruct } = calls();
      const { inputs, failures } = await vps.check(
        req.getUrn(),
        fromStruct(req.getOlds()),
        fromStruct(req.getNews()),
      );
      return checkResponse(inputs, failures);
    }),
    diff: vpsHandler<Provproto.DiffRequest, Provproto.DiffResponse>(log, async (req) => {
      const { vps, fromStruct } = calls();
      const answer = await vps.diff(
        req.getId(),
        req.getUrn(),
        fromStruct(req.getOlds()),
        fromStruct(req.getNews()),
      );
      const res = new (provproto().DiffResponse)();
      res.setChanges(
        answer.changes
          ? provproto().DiffResponse.DiffChanges.DIFF_SOME
          : provproto().DiffResponse.DiffChanges.DIFF_NONE,
      );
      res.setReplacesList(answer.replaces);
      res.setDeletebeforereplace(answer.deleteBeforeReplace);
      const detailed = Object.entries(answer.detailedDiff);
      res.setDiffsList(detailed.map(([name]) => name));
      if (detailed.length > 0) {
        res.setHasdetaileddiff(true);
        const map = res.getDetaileddiffMap();
        for (const [name, kind] of detailed)
          map.set(
            name,
            new (provproto().PropertyDiff)().setKind(diffKind(kind)).setInputdiff(!answer.fromOutputs),
          );
      }
      return res;
    }),
    create: vpsHandler<Provproto.CreateRequest, Provproto.CreateResponse>(log, async (req) => {
      const { vps, fromStruct, toStruct } = calls();
      const created = await vps.create(
        req.getUrn(),
        fromStruct(req.getProperties()),
        req.getPreview(),
        engineRequestOf(req),
      );
      const res = new (provproto().CreateResponse)();
      res.setId(created.id);
      res.setProperties(toStruct(created.properties));
      return res;
    }),
    read: vpsHandler<Provproto.ReadRequest, Provproto.ReadResponse>(log, async (req) => {
      const { vps, fromStruct, toStruct } = calls();
      const read = await vps.read(
        req.getId(),
        req.hasProperties() ? fromStruct(req.getProperties()) : undefined,
        engineRequestOf(req),
      );
      const res = new (provproto().ReadResponse)();
      res.setId(read.id);
      res.setProperties(toStruct(read.properties));
      if (read.inputs) res.setInputs(toStruct(read.inputs));
      return res;
    }),
    update: vpsHandler<Provproto.UpdateRequest, Provproto.UpdateResponse>(log, async (req) => {
      const { vps, fromStruct, toStruct } = calls();
      const updated = await vps.update(
        req.getId(),
        req.getUrn(),
        fromStruct(req.getOlds()),
        fromStruct(req.getNews()),
        req.getPreview(),
        engineRequestOf(req),
      );
      const res = new (provproto().UpdateResponse)();
      res.setProperties(toStruct(updated.properties));
      return res;
    }),
    delete: vpsHandler<Provproto.DeleteRequest, Empty>(log, async (req) => {
      const { vps, fromStruct } = calls();
      await vps.deleteVps(req.getId(), fromStruct(req.getProperties()), engineRequestOf(req), req.getUrn());
      return new Empty();
    }),
    invoke: handler<Provproto.InvokeRequest, Provproto.InvokeResponse>(log, async (req) => {
      const { fromStruct, toStruct } = calls();
      const { invoke } = functions();
      const result = await invoke(req.getTok(), fromStruct(req.getArgs()), configured);
      return new (provproto().InvokeResponse)().setReturn(toStruct(result));
    }),
    // The engine asks every plugin to stop before it shuts it down. Nothing is aborted half-way: an operation
    // in flight finishes (or leaves what it did recorded, see impl/lifecycle/vps-converge.ts), and the engine waits.
    cancel: handler<Empty, Empty>(log, async () => new Empty()),
    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    call: unimplemented("Call"),
    construct: unimplemented("Construct"),
    list: unimplemented("List"),
    streamInvoke: unimplemented("StreamInvoke"),
    attach: unimplemented("Attach"),
    getMapping: unimplemented("GetMapping"),
    getMappings: unimplemented("GetMappings"),
  };
  return service as unknown as grpc.UntypedServiceImplementation;
}

/** What fast-start.ts's compileFirstAnswer runs: the service's definition, and its implementation. */
export const firstAnswerParts = () =>
  [resourceProviderDefinition(), resourceProviderService] as [
    grpc.ServiceDefinition,
    typeof resourceProviderService,
  ];

/** What a Node that has it (26 and later) makes `net.BoundSocket` with: a socket bound at once, no DNS. */
type BoundSocketClass = new (options: { host: string; port: number }) => object;

/**
 * Port 0 of 127.0.0.1, for `listen()`: where Node has `net.BoundSocket` (the release's executables), a socket bound
 * there at once; elsewhere (bin/ and the launcher on an older node) the port and address. Given an address, listen()
 * looks it up in DNS first and then tests each answer with Node's own IPv6 pattern, which V8 compiles at its first use
 * in every process (fast-start.ts); a bound socket goes to listen() with neither. A bind that fails throws here.
 */
export function loopbackPort(): object | net.ListenOptions {
  // The module itself, not the import's copy of its keys, as fast-start.ts does: so a test can give it one.
  const { BoundSocket } = require("node:net") as { BoundSocket?: BoundSocketClass };
  return BoundSocket ? new BoundSocket({ host: "127.0.0.1", port: 0 }) : { port: 0, host: "127.0.0.1" };
}

/**
 * Starts the plugin as the engine expects: listens on 127.0.0.1 and hands the port to `announce` (main.ts prints it
 * as the first line of stdout). `engineAddress` is the engine's Log endpoint (the first argument the engine passes).
 *
 * The port is announced before gRPC's HTTP/2 server is made. In the release's linux-amd64 executable, Node's
 * `http2`, and the `http` and `tls` modules it loads, are not in the startup snapshot (docs/releasing.md,
 * "Start-up"), and loading them took 10 to 15 ms. So the socket is a plain `net` server, which the snapshot holds;
 * once the port is out, the HTTP/2 server is made (gRPC's connection injector) while the engine connects, and each
 * connection is handed to it. A connection that arrives meanwhile waits in the socket's backlog: nothing runs the
 * event loop between the announcement and the hand-over.
 */
export async function serve(
  engineAddress: string | undefined,
  announce: (port: number) => void = () => {},
): Promise<{ port: number; close(): Promise<void> }> {
  const log = startPluginLog(engineAddress);
  // The plugin's run begins here, its lines sent to the engine's log: impl's plain lines (progress during create,
  // update and delete) are information; its warnings are notes, which the native front end sends with their severity
  // (sendNotes); only the dynamic front end prints a note as a line.
  // Its engine is the one it was started by: the checks record it (impl/engine/deployment.ts).
  beginRun(undefined, { log: (line) => log.log("info", line), engine: engineAddress });
  // A plugin whose engine died stops (impl/engine/engine-watch.ts); `grpc` is this bundle's own copy. Its first
  // periodic question waits one pause: the engine calls as soon as it reads the port, and that question (a gRPC
  // connection of its own, on client code the startup snapshot does not hold) took 5 to 10 ms of the first answer
  // when it went at once. A change still asks before it is sent, and the engine's connection counts as seen alive.
  if (engineAddress)
    watchEngine(grpc as unknown as WatchGrpc, engineAddress, {
      rule: { firstCheckAfterMs: WATCH_RULE.checkEveryMs },
    });
  skipIPv6PatternForIPv4();
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(resourceProviderDefinition(), resourceProviderService(log));
  const listener = net.createServer();
  const port = await new Promise<number>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(loopbackPort(), () => {
      listener.off("error", reject);
      resolve((listener.address() as net.AddressInfo).port);
    });
  });
  announce(port);
  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  listener.on("connection", (socket) => {
    engineConnected(); // only the engine reads the port
    injector.injectConnection(socket);
  });
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        log.close();
        listener.close();
        server.tryShutdown(() => resolve());
      }),
  };
}
