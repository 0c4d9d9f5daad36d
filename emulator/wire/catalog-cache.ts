/**
 * The catalog answers (distributions, pricing plans, data centres) depend only on their matrix
 * parameters and the built-in catalog, never on the state, so their fields are rendered once per
 * parameter set and kept; only the envelope (its time) is rendered per answer.
 */
import { ENDPOINTS, type EndpointName } from "../../contract/index.js";
import type { Outcome } from "../domain/outcome.js";
import { renderAround } from "./render.js";

interface Rendered {
  message: string | null;
  /** The fields' JSON without the opening brace, closing the record and the root object. */
  rest: Buffer;
}

/** Parameter sets kept per endpoint; more than this start the cache afresh. */
const MAX_ENTRIES = 64;

export class CatalogCache {
  private readonly entries = new Map<string, Rendered>();

  /** The answer's parts; `compute` runs only for a parameter set not seen before. */
  render<N extends EndpointName>(name: N, key: string, nowMs: number, compute: () => Outcome<N>): Buffer[] {
    const id = `${name}\u0000${key}`;
    let rendered = this.entries.get(id);
    if (!rendered) {
      const { message, ...fields } = compute() as { message: string | null };
      const json = JSON.stringify(fields);
      rendered = { message, rest: Buffer.from(json === "{}" ? "}}" : `,${json.slice(1)}}`) };
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(id, rendered);
    }
    return renderAround(ENDPOINTS[name].rootKey, nowMs, rendered.message, rendered.rest);
  }
}
