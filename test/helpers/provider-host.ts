// Drives the REAL dynamic-provider host (`node @pulumi/pulumi/cmd/dynamic-provider <engineAddress>`) over gRPC with the
// SDK's own generated stubs, exactly the way the Pulumi engine starts and calls it (docs/dynamic-providers.md §4):
// argv = [engineAddress] (never dialled), cwd = the program directory (the serialized provider's require()s resolve
// from there), env PULUMI_NODEJS_PROJECT / PULUMI_PROJECT / PULUMI_CONFIG, the port is the first stdout line.
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { spawnTethered, type TetheredChild } from "./tethered-child";

/** A JSON object as carried in a google.protobuf.Struct. */
export type PropertyMap = Record<string, unknown>;

export interface ProviderHostOptions {
  /** The program directory: the engine starts plugins there. */
  cwd: string;
  /** Pulumi project name (PULUMI_NODEJS_PROJECT); `Config.get("k")` inside the provider means `<project>:k`. */
  project: string;
  /** The whole stack config with namespaced keys, secrets decrypted (what the engine sends). */
  config: Record<string, string>;
  /** Any address: the host requires the argument but never connects to it. Default "127.0.0.1:1". */
  engineAddress?: string;
  /** Extra environment for the host process (merged over process.env). */
  env?: NodeJS.ProcessEnv;
  /** Receives the host's stdout/stderr after the port line (the provider's console output). */
  onOutput?: (stream: "stdout" | "stderr", text: string) => void;
}

export interface CheckFailure {
  property: string;
  reason: string;
}
export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}
export type DiffChanges = "unknown" | "none" | "some";
export interface DiffResult {
  changes: DiffChanges;
  /** The top-level properties that differ (the response's `diffs`). */
  diffs: string[];
  replaces: string[];
  deleteBeforeReplace: boolean;
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

/** A gRPC error from the host, with the partial-failure details decoded when present. */
export class ProviderHostError extends Error {
  constructor(
    readonly method: string,
    readonly grpcCode: number,
    readonly details: string,
    readonly initFailure?: InitFailure,
  ) {
    super(details || `${method} failed with gRPC status ${grpcCode}`);
    this.name = "ProviderHostError";
  }
}

export interface ProviderHost {
  readonly port: number;
  readonly pid: number | undefined;
  configure(config?: Record<string, string>): Promise<{ acceptSecrets: boolean; supportsPreview: boolean }>;
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
    timeoutSeconds?: number,
  ): Promise<{ id: string; properties: PropertyMap }>;
  read(id: string, urn: string, properties: PropertyMap, inputs?: PropertyMap): Promise<ReadResult>;
  update(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    oldInputs?: PropertyMap,
  ): Promise<{ properties: PropertyMap }>;
  delete(id: string, urn: string, properties: PropertyMap, oldInputs?: PropertyMap): Promise<void>;
  /** Closes the channel and ends the host process; idempotent. */
  close(): Promise<void>;
}

const INIT_FAILED_TYPE = "pulumirpc.ErrorResourceInitFailed";

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

function decodeInitFailure(err: grpc.ServiceError): InitFailure | undefined {
  const bin = err.metadata?.get("grpc-status-details-bin");
  const first = bin?.[0];
  if (!first || typeof first === "string") return undefined;
  const status = statusproto.Status.deserializeBinary(first);
  for (const any of status.getDetailsList()) {
    if (any.getTypeName() !== INIT_FAILED_TYPE) continue;
    const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
    return {
      id: detail.getId(),
      properties: fromStruct(detail.getProperties()),
      reasons: detail.getReasonsList(),
    };
  }
  return undefined;
}

type Unary<Req, Res> = (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown;

function unary<Req, Res>(client: provrpc.ResourceProviderClient, method: string, req: Req): Promise<Res> {
  const fn = (client as unknown as Record<string, Unary<Req, Res>>)[method];
  if (!fn) throw new Error(`ResourceProvider has no method ${method}`);
  return new Promise((resolve, reject) =>
    fn.call(client, req, (err, res) =>
      err
        ? reject(new ProviderHostError(method, err.code, err.details, decodeInitFailure(err)))
        : resolve(res),
    ),
  );
}

function firstLine(proc: TetheredChild, stderrSoFar: () => string): Promise<{ line: string; rest: string }> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString();
      const nl = buffered.indexOf("\n");
      if (nl < 0) return;
      proc.stdout?.off("data", onData);
      proc.off("exit", onExit);
      resolve({ line: buffered.slice(0, nl).trim(), rest: buffered.slice(nl + 1) });
    };
    const onExit = (code: number | null): void =>
      reject(
        new Error(`dynamic-provider host exited (code ${code}) before printing its port: ${stderrSoFar()}`),
      );
    proc.stdout?.on("data", onData);
    proc.once("exit", onExit);
  });
}

