// Drives the REAL native plugin (`pulumi-resource-rimuhosting`, the built dist/provider/native/main.js, or the
// packed bundle) over gRPC with the SDK's own stubs, the way the Pulumi engine starts and calls it: argv = [the
// engine's address], the port is the first stdout line. A small Engine server stands in for the engine's Log RPC
// and records what the plugin says, with the URN of the resource each message is about.
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as path from "node:path";
import { spawnTethered } from "../helpers/tethered-child";
import { nameOfUrn, typeOfUrn, type PropertyMap } from "../helpers/provider-host";

export const ROOT = path.resolve(__dirname, "../..");
/** The built plugin (npm run build). */
export const BUILT_PLUGIN = path.join(ROOT, "dist/provider/native/main.js");

export interface LoggedMessage {
  severity: "debug" | "info" | "warning" | "error";
  message: string;
  urn: string;
}
export interface Failure {
  property: string;
  reason: string;
}
export type DiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";
export interface NativeDiff {
  changes: "unknown" | "none" | "some";
  replaces: string[];
  diffs: string[];
  detailedDiff: Record<string, DiffKind>;
}
/** A gRPC error from the plugin; `initFailure` when it carries pulumirpc.ErrorResourceInitFailed. */
export class PluginError extends Error {
  constructor(
    readonly method: string,
    readonly grpcCode: number,
    readonly details: string,
    readonly initFailure?: { id: string; properties: PropertyMap; reasons: string[] },
  ) {
    super(details || `${method} failed with gRPC status ${grpcCode}`);
  }
}

const SEVERITIES = ["debug", "info", "warning", "error"] as const;
const KINDS: DiffKind[] = ["add", "add-replace", "delete", "delete-replace", "update", "update-replace"];
const toStruct = (value: PropertyMap): Struct => Struct.fromJavaScript(value as never);
const fromStruct = (value: Struct | undefined): PropertyMap => (value ? value.toJavaScript() : {});

function addressed<R extends { setUrn(v: string): R; setType(v: string): R; setName(v: string): R }>(
  req: R,
  urn: string,
): R {
  return req.setUrn(urn).setType(typeOfUrn(urn)).setName(nameOfUrn(urn));
}

