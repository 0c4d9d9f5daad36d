// Preloaded (NODE_OPTIONS=--require, CliStack.commandEnv) into every node process the harness's `pulumi` commands
// start, and active only in the dynamic provider's host (@pulumi/pulumi/cmd/dynamic-provider): there
// `require("typescript")` answers a stand-in that loads TypeScript at its first use. The SDK's runtime
// (@pulumi/pulumi/runtime/closure, for serializing functions) requires all of TypeScript's 9 MB as it loads, and a
// host never serializes a function: a host's start to its port took 0.55 CPU-s with it, 0.26 without
// (docs/testing.md). A program is left as users run it: it uses TypeScript (ts-node), and a hook on its `require`
// would show in the stacks it records (test/engine/state-size.test.ts: a VPS's source position).
"use strict";
const Module = require("node:module");

/** The stand-in of each TypeScript module file, by path. */
const standIns = new Map();
const load = Module._load;

const isDynamicProviderHost = /[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(process.argv[1] ?? "");

if (isDynamicProviderHost)
  Module._load = function (request, parent, isMain) {
    if (request !== "typescript") return load.apply(this, arguments);
    const file = Module._resolveFilename(request, parent, isMain);
    let standIn = standIns.get(file);
    if (standIn === undefined) {
      standIn = lazyModule(() => load.call(Module, file, parent, false));
      standIns.set(file, standIn);
    }
    return standIn;
  };

/**
 * A proxy over an empty object that, at the first touch, gets the module's own properties as they are (getters
 * included) and from then on is that object: a proxy may only report what its target holds.
 */
function lazyModule(loadModule) {
  const target = {};
  let loaded = false;
  const real = () => {
    if (!loaded) {
      loaded = true;
      const exported = loadModule();
      Object.defineProperties(target, Object.getOwnPropertyDescriptors(exported));
      Object.setPrototypeOf(target, Object.getPrototypeOf(exported));
    }
    return target;
  };
  return new Proxy(target, {
    get: (_, key) => Reflect.get(real(), key),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
