/**
 * What a previewed change will do and cost, shown through the native protocol's own preview signals: the
 * engine calls Create and Update with `preview` set (Configure answered `supportsPreview`), once per
 * resource, and only in a preview. That is where the dynamic path's `__preview` work happens here: the price
 * quote (impl/money.ts), the warnings a change deserves (attached to the resource through the engine's Log
 * RPC, engine-log.ts), and the outputs the change makes unknown (vps-resource.ts answers them as unknown, so
 * every output and resource built from them shows a pending change).
 *
 * `changeEffects()` is the one place that says what a change does to the running VPS, from impl's
 * computeChanges(). Issue 18 moves these effects into provider/impl as data (check/diff return them); when
 * it lands, this function becomes a read of impl's answer and the rendering below stays as it is.
 */
import type { RimuClient } from "../client/index.js";
import { clientFor, hasApiKey } from "../impl/runtime-config.js";
import { log } from "../impl/log.js";
import { previewCreatePrice, previewReplacePrice, previewResizePrice } from "../impl/money.js";
import { computeChanges } from "../impl/vps-changes.js";
import type { Bag } from "./protocol.js";

export interface ChangeEffects {
  /** What the user must know before approving the change (each shown as a warning on the resource). */
  warnings: string[];
  /** Outputs the change will give new values that nobody knows before it is made. */
  unknownOutputs: string[];
  /** The sizes a resize changes (quoted in the preview). */
  resized: string[];
}

/** The old outputs of each resource the last Diff said will be replaced, for the replacement's quote. */
const replacing = new Map<string, Bag>();

export function rememberReplacement(urn: string, oldOutputs: Bag): void {
  replacing.set(urn, oldOutputs);
}

/** What an in-place change of an existing VPS does (the engine replaces the VPS for a replace). */
export function changeEffects(id: string, olds: Bag, news: Bag): ChangeEffects {
  const changes = computeChanges(id, olds, news);
  const effects: ChangeEffects = { warnings: [], unknownOutputs: [], resized: changes.parameters };
  const unknown = new Set<string>();
  if (changes.reinstall.length > 0) {
    effects.warnings.push(
      `Vps ${id}: ${changes.reinstall.join(", ")} will reinstall the VPS: its disk is erased and everything on it is lost.`,
    );
    unknown.add("orderDescription");
  }
  if (changes.parameters.length > 0) {
    effects.warnings.push(`Vps ${id}: resizing (${changes.parameters.join(", ")}) restarts the VPS.`);
    for (const name of ["monthlyFeeUsd", "orderDescription"]) unknown.add(name);
  }
  if (changes.move) {
    effects.warnings.push(
      `Vps ${id}: moving it to host server ${String(news.hostServerOid)} may change its IP addresses ` +
        `(primaryIp and secondaryIps are known only after the move) and restarts it.`,
    );
    for (const name of ["primaryIp", "secondaryIps", "monthlyFeeUsd", "orderDescription"]) unknown.add(name);
  }
  effects.unknownOutputs = [...unknown];
  return effects;
}

/** A client for quotes, or undefined without an API key (the quote line then says so). */
function quoteClient(): RimuClient | undefined {
  return hasApiKey() ? clientFor("Quoting a Vps") : undefined;
}

/** Preview of a create: the new VPS's quote, or for a replacement the old and new price. */
export async function previewCreate(urn: string, inputs: Bag): Promise<void> {
  const olds = replacing.get(urn);
  replacing.delete(urn);
  if (olds) await previewReplacePrice(quoteClient(), olds, inputs);
  else await previewCreatePrice(quoteClient(), inputs);
}

/** Preview of an in-place update: the warnings of its effects, and a resize's price. */
export async function previewUpdate(
  _urn: string,
  olds: Bag,
  news: Bag,
  effects: ChangeEffects,
): Promise<void> {
  for (const warning of effects.warnings) log(`warning: ${warning}`);
  if (effects.resized.length > 0) await previewResizePrice(quoteClient(), olds, news, effects.resized);
}
