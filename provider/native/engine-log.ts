/**
 * Provider messages through the engine's Log RPC, attached to the resource they are about.
 *
 * The dynamic-provider host can only print, and the engine shows a plugin's printed lines as messages of no
 * resource. A native plugin gets the engine's address as its first argument and can call its Log RPC with
 * the resource's URN, so "Vps 1234: ordered web1.example.com" and a warning of a preview show under that
 * Vps. provider/impl writes every line through one sink (impl/engine/log.ts); while a request runs, `withResource`
 * says which URN it is about (AsyncLocalStorage: the engine runs requests for several resources at once).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as grpc from "@grpc/grpc-js";
import type * as EngineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as EngineProto from "@pulumi/pulumi/proto/engine_pb";
import { engineLogClient, type LogStubs, type Severity } from "../impl/engine/engine-log.js";
import { lazyModule } from "./lazy-module.js";

export type { Severity };

/**
 * The engine's stubs this plugin is bundled with, loaded with the first message (impl's Log client reads them only
 * then): the first answer sends none, and what the plugin evaluates to start is what the release's startup snapshot
 * holds (service-definition.ts).
 */
const engineStubs = lazyModule("engine's messages", () => ({
  rpc: require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof EngineRpc,
  proto: require("@pulumi/pulumi/proto/engine_pb") as typeof EngineProto,
}));

/** The stubs for impl's Log client (the dynamic host loads its own copy's). */
const BUNDLED_STUBS = {
  grpc,
  get engineClient() {
    return engineStubs().rpc.EngineClient;
  },
  get logRequest() {
    return engineStubs().proto.LogRequest;
  },
  get severities() {
    return engineStubs().proto.LogSeverity;
  },
} as unknown as LogStubs;

const current = new AsyncLocalStorage<{ urn: string }>();

/** Runs `work` with log lines attached to `urn`. */
export function withResource<T>(urn: string, work: () => Promise<T>): Promise<T> {
  return current.run({ urn }, work);
}

/** The plugin's log: impl's lines and notes, sent to the engine's Log RPC one at a time (impl's EngineLog). */
export interface PluginLog {
  /** Sends one message, attached to the current resource (or to none). Never throws. */
  log(severity: Severity, message: string, urn?: string): void;
  /** Waits for the messages sent so far (so they are shown before the response they belong to). */
  flush(): Promise<void>;
  close(): void;
}

/**
 * Per process on purpose: the log startPluginLog() started, which sendNote() sends through: the plugin's one
 * connection to the engine that started it, opened as its server starts.
 */
let active: PluginLog | undefined;

/** Sends one message with its severity, attached to the current resource (to stderr before the engine connects). */
export function sendNote(severity: Severity, message: string): void {
  if (active) active.log(severity, message);
  else process.stderr.write(`${severity}: ${message}\n`);
}

/** Sends impl's notes (checkVps, diffVps: warnings and prices) as they are, severity included. */
export function sendNotes(notes: readonly { severity: Severity; text: string }[]): void {
  for (const note of notes) sendNote(note.severity, note.text);
}

/**
 * Connects to the engine and routes impl's log lines to it. Without an engine address (tests that drive the
 * server directly), lines go to stderr, which the engine would show as plain messages.
 */
export function startPluginLog(engineAddress: string | undefined): PluginLog {
  const send = engineAddress ? engineLogClient(BUNDLED_STUBS, engineAddress) : undefined;
  // One message at a time, in order: sent concurrently, the engine could show them in any order.
  let sent = Promise.resolve();
  const engineLog: PluginLog = {
    log(severity, message, urn = current.getStore()?.urn ?? "") {
      if (!send) {
        process.stderr.write(`${severity}: ${message}${urn ? ` (${urn})` : ""}\n`);
        return;
      }
      // A message the engine cannot take (or not within impl's deadline) is dropped: logging must never fail an
      // operation.
      sent = sent.then(() => send(urn, severity, message).then(() => undefined));
    },
    flush() {
      return sent;
    },
    close() {
      send?.close();
    },
  };
  active = engineLog;
  return engineLog;
}
