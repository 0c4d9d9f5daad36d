/**
 * The control API's OpenAPI 3.1 description (GET /__emulator/openapi.json), written from the table of its routes
 * (api.ts) and their zod schemas, whose JSON Schema is the dialect OpenAPI 3.1 uses.
 */
import * as z from "zod";
import { CONTROL_ROUTES, type ControlRouteSpec } from "./api.js";
import { ErrorEnvelope } from "./schemas.js";

export const CONTROL_PREFIX = "/__emulator";

/** A zod schema as an OpenAPI 3.1 schema object (JSON Schema 2020-12 without its `$schema` line). */
function schemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest;
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
  info: Record<string, string>;
  paths: Record<string, Record<string, unknown>>;
} {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, spec] of Object.entries(CONTROL_ROUTES) as [string, ControlRouteSpec][]) {
    const path = `${CONTROL_PREFIX}${spec.path}`;
    paths[path] = { ...paths[path], [spec.method.toLowerCase()]: operation(id, spec) };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "RimuHosting emulator control API",
      version: "1",
      description:
        "The emulator's own endpoints (on with --control): faults, chaos rules, snapshots, time, the rate limit, the views the dashboard reads and the dashboard itself. Plain JSON (the dashboard's files aside); errors come in the RimuHosting error envelope.",
    },
    paths,
  };
}
