/**
 * The ONLY object Pulumi serializes (into every Vps's `__provider`). It captures nothing: each method
 * requires the implementation package by name, lazily, inside the method. The closure serializer treats
 * `require` as a builtin, so the text holds just `require("pulumi-rimuhosting/impl")`, which the
 * dynamic-provider host resolves from the program's node_modules (docs/dynamic-providers.md §3, §8.6).
 *
 * Rules for this file: an object literal with method shorthand (no arrow-function fields, no classes),
 * no imports used at run time, no module-level values referenced from the methods.
 */
import type * as pulumi from "@pulumi/pulumi";

type Impl = typeof import("./impl/index.js");

export const vpsShim: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    const impl = require("pulumi-rimuhosting/impl") as Impl;
    return impl.configure(req);
  },
  async check(olds, news) {
    const impl = require("pulumi-rimuhosting/impl") as Impl;
    return impl.check(olds, news);
  },
  async diff(id, olds, news) {
    const impl = require("pulumi-rimuhosting/impl") as Impl;
    return impl.diff(id, olds, news);
  },
  async create(inputs) {
    const impl = require("pulumi-rimuhosting/impl") as Impl;
    return impl.create(inputs);
  },
  async read(id, props) {
    const impl = require("pulumi-rimuhosting/impl") as Impl;
    return impl.read(id, props);
  },
  async update(id, olds, news) {
    const impl = require("pulumi-rimuhosting/impl") as Impl;
    return impl.update(id, olds, news);
  },
  async delete(id, props) {
    const impl = require("pulumi-rimuhosting/impl") as Impl;
    return impl.delete(id, props);
  },
};
