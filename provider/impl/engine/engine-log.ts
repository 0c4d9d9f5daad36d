/**
 * Diagnostics attached to a resource, through the engine's own Log RPC (pulumirpc.Engine/Log with a URN).
 *
 * What a provider prints goes to the engine as diagnostics of the stack; a Log call that names the resource's
 * URN is shown on the resource's row and under its name in "Diagnostics:", with its severity ("warning:").
 * The dynamic-provider host gets the engine's address as its first argument but never connects to it
 * (docs/dynamic-providers.md §4, §10), so this module does, lazily, with the gRPC stubs of the very
 * `@pulumi/pulumi` copy that runs the host. The native plugin, bundled without node_modules, sends through the
 * same client (engineLogClient) with the stubs it was bundled with (provider/native/engine-log.ts).
 */
import { createRequire } from "node:module";

export type Severity = "info" | "warning" | "error";

/** Sends one diagnostic for a resource; resolves to whether the engine took it (false: show it another way). */
export type EngineLog = (urn: string, severity: Severity, message: string) => Promise<boolean>;

/** How long a diagnostic may take to reach the engine before it is shown another way. */
const LOG_DEADLINE_MS = 5_000;

/** The parts of the SDK's gRPC stubs a Log call needs. */
export interface LogStubs {
  grpc: {
    credentials: { createInsecure(): unknown };
    Metadata: new () => unknown;
  };
  engineClient: new (
    address: string,
    credentials: unknown,
  ) => {
    close(): void;
    log(
      request: unknown,
      metadata: unknown,
      options: { deadline: number },
      done: (error: Error | null) => void,
    ): void;
  };
  logRequest: new () => {
    setSeverity(value: number): void;
    setMessage(value: string): void;
    setUrn(value: string): void;
    setStreamid(value: number): void;
    setEphemeral(value: boolean): void;
  };
  severities: { INFO: number; WARNING: number; ERROR: number };
}

/** A module of the @pulumi/pulumi that `from` resolves (the host's own copy), or undefined when there is none. */
export function hostSdkModule(from: string, id: string): unknown {
  try {
    const load = createRequire(from);
    return createRequire(load.resolve("@pulumi/pulumi/package.json"))(id);
  } catch {
    return undefined; // no SDK next to the host
  }
}

/** The SDK's gRPC stubs, loaded from the @pulumi/pulumi that `from` resolves (the host's own copy). */
function loadStubs(from: string): LogStubs | undefined {
  const engineGrpc = hostSdkModule(from, "./proto/engine_grpc_pb") as
    { EngineClient: LogStubs["engineClient"] } | undefined;
  const engineProto = hostSdkModule(from, "./proto/engine_pb") as
    { LogRequest: LogStubs["logRequest"]; LogSeverity: LogStubs["severities"] } | undefined;
  const grpc = hostSdkModule(from, "@grpc/grpc-js") as LogStubs["grpc"] | undefined;
  if (!engineGrpc || !engineProto || !grpc) return undefined; // the caller prints instead
  return {
    grpc,
    engineClient: engineGrpc.EngineClient,
    logRequest: engineProto.LogRequest,
    severities: engineProto.LogSeverity,
  };
}

/** An EngineLog over a connection to `address` (host:port), or undefined when the SDK's stubs cannot load. */
export function connectEngineLog(address: string, from: string = process.cwd() + "/"): EngineLog | undefined {
  const stubs = loadStubs(from);
  return stubs ? engineLogClient(stubs, address) : undefined;
}

const SEVERITY_OF: Record<Severity, keyof LogStubs["severities"]> = {
  info: "INFO",
  warning: "WARNING",
  error: "ERROR",
};

/**
 * An EngineLog over a connection to `address` (host:port) made with `stubs`; each call waits LOG_DEADLINE_MS at most.
 * The gRPC client is made with the first message, not here: the native plugin makes this as it starts, and making a
 * client (its channel, name resolver and load balancer, on client code the release's startup snapshot does not hold
 * compiled) took about 4 ms of CPU of the plugin's first answer, which logs nothing (docs/releasing.md, "Start-up").
 */
export function engineLogClient(stubs: LogStubs, address: string): EngineLog & { close(): void } {
  let client: InstanceType<LogStubs["engineClient"]> | undefined;
  const send: EngineLog = (urn, severity, message) =>
    new Promise((resolve) => {
      try {
        client ??= new stubs.engineClient(address, stubs.grpc.credentials.createInsecure());
      } catch {
        return resolve(false); // an address gRPC cannot take: not taken, as when the engine cannot be reached
      }
      const request = new stubs.logRequest();
      request.setSeverity(stubs.severities[SEVERITY_OF[severity]]);
      request.setMessage(message);
      request.setUrn(urn);
      request.setStreamid(0);
      request.setEphemeral(false);
      // A diagnostic that cannot be delivered is not worth failing a preview over: the caller prints it instead.
      client.log(request, new stubs.grpc.Metadata(), { deadline: Date.now() + LOG_DEADLINE_MS }, (error) =>
        resolve(error === null || error === undefined),
      );
    });
  return Object.assign(send, { close: () => client?.close() });
}

/**
 * The dynamic-provider host this module runs in: its main script and the engine's address (its first argument,
 * docs/dynamic-providers.md §4); undefined anywhere else (a test, a program).
 */
export function dynamicHost(): { main: string; address: string } | undefined {
  const main = require.main?.filename ?? "";
  const address = process.argv[2];
  const inHost = /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(main);
  return inHost && address && /^[\w.[\]:-]+:\d+$/.test(address) ? { main, address } : undefined;
}

/**
 * A connection to the engine's log of the dynamic-provider host this module runs in, or undefined anywhere else. The
 * run keeps the one it opens (notes.ts): a host serves one run.
 */
export function dynamicHostEngineLog(): EngineLog | undefined {
  const host = dynamicHost();
  return host ? connectEngineLog(host.address, host.main) : undefined;
}
