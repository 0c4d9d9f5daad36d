/**
 * An engine's address to start a provider with: the engine passes its own as the provider's first argument, and a
 * provider may talk to it as it starts (ours watches it with gRPC health checks, impl/engine/engine-watch.ts; a
 * pulumi-go-provider dials it for logging). This is a gRPC server on 127.0.0.1 that answers those health checks
 * and tells `onCheck` of each; every other call gets gRPC's UNIMPLEMENTED.
 */
import * as grpc from "@grpc/grpc-js";

export interface StandInEngine {
  /** `127.0.0.1:<port>`, as the engine passes it. */
  address: string;
  close(): Promise<void>;
}

export async function standInEngine(onCheck: () => void = () => {}): Promise<StandInEngine> {
  const server = new grpc.Server();
  const bytes = (value: Buffer) => value;
  const check = {
    path: "/grpc.health.v1.Health/Check",
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes,
    requestDeserialize: bytes,
    responseSerialize: bytes,
    responseDeserialize: bytes,
  };
  server.addService(
    { check },
    {
      // An empty HealthCheckResponse: status UNKNOWN, which the watch reads as an answer like any other.
      check: (_call: unknown, callback: grpc.sendUnaryData<Buffer>) => {
        onCheck();
        callback(null, Buffer.alloc(0));
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}
