// Drives the REAL dynamic-provider host (`node @pulumi/pulumi/cmd/dynamic-provider <engineAddress>`) over gRPC with the
// SDK's own generated stubs (provider-client.ts), exactly the way the Pulumi engine starts and calls it
// (docs/dynamic-providers.md §4): argv = [engineAddress] (never dialled), cwd = the program directory (the serialized
// provider's require()s resolve from there), env PULUMI_NODEJS_PROJECT / PULUMI_PROJECT / PULUMI_CONFIG, the port is
// the first stdout line.
import { startProviderProcess, type ProviderProcess } from "./provider-client";

export {
  nameOfUrn,
  typeOfUrn,
  ProviderRpcError,
  type CheckResult,
  type DiffResult,
  type InitFailure,
  type PropertyMap,
  type ReadResult,
} from "./provider-client";

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

/** The host; configure() without arguments sends the stack config it was started with, as the engine does. */
export interface ProviderHost extends Omit<ProviderProcess, "configure"> {
  configure(config?: Record<string, string>): Promise<{ acceptSecrets: boolean; supportsPreview: boolean }>;
}

/** Starts the host and connects to it. Call configure() before anything else, as the engine does. */
export async function startProviderHost(options: ProviderHostOptions): Promise<ProviderHost> {
  // Like the engine's pulumi-resource-pulumi-nodejs plugin: the host comes from the program's own SDK.
  const script = require.resolve("@pulumi/pulumi/cmd/dynamic-provider", { paths: [options.cwd] });
  const host = await startProviderProcess(script, [options.engineAddress ?? "127.0.0.1:1"], {
    cwd: options.cwd,
    env: {
      ...process.env,
      ...options.env,
      PULUMI_NODEJS_PROJECT: options.project,
      PULUMI_PROJECT: options.project,
      PULUMI_CONFIG: JSON.stringify(options.config),
    },
    onOutput: options.onOutput,
  });
  return { ...host, configure: (config = options.config) => host.configure(config) };
}
