// The engine's side of a resource provider plugin, for tests: starts a provider process the way the Pulumi engine
// does (argv ends with the engine's address; the port is the first line of stdout) and calls its ResourceProvider
// RPCs with the SDK's own generated stubs. One client for every provider the tests drive: the dynamic-provider host
// (provider-host.ts) and the native plugin (test/native/plugin-client.ts).
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { spawnTethered, type TetheredChild } from "./tethered-child";

/** A JSON object as carried in a google.protobuf.Struct. */
export type PropertyMap = Record<string, unknown>;

export interface CheckFailure {
  property: string;
  reason: string;
}
export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}
export type DiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";
export interface DiffResult {
  changes: "unknown" | "none" | "some";
  /** The top-level properties that differ (the response's `diffs`). */
  diffs: string[];
  replaces: string[];
  deleteBeforeReplace: boolean;
  detailedDiff: Record<string, DiffKind>;
}
export interface ReadResult {
  /** Empty when the resource no longer exists. */
  id: string;
  properties: PropertyMap;
  inputs?: PropertyMap;
}
/** The resource was created (or updated) but did not finish initializing: pulumirpc.ErrorResourceInitFailed. */
export interface InitFailure {
  id: string;
  properties: PropertyMap;
  reasons: string[];
}

/** A gRPC error from the provider, with the partial-failure details decoded when present. */
export class ProviderRpcError extends Error {
  constructor(
    readonly method: string,
    readonly grpcCode: number,
    readonly details: string,
    readonly initFailure?: InitFailure,
  ) {
    super(details || `${method} failed with gRPC status ${grpcCode}`);
    this.name = "ProviderRpcError";
  }
}

/** The ResourceProvider RPCs, as the engine sends them. */
export interface ProviderClient {
  getPluginInfo(): Promise<string>;
  getSchema(): Promise<string>;
  checkConfig(urn: string, news: PropertyMap): Promise<CheckResult>;
  diffConfig(urn: string, olds: PropertyMap, news: PropertyMap): Promise<DiffResult>;
  configure(args: PropertyMap): Promise<{ acceptSecrets: boolean; supportsPreview: boolean }>;
  check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult>;
  diff(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    oldInputs?: PropertyMap,
  ): Promise<DiffResult>;
  create(
    urn: string,
    properties: PropertyMap,
    options?: { timeoutSeconds?: number; preview?: boolean },
  ): Promise<{ id: string; properties: PropertyMap }>;
  /** Without `properties`: the Read of `pulumi import` (and of a `get`). */
  read(id: string, urn: string, properties?: PropertyMap, inputs?: PropertyMap): Promise<ReadResult>;
  update(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    options?: { oldInputs?: PropertyMap; preview?: boolean },
  ): Promise<{ properties: PropertyMap }>;
  delete(id: string, urn: string, properties: PropertyMap, oldInputs?: PropertyMap): Promise<void>;
  invoke(token: string, args: PropertyMap): Promise<PropertyMap>;
  cancel(): Promise<void>;
}

/** The type token is the third URN segment, its last `$` part (`...::parent$type::name`). */
export function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? qualified;
}
export const nameOfUrn = (urn: string): string => urn.split("::").slice(3).join("::");

/** Every resource request names its resource three ways: the URN, its type and its name. */
function addressed<R extends { setUrn(v: string): R; setType(v: string): R; setName(v: string): R }>(
  req: R,
  urn: string,
): R {
  return req.setUrn(urn).setType(typeOfUrn(urn)).setName(nameOfUrn(urn));
}
const toStruct = (value: PropertyMap): Struct => Struct.fromJavaScript(value as never);
const fromStruct = (value: Struct | undefined): PropertyMap => (value ? value.toJavaScript() : {});
const KINDS: DiffKind[] = ["add", "add-replace", "delete", "delete-replace", "update", "update-replace"];

