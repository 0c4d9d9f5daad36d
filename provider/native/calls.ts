/**
 * The code behind the plugin's calls about its configuration and the Vps: the provider's settings, the Vps
 * lifecycle, and the protocol's conversions. server.ts evaluates this module with the first call that needs it, not
 * at start-up, so the engine's first call (GetPluginInfo) is answered without it; the functions (functions.ts: the
 * data sources, with @pulumi/pulumi) wait for the first Invoke.
 */
export { checkConfig, configureProvider, diffConfig } from "./provider-config.js";
export { fromStruct, typeOfUrn, toStruct, withSecretOutputs } from "./protocol.js";
export * as vps from "./vps-resource.js";
