/**
 * Loads a serialized provider text in a fresh process EXACTLY like the dynamic-provider host's
 * getProvider() (require-from-string, then configure() with the host's own Config class), then runs a
 * whole lifecycle through it and prints one JSON line per step. cwd must be the program directory
 * (the text's require()s resolve from there). Run as built JS in a plain node child on purpose: the text's
 * require("pulumi-rimuhosting/impl") must load the built package, as in a user's provider host.
 *
 *   RIMU_STACK_CONFIG='{"rimuhosting:apiKey":"…","rimuhosting:baseUrl":"http://127.0.0.1:…/r"}' \
 *     node dist/test/helpers/run-serialized-provider.js provider.js web1.example.com
 */
import { readFileSync } from "node:fs";
import type * as pulumi from "@pulumi/pulumi";

type Provider = Required<pulumi.dynamic.ResourceProvider>;

const requireFromString = require("require-from-string") as (code: string) => { handler(): Provider };
const { Config } = require("@pulumi/pulumi/cmd/dynamic-provider/config") as {
  Config: new (raw: Record<string, string>, project: string) => pulumi.dynamic.Config;
};

function step(name: string, data: Record<string, unknown>): void {
  console.log(JSON.stringify({ step: name, ...data }));
}

async function main(): Promise<void> {
  const [file, domainName = "l2.example.com"] = process.argv.slice(2);
  if (!file) throw new Error("usage: run-serialized-provider <provider.js> [domainName]");
  const text = readFileSync(file, "utf8");
  const provider = requireFromString(text).handler();
  const loaded = Object.keys(provider).sort();
  const raw = JSON.parse(process.env.RIMU_STACK_CONFIG ?? "{}") as Record<string, string>;
  // The host does not wait for configure() before a concurrent operation may use the cached provider, so the
  // methods must be there as soon as configure() returns its promise (before its first await).
  const configured = provider.configure({ config: new Config(raw, "rimuhosting-l2") });
  step("load", { methods: loaded, methodsOnceConfiguring: Object.keys(provider).sort() });
  await configured;

  const inputs = {
    domainName,
    distro: "deb12.64",
    dcLocation: "DCDALLAS",
    memoryMb: 1024,
    diskSpaceMb: 8192,
    __provider: text,
  };
  const checked = await provider.check({}, inputs);
  step("check", { failures: checked.failures ?? [] });
  const created = await provider.create(checked.inputs);
  step("create", {
    id: created.id,
    memoryMb: created.outs.memoryMb,
    runningState: created.outs.runningState,
    hasPassword: typeof created.outs.password === "string",
  });

  const news = { ...inputs, memoryMb: 2048, runningState: "NOTRUNNING" };
  const diffed = await provider.diff(created.id, created.outs, news);
  step("diff", { changes: diffed.changes, replaces: diffed.replaces ?? [] });
  const updated = await provider.update(created.id, created.outs, news);
  step("update", { memoryMb: updated.outs.memoryMb, runningState: updated.outs.runningState });

  const refreshed = await provider.read(created.id, updated.outs);
  step("read", {
    id: refreshed.id,
    memoryMb: refreshed.props?.memoryMb,
    runningState: refreshed.props?.runningState,
  });

  await provider.delete(created.id, updated.outs);
  await provider.delete(created.id, updated.outs);
  step("delete", { twice: true });
  const gone = await provider.read(created.id, updated.outs);
  step("read-after-delete", { id: gone.id ?? null });

  // An error thrown through the serialized shim keeps its message (an Error class defined in serialized code would lose it).
  try {
    await provider.update("999999999", created.outs, news);
    step("error", { thrown: false });
  } catch (error) {
    const e = error as Error & { code?: string };
    step("error", { thrown: true, message: e.message, name: e.name, code: e.code ?? null });
  }
}

main().catch((error: unknown) => {
  const e = error as Error & { code?: string };
  console.log(JSON.stringify({ step: "fatal", message: e.message, code: e.code ?? null }));
  process.exitCode = 1;
});