function initFailureOf(err: grpc.ServiceError): InitFailure | undefined {
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

function diffOf(res: provproto.DiffResponse): DiffResult {
  const D = provproto.DiffResponse.DiffChanges;
  const detailedDiff: Record<string, DiffKind> = {};
  res.getDetaileddiffMap().forEach((entry, key) => (detailedDiff[key] = KINDS[entry.getKind()]!));
  const changes = res.getChanges();
  return {
    changes: changes === D.DIFF_NONE ? "none" : changes === D.DIFF_SOME ? "some" : "unknown",
    diffs: res.getDiffsList(),
    replaces: res.getReplacesList(),
    deleteBeforeReplace: res.getDeletebeforereplace(),
    detailedDiff,
  };
}

const checkOf = (res: provproto.CheckResponse): CheckResult => ({
  inputs: fromStruct(res.getInputs()),
  failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
});

/** A client of the provider listening on `port`; `close()` closes its channel. */
export function connectProvider(port: number): ProviderClient & { close(): void } {
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  type Unary<Req, Res> = (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown;
  const unary = <Req, Res>(method: string, req: Req): Promise<Res> => {
    const fn = (client as unknown as Record<string, Unary<Req, Res>>)[method];
    if (!fn) throw new Error(`ResourceProvider has no method ${method}`);
    return new Promise((resolve, reject) =>
      fn.call(client, req, (err, res) =>
        err ? reject(new ProviderRpcError(method, err.code, err.details, initFailureOf(err))) : resolve(res),
      ),
    );
  };

  return {
    async getPluginInfo() {
      return (await unary<Empty, { getVersion(): string }>("getPluginInfo", new Empty())).getVersion();
    },
    async getSchema() {
      const req = new provproto.GetSchemaRequest();
      return (
        await unary<provproto.GetSchemaRequest, provproto.GetSchemaResponse>("getSchema", req)
      ).getSchema();
    },
    async checkConfig(urn, news) {
      const req = addressed(new provproto.CheckRequest(), urn).setOlds(toStruct({})).setNews(toStruct(news));
      return checkOf(await unary<provproto.CheckRequest, provproto.CheckResponse>("checkConfig", req));
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
      return checkOf(await unary<provproto.CheckRequest, provproto.CheckResponse>("check", req));
    },
    async diff(id, urn, olds, news, oldInputs) {
      const req = addressed(new provproto.DiffRequest(), urn)
        .setId(id)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news));
      if (oldInputs) req.setOldInputs(toStruct(oldInputs));
      return diffOf(await unary<provproto.DiffRequest, provproto.DiffResponse>("diff", req));
    },
    async create(urn, properties, { timeoutSeconds = 0, preview = false } = {}) {
      const req = addressed(new provproto.CreateRequest(), urn)
        .setProperties(toStruct(properties))
        .setTimeout(timeoutSeconds)
        .setPreview(preview);
      const res = await unary<provproto.CreateRequest, provproto.CreateResponse>("create", req);
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },
    async read(id, urn, properties, inputs) {
      const req = addressed(new provproto.ReadRequest(), urn).setId(id);
      if (properties) req.setProperties(toStruct(properties));
      if (inputs) req.setInputs(toStruct(inputs));
      const res = await unary<provproto.ReadRequest, provproto.ReadResponse>("read", req);
      return {
        id: res.getId(),
        properties: fromStruct(res.getProperties()),
        inputs: res.hasInputs() ? fromStruct(res.getInputs()) : undefined,
      };
    },
    async update(id, urn, olds, news, { oldInputs, preview = false } = {}) {
      const req = addressed(new provproto.UpdateRequest(), urn)
        .setId(id)
        .setOlds(toStruct(olds))
        .setNews(toStruct(news))
        .setPreview(preview);
      if (oldInputs) req.setOldInputs(toStruct(oldInputs));
      const res = await unary<provproto.UpdateRequest, provproto.UpdateResponse>("update", req);
      return { properties: fromStruct(res.getProperties()) };
    },
    async delete(id, urn, properties, oldInputs) {
      const req = addressed(new provproto.DeleteRequest(), urn).setId(id).setProperties(toStruct(properties));
      if (oldInputs) req.setOldInputs(toStruct(oldInputs));
      await unary("delete", req);
    },
    async invoke(token, args) {
      const req = new provproto.InvokeRequest().setTok(token).setArgs(toStruct(args));
      return fromStruct(
        (await unary<provproto.InvokeRequest, provproto.InvokeResponse>("invoke", req)).getReturn(),
      );
    },
    async cancel() {
      await unary("cancel", new Empty());
    },
    close: () => client.close(),
  };
}

export interface ProviderProcessOptions {
  /** The provider's working directory (the engine starts plugins in the program's directory). */
  cwd: string;
  /** The whole environment of the process. */
  env: NodeJS.ProcessEnv;
  /** What the provider printed after its port line, as it comes. */
  onOutput?: (stream: "stdout" | "stderr", text: string) => void;
}

/** A provider process, its client, and what it printed on stderr. */
export interface ProviderProcess extends ProviderClient {
  readonly port: number;
  readonly pid: number | undefined;
  stderr(): string;
  /** Closes the channel and ends the process (SIGTERM); idempotent. */
  close(): Promise<void>;
}

/** Starts `script` (a provider) with `argv` as the engine does, reads its port, and connects to it. */
export async function startProviderProcess(
  script: string,
  argv: string[],
  options: ProviderProcessOptions,
): Promise<ProviderProcess> {
  const proc: TetheredChild = spawnTethered(script, argv, { cwd: options.cwd, env: options.env });
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    options.onOutput?.("stderr", d.toString());
  });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      let buffered = "";
      const onData = (chunk: Buffer): void => {
        buffered += chunk.toString();
        const nl = buffered.indexOf("\n");
        if (nl < 0) return;
        proc.stdout.off("data", onData);
        proc.off("exit", onExit);
        const rest = buffered.slice(nl + 1);
        if (rest) options.onOutput?.("stdout", rest);
        proc.stdout.on("data", (d: Buffer) => options.onOutput?.("stdout", d.toString()));
        resolve(Number(buffered.slice(0, nl).trim()));
      };
      const onExit = (code: number | null): void =>
        reject(new Error(`${script} exited (code ${code}) before printing its port: ${stderr}`));
      proc.stdout.on("data", onData);
      proc.once("exit", onExit);
    });
  } catch (error) {
    proc.kill("SIGKILL");
    throw error;
  }
  const client = connectProvider(port);
  let closing: Promise<void> | undefined;
  return {
    ...client,
    port,
    pid: proc.pid,
    stderr: () => stderr,
    close: () =>
      (closing ??= (async () => {
        client.close();
        if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
        await exited;
      })()),
  };
}
