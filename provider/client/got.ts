/**
 * The one place the client loads got: from dist/vendor/got.cjs, got and its dependencies bundled into one CommonJS
 * file by `npm run build` (provider/native/vendor-got.ts). Node loads that file in about 0.08 CPU-s, got 14's tree
 * of ES modules in about 0.18, once per dynamic provider host; and a user installs no got (it is a devDependency,
 * for its types and the bundle). Only types come from the got package; they describe the same code.
 *
 * Under jest, which runs these sources and has no dist/, jest.config.js maps the bundle's path to the got package
 * (docs/testing.md lists what the harness changes). Everything built (the package, the CLI tests, the plugin's
 * bundle, which inlines this file) loads the bundle.
 */
import type * as GotModule from "got";

// A require, not an import: the path is the built tree's (dist/provider/client -> dist/vendor), and TypeScript must
// neither resolve it nor rewrite it.
const bundled = require("../../vendor/got.cjs") as typeof GotModule;

export const got = bundled.default;
export const RequestError = bundled.RequestError;
export type RequestError = GotModule.RequestError;
export const TimeoutError = bundled.TimeoutError;
export type TimeoutError = GotModule.TimeoutError;
export type { Got } from "got";
