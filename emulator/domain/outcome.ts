/**
 * What a domain operation returns: the fields of its endpoint's response record and the
 * human-readable message. The envelope around them (status, times, response type) is the wire's
 * business (wire/envelope.ts), added when the answer is sent (http/send.ts).
 */
import type * as z from "zod";
import { type ENDPOINTS, Envelope, type EndpointName } from "../../contract/index.js";

type ShapeOf<N extends EndpointName> =
  (typeof ENDPOINTS)[N]["response"] extends z.ZodObject<infer S> ? S : never;

type FieldsOf<N extends EndpointName> = Omit<ShapeOf<N>, keyof typeof Envelope.shape>;

export type Outcome<N extends EndpointName> = (keyof FieldsOf<N> extends never
  ? unknown
  : z.infer<z.ZodObject<FieldsOf<N>>>) & { message: string | null };