function initFailureOf(err: grpc.ServiceError): PluginError["initFailure"] {
  const first = err.metadata?.get("grpc-status-details-bin")?.[0];
  if (!first || typeof first === "string") return undefined;
  for (const any of statusproto.Status.deserializeBinary(first).getDetailsList()) {
    if (any.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
    const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
    return {
      id: detail.getId(),
      properties: fromStruct(detail.getProperties()),
      reasons: detail.getReasonsList(),
    };
  }
  return undefined;
}

export interface NativePlugin {
  readonly pid: number | undefined;
  /** Everything the plugin sent to the engine's Log RPC, in order. */
  readonly messages: LoggedMessage[];
  /** What the plugin printed on stderr. */
  stderr(): string;
  getPluginInfo(): Promise<string>;
  getSchema(): Promise<string>;
  checkConfig(urn: string, news: PropertyMap): Promise<{ inputs: PropertyMap; failures: Failure[] }>;
  diffConfig(urn: string, olds: PropertyMap, news: PropertyMap): Promise<NativeDiff>;
  configure(args: PropertyMap): Promise<{ acceptSecrets: boolean; supportsPreview: boolean }>;
  check(
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
  ): Promise<{ inputs: PropertyMap; failures: Failure[] }>;
  diff(id: string, urn: string, olds: PropertyMap, news: PropertyMap): Promise<NativeDiff>;
  create(
    urn: string,
    properties: PropertyMap,
    preview?: boolean,
  ): Promise<{ id: string; properties: PropertyMap }>;
  /** No `properties`: the Read of `pulumi import`. */
  read(
    id: string,
    urn: string,
    properties?: PropertyMap,
  ): Promise<{ id: string; properties: PropertyMap; inputs?: PropertyMap }>;
  update(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    preview?: boolean,
  ): Promise<{ properties: PropertyMap }>;
  delete(id: string, urn: string, properties: PropertyMap): Promise<void>;
  invoke(token: string, args: PropertyMap): Promise<PropertyMap>;
  cancel(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the plugin (`script`, default the built one) with a recording Engine, and connects to it. */
export async function startNativePlugin(
  options: { env?: NodeJS.ProcessEnv; script?: string } = {},
): Promise<NativePlugin> {
  const messages: LoggedMessage[] = [];
  const engine = new grpc.Server();
  const engineImpl: Partial<engrpc.IEngineServer> = {
    log(call, cb) {
      const r = call.request;
      messages.push({
        severity: SEVERITIES[r.getSeverity()] ?? "info",
        message: r.getMessage(),
        urn: r.getUrn(),
      });
      cb(null, new Empty());
    },
  };
  engine.addService(engrpc.EngineService, engineImpl as engrpc.IEngineServer);
  const enginePort = await new Promise<number>((resolve, reject) =>
    engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  const proc = spawnTethered(options.script ?? BUILT_PLUGIN, [`127.0.0.1:${enginePort}`], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
  });
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(Number(out.split("\n")[0]));
    });
    proc.once("exit", (code) =>
      reject(new Error(`the plugin exited (${code}) before printing its port: ${stderr}`)),
    );
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  const unary = <Req, Res>(method: string, req: Req): Promise<Res> =>
    new Promise((resolve, reject) =>
      (
        client as unknown as Record<
          string,
          (r: Req, cb: (e: grpc.ServiceError | null, r: Res) => void) => void
        >
      )[method]!.call(client, req, (err, res) =>
        err ? reject(new PluginError(method, err.code, err.details, initFailureOf(err))) : resolve(res),
      ),
    );
  const diffOf = (res: provproto.DiffResponse): NativeDiff => {
    const D = provproto.DiffResponse.DiffChanges;
    const detailedDiff: Record<string, DiffKind> = {};
    res.getDetaileddiffMap().forEach((entry, key) => (detailedDiff[key] = KINDS[entry.getKind()]!));
    const changes = res.getChanges();
    return {
      changes: changes === D.DIFF_NONE ? "none" : changes === D.DIFF_SOME ? "some" : "unknown",
      replaces: res.getReplacesList(),
      diffs: res.getDiffsList(),
      detailedDiff,
    };
  };
  const failuresOf = (res: provproto.CheckResponse): Failure[] =>
    res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));

  return {
    pid: proc.pid,
    messages,
    stderr: () => stderr,
    async getPluginInfo() {
      const res = await unary<Empty, { getVersion(): string }>("getPluginInfo", new Empty());
      return res.getVersion();
    },
    async getSchema() {
      const res = await unary<provproto.GetSchemaRequest, provproto.GetSchemaResponse>(
        "getSchema",
        new provproto.GetSchemaRequest(),
      );
      return res.getSchema();
    },
    async checkConfig(urn, news) {
      const req = addressed(new provproto.CheckRequest(), urn).setOlds(toStruct({})).setNews(toStruct(news));
      const res = await unary<provproto.CheckRequest, provproto.CheckResponse>("checkConfig", req);
      return { inputs: fromStruct(res.getInputs()), failures: failuresOf(res) };
    },
    async diffConfig(urn, olds, news) {
      const req = addressed(new provproto.DiffRequest(), urn)
        .setOlds(toStruct(olds))
        .setOldInputs(toStruct(olds))
        .setNews(toStruct(news));
      return diffOf(await unary<provproto.DiffRequest, provproto.DiffResponse>("diffConfig", req));
    },
    async configure(args) {
      const req = new provproto.ConfigureRequest()
        .setArgs(toStruct(args))
        .setAcceptsecrets(true)
        .setAcceptresources(true);
      const res = await unary<provproto.ConfigureRequest, provproto.ConfigureResponse>("configure", req);
      return { acceptSecrets: res.getAcceptsecrets(), supportsPreview: res.getSupportspreview() };
    },
    async check(urn, olds, news) {
      const req = addressed(new provproto.CheckRequest(), urn)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news));
      const res = await unary<provproto.CheckRequest, provproto.CheckResponse>("check", req);
      return { inputs: fromStruct(res.getInputs()), failures: failuresOf(res) };
    },
    async diff(id, urn, olds, news) {
      const req = addressed(new provproto.DiffRequest(), urn)
        .setId(id)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news));
      return diffOf(await unary<provproto.DiffRequest, provproto.DiffResponse>("diff", req));
    },
    async create(urn, properties, preview = false) {
      const req = addressed(new provproto.CreateRequest(), urn)
        .setProperties(toStruct(properties))
        .setPreview(preview);
      const res = await unary<provproto.CreateRequest, provproto.CreateResponse>("create", req);
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },
    async read(id, urn, properties) {
      const req = addressed(new provproto.ReadRequest(), urn).setId(id);
      if (properties) req.setProperties(toStruct(properties)).setInputs(toStruct(properties));
      const res = await unary<provproto.ReadRequest, provproto.ReadResponse>("read", req);
      return {
        id: res.getId(),
        properties: fromStruct(res.getProperties()),
        inputs: res.hasInputs() ? fromStruct(res.getInputs()) : undefined,
      };
    },
    async update(id, urn, olds, news, preview = false) {
      const req = addressed(new provproto.UpdateRequest(), urn)
        .setId(id)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news))
        .setPreview(preview);
      const res = await unary<provproto.UpdateRequest, provproto.UpdateResponse>("update", req);
      return { properties: fromStruct(res.getProperties()) };
    },
    async delete(id, urn, properties) {
      await unary(
        "delete",
        addressed(new provproto.DeleteRequest(), urn).setId(id).setProperties(toStruct(properties)),
      );
    },
    async invoke(token, args) {
      const req = new provproto.InvokeRequest().setTok(token).setArgs(toStruct(args));
      const res = await unary<provproto.InvokeRequest, provproto.InvokeResponse>("invoke", req);
      return fromStruct(res.getReturn());
    },
    async cancel() {
      await unary("cancel", new Empty());
    },
    async close() {
      client.close();
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      await exited;
      engine.forceShutdown();
    },
  };
}

/** `urn:pulumi:<stack>::<project>::rimuhosting:index:Vps::<name>`. */
export const vpsUrn = (name: string, project = "native-l3", stack = "dev"): string =>
  `urn:pulumi:${stack}::${project}::rimuhosting:index:Vps::${name}`;
