/**
 * The control API's OpenAPI 3.1 description (GET /__emulator/openapi.json), written from the table of its routes
 * (api.ts) and their zod schemas, whose JSON Schema is the dialect OpenAPI 3.1 uses.
 */
import * as z from "zod";
import { CONTROL_ROUTES, type ControlRouteSpec } from "./api.js";
import { ErrorEnvelope } from "./schemas.js";

export const CONTROL_PREFIX = "/__emulator";

/**
 * A zod schema as an OpenAPI 3.1 schema object (JSON Schema 2020-12 without its `$schema` line). A transform's output
 * has no JSON Schema (zod writes `{}`, any value); in the contract each is one member of a union whose other member
 * is the type it outputs (a number sent as text read as a number), so such a `{}` member is left out.
 */
export function schemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return withoutAnyMembers(rest) as Record<string, unknown>;
}

function withoutAnyMembers(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutAnyMembers);
  if (typeof node !== "object" || node === null) return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withoutAnyMembers(value)]));
  const members = out.anyOf as unknown[] | undefined;
  if (!Array.isArray(members)) return out;
  const typed = members.filter((member) => Object.keys(member as object).length > 0);
  if (typed.length === members.length || typed.length === 0) return out;
  const { anyOf: _members, ...others } = out;
  return typed.length === 1 ? { ...others, ...(typed[0] as object) } : { ...others, anyOf: typed };
}

const json = (schema: z.ZodType, io: "input" | "output") => ({
  "application/json": { schema: schemaOf(schema, io) },
});

/** The 200 answer's content: JSON, or the text of the table's content type (its media type, parameters aside). */
function answerContent(spec: ControlRouteSpec): Record<string, unknown> {
  if (!spec.contentType) return json(spec.answer, "output");
  return { [spec.contentType.split(";")[0]!.trim()]: { schema: schemaOf(spec.answer, "output") } };
}

function operation(id: string, spec: ControlRouteSpec): Record<string, unknown> {
  const inPath = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  const inQuery = Object.entries(spec.query?.shape ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schemaOf(schema as z.ZodType, "input");
    return { name, in: "query", required: false, ...(description ? { description } : {}), schema: rest };
  });
  const parameters = [...inPath, ...inQuery];
  const errors = Object.entries(spec.errors ?? {}).map(([status, description]) => [
    status,
    { description, content: json(ErrorEnvelope, "output") },
  ]);
  return {
    operationId: id,
    summary: spec.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    // A body that may be left out (parseBody reads none as {}) is not required.
    ...(spec.body
      ? { requestBody: { required: !spec.body.safeParse({}).success, content: json(spec.body, "input") } }
      : {}),
    responses: {
      "200": { description: "OK", content: answerContent(spec) },
      ...Object.fromEntries(errors),
    },
  };
}

export function controlApiDescription(): {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
} {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, spec] of Object.entries(CONTROL_ROUTES) as [string, ControlRouteSpec][]) {
    // The dashboard's `/` is written without its trailing slash (fastify answers both).
    const path = spec.path === "/" ? CONTROL_PREFIX : `${CONTROL_PREFIX}${spec.path}`;
    paths[path] = { ...paths[path], [spec.method.toLowerCase()]: operation(id, spec) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "RimuHosting emulator control API",
      version: "1",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
      description:
        "The emulator's own endpoints (on with --control): faults, chaos rules, snapshots, time, the rate limit, the views the dashboard reads and the dashboard itself. Plain JSON (the dashboard's files aside); errors come in the RimuHosting error envelope.",
    },
    servers: [{ url: "/", description: "The emulator serving this document." }],
    // The control API takes no key: it is on only with --control, for the tests and people of one machine.
    security: [],
    paths,
  };
}
