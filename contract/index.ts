/** The RimuHosting wire contract: zod schemas shared by the client and the emulator. */
export * from "./enums.js";
export * from "./common.js";
export * from "./records.js";
export * from "./requests.js";
export * from "./responses.js";
export * from "./endpoints.js";
export * from "./paths.js";
export * from "./limits.js";