/** Starts the host and connects to it. Call configure() before anything else, as the engine does. */
export async function startProviderHost(options: ProviderHostOptions): Promise<ProviderHost> {
  // Like the engine's pulumi-resource-pulumi-nodejs plugin: the host comes from the program's own SDK.
  const script = require.resolve("@pulumi/pulumi/cmd/dynamic-provider", { paths: [options.cwd] });
  const proc = spawnTethered(script, [options.engineAddress ?? "127.0.0.1:1"], {
    cwd: options.cwd,
    env: {
      ...process.env,
      ...options.env,
      PULUMI_NODEJS_PROJECT: options.project,
      PULUMI_PROJECT: options.project,
      PULUMI_CONFIG: JSON.stringify(options.config),
    },
  });
  let stderr = "";
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
    options.onOutput?.("stderr", d.toString());
  });
  let port: number;
  try {
    const first = await firstLine(proc, () => stderr);
    port = Number(first.line);
    if (first.rest) options.onOutput?.("stdout", first.rest);
  } catch (e) {
    proc.kill("SIGKILL");
    throw e;
  }
  proc.stdout?.on("data", (d: Buffer) => options.onOutput?.("stdout", d.toString()));
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  let closed = false;

  return {
    port,
    pid: proc.pid,
    async configure(config = options.config) {
      const req = new provproto.ConfigureRequest();
      req.setArgs(toStruct(config));
      req.setAcceptsecrets(true);
      req.setAcceptresources(true);
      const res = await unary<provproto.ConfigureRequest, provproto.ConfigureResponse>(
        client,
        "configure",
        req,
      );
      return { acceptSecrets: res.getAcceptsecrets(), supportsPreview: res.getSupportspreview() };
    },
    async check(urn, olds, news) {
      const req = addressed(new provproto.CheckRequest(), urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await unary<provproto.CheckRequest, provproto.CheckResponse>(client, "check", req);
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(id, urn, olds, news, oldInputs) {
      const req = addressed(new provproto.DiffRequest(), urn);
      req.setId(id);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      if (oldInputs) req.setOldInputs(toStruct(oldInputs));
      const res = await unary<provproto.DiffRequest, provproto.DiffResponse>(client, "diff", req);
      const changes = res.getChanges();
      const D = provproto.DiffResponse.DiffChanges;
      return {
        changes: changes === D.DIFF_NONE ? "none" : changes === D.DIFF_SOME ? "some" : "unknown",
        diffs: res.getDiffsList(),
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
      };
    },
    async create(urn, properties, timeoutSeconds = 0) {
      const req = addressed(new provproto.CreateRequest(), urn);
      req.setProperties(toStruct(properties));
      req.setTimeout(timeoutSeconds);
      const res = await unary<provproto.CreateRequest, provproto.CreateResponse>(client, "create", req);
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },
    async read(id, urn, properties, inputs) {
      const req = addressed(new provproto.ReadRequest(), urn);
      req.setId(id);
      req.setProperties(toStruct(properties));
      if (inputs) req.setInputs(toStruct(inputs));
      const res = await unary<provproto.ReadRequest, provproto.ReadResponse>(client, "read", req);
      return {
        id: res.getId(),
        properties: fromStruct(res.getProperties()),
        inputs: res.hasInputs() ? fromStruct(res.getInputs()) : undefined,
      };
    },
    async update(id, urn, olds, news, oldInputs) {
      const req = addressed(new provproto.UpdateRequest(), urn);
      req.setId(id);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      if (oldInputs) req.setOldInputs(toStruct(oldInputs));
      const res = await unary<provproto.UpdateRequest, provproto.UpdateResponse>(client, "update", req);
      return { properties: fromStruct(res.getProperties()) };
    },
    async delete(id, urn, properties, oldInputs) {
      const req = addressed(new provproto.DeleteRequest(), urn);
      req.setId(id);
      req.setProperties(toStruct(properties));
      if (oldInputs) req.setOldInputs(toStruct(oldInputs));
      await unary(client, "delete", req);
    },
    async close() {
      if (closed) return exited;
      closed = true;
      client.close();
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      return exited;
    },
  };
}
