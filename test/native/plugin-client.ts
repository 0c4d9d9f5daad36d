// Drives the REAL native plugin (`pulumi-resource-rimuhosting`, the built dist/provider/native/main.js, or the
// packed bundle) over gRPC with the SDK's own stubs (test/helpers/provider-client.ts), the way the Pulumi engine
// starts and calls it: argv = [the engine's address], the port is the first stdout line. A small Engine server
// stands in for the engine's Log RPC and records what the plugin says, with the URN of the resource each message is
// about.
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import * as path from "node:path";
import { startProviderProcess, type ProviderProcess } from "../helpers/provider-client";

export const ROOT = path.resolve(__dirname, "../..");
/** The built plugin (npm run build). */
export const BUILT_PLUGIN = path.join(ROOT, "dist/provider/native/main.js");

/** The first line a started plugin prints on stdout (its port); rejects, with `why()`, if it exits first. */
export function firstStdoutLine(
  child: ChildProcess & { stdout: Readable },
  why: () => string = () => "",
): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before printing a port${why()}`)));
  });
}

export interface LoggedMessage {
  severity: "debug" | "info" | "warning" | "error";
  message: string;
  urn: string;
}

export interface NativePlugin extends ProviderProcess {
  /** Everything the plugin sent to the engine's Log RPC, in order. */
  readonly messages: LoggedMessage[];
}

const SEVERITIES = ["debug", "info", "warning", "error"] as const;

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
  let plugin: ProviderProcess;
  try {
    plugin = await startProviderProcess(options.script ?? BUILT_PLUGIN, [`127.0.0.1:${enginePort}`], {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
    });
  } catch (error) {
    engine.forceShutdown();
    throw error;
  }
  return {
    ...plugin,
    messages,
    async close() {
      await plugin.close();
      engine.forceShutdown();
    },
  };
}

/** `urn:pulumi:<stack>::<project>::rimuhosting:index:Vps::<name>`. */
export const vpsUrn = (name: string, project = "native-l3", stack = "dev"): string =>
  `urn:pulumi:${stack}::${project}::rimuhosting:index:Vps::${name}`;
