/**
 * The script a startup snapshot is made from (plugin-executable.ts): the plugin's bundle, behind a prelude that
 * stands in for the built-in modules Node's snapshot builder cannot hold.
 *
 * `node --build-sea` with `"useSnapshot": true` runs the bundle once at build time and stores the heap it leaves;
 * the executable starts from that heap and runs the function the bundle registered
 * (`v8.startupSnapshot.setDeserializeMainFunction`, provider/native/main.ts), so it skips parsing, compiling and
 * evaluating gRPC and the protocol's stubs. But loading `http`, `https`, `http2` or `tls` while the snapshot is
 * made leaves handles V8 cannot serialize, and the build aborts (`CheckGlobalAndEternalHandles`,
 * nodejs/node#48672); gRPC loads http2, http and tls at its top level. So, as eggjs and mongosh do, while the
 * snapshot is made the bundle's `require` gives those modules a stand-in: its plain data (`http2.constants`,
 * `http.METHODS`, read from the same node beforehand, so the values are the real ones) answers at once, and
 * anything else throws, naming what was asked for. After the restore (a deserialize callback, which Node runs before
 * the main function) the stand-in forwards every access to the real module, loaded then.
 *
 * Loading `tls` (which `http2` loads, so gRPC's server does) also starts a thread that parses Node's bundled CA
 * certificates (about 140) into its trust store, so that the first TLS connection need not: about 12 ms of the CPU of
 * each start of the plugin (docs/benchmarks.md), though its first answer, and most of its starts, make no TLS
 * connection. While the snapshot is made, the prelude puts a no-op in place of the function of Node's crypto binding
 * that `tls` calls to start it (DEFERRED_CA_LOADING); the binding, with it, is in the heap the executable starts
 * from, and `tls` takes its functions from there when it loads. The first TLS connection (to the API) then loads the
 * same certificates on the main thread, as Node does when the thread has not run: the CAs trusted do not change
 * (NODE_EXTRA_CA_CERTS included; test/engine/release-plugin.test.ts). Node's binding is internal: the node that makes
 * the snapshot runs with `--expose-internals` (SNAPSHOT_BUILD_FLAGS), and the build fails, naming it, if the
 * function is gone. The snapshot keeps what that option opens (Node's `require` gives `internal/` modules in the
 * executable too), so the `require` the prelude gives the bundle refuses them, as a node without it does.
 *
 * Two builds must write the same bytes: the snapshot would hold the building process's id (Node's `process.pid`,
 * set again at start), so it is cleared before the heap is written, and the path of the script, which the heap
 * holds too, is a fixed one (plugin-executable.ts).
 */

/** The built-ins that cannot be loaded while a snapshot is made (each tried alone on Node 26: the rest can). */
export const SNAPSHOT_LAZY_MODULES = ["http", "https", "http2", "tls"] as const;

/**
 * A script for the target's node to print the stand-ins' data: each lazy module's own keys, and the values of those
 * that are plain data (numbers, strings, and arrays or objects of them; small: `tls.rootCertificates` stays out).
 */
export const SNAPSHOT_DATA_SCRIPT = `
const plain = (v) => v === null || ["string", "number", "boolean"].includes(typeof v);
const out = {};
for (const id of ${JSON.stringify(SNAPSHOT_LAZY_MODULES)}) {
  const m = require(id);
  const data = {};
  for (const k of Object.keys(m)) {
    const v = m[k];
    const ok = plain(v) || (v && typeof v === "object" && (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype) && Object.values(v).every(plain));
    if (ok && JSON.stringify(v).length < 16384) data[k] = v;
  }
  out[id] = { keys: Object.keys(m), data };
}
process.stdout.write(JSON.stringify(out));
`;

/**
 * The function of Node's crypto binding that `tls` calls as it loads to parse the bundled CA certificates on a thread
 * of their own (Node 26's lib/tls.js), and the module that gives the binding to a node run with `--expose-internals`.
 */
export const DEFERRED_CA_LOADING = {
  module: "internal/test/binding",
  binding: "crypto",
  function: "startLoadingCertificatesOffThread",
} as const;

export type SnapshotData = Record<string, { keys: string[]; data: Record<string, unknown> }>;

/** The snapshot's main script: `bundle` (the plugin's CommonJS bundle) run with the stand-ins in its `require`. */
export function snapshotEntry(bundle: string, data: SnapshotData): string {
  // The bundle runs in a function of its own (its names cannot meet the prelude's), strict as it asks.
  return `(function (require, module, exports) {
${bundle}
})((function (nodeRequire) {
const lazy = ${JSON.stringify(data)};
let restored = false;
const { startupSnapshot } = require("node:v8");
startupSnapshot.addDeserializeCallback(() => { restored = true; });
// The snapshot would keep the building process's ids; Node sets them afresh at every start.
startupSnapshot.addSerializeCallback(() => {
  for (const id of ["pid", "ppid"])
    Object.defineProperty(process, id, { value: 0, writable: false, enumerable: true, configurable: true });
});
// Node's CA certificates load at the first TLS connection, not on a thread when tls loads (see above). The module
// that gives the binding warns that it is internal; the warning would only reach the build's log.
{
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  const crypto = nodeRequire(${JSON.stringify(DEFERRED_CA_LOADING.module)}).internalBinding(${JSON.stringify(DEFERRED_CA_LOADING.binding)});
  process.emitWarning = emitWarning;
  if (typeof crypto[${JSON.stringify(DEFERRED_CA_LOADING.function)}] !== "function")
    throw new Error("this node's crypto binding has no ${DEFERRED_CA_LOADING.function} (tools/release/snapshot-entry.ts)");
  crypto[${JSON.stringify(DEFERRED_CA_LOADING.function)}] = function loadedAtFirstTlsConnection() {};
}
const real = (id) => nodeRequire(id);
const standIns = new Map();
function standIn(id) {
  if (!standIns.has(id)) {
    const { keys, data } = lazy[id];
    const early = (p) => {
      if (Object.prototype.hasOwnProperty.call(data, p)) return data[p];
      if (p === "__esModule" || p === "default" || typeof p === "symbol") return undefined;
      throw new Error("node:" + id + "." + String(p) + " was used while the startup snapshot was made; it can only be used once the plugin runs (tools/release/snapshot-entry.ts)");
    };
    standIns.set(id, new Proxy({}, {
      get: (_, p) => (restored ? real(id)[p] : early(p)),
      set: (_, p, v) => { if (!restored) early(p); real(id)[p] = v; return true; },
      has: (_, p) => (restored ? p in real(id) : keys.includes(p)),
      ownKeys: () => (restored ? Reflect.ownKeys(real(id)) : [...keys]),
      getOwnPropertyDescriptor: (_, p) =>
        (restored ? Object.prototype.hasOwnProperty.call(real(id), p) : keys.includes(p))
          ? { configurable: true, enumerable: true, get: () => (restored ? real(id)[p] : early(p)) }
          : undefined,
    }));
  }
  return standIns.get(id);
}
return (id) => {
  const name = id.startsWith("node:") ? id.slice(5) : id;
  // The builder's --expose-internals stays in the snapshot: the bundle (and the parts it evaluates with this require)
  // gets what a node without it gives.
  if (name.startsWith("internal/"))
    throw Object.assign(new Error("No such built-in module: " + id), { code: "ERR_UNKNOWN_BUILTIN_MODULE" });
  return Object.prototype.hasOwnProperty.call(lazy, name) ? standIn(name) : nodeRequire(id);
};
})(require), { exports: {} }, {});
`;
}
