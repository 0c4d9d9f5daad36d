/**
 * The control API's OpenAPI description (GET /__emulator/openapi.json) against the routes the emulator really
 * registers under /__emulator: every route described, nothing described that is not a route. A control route added
 * without an entry in the table of emulator/control/api.ts fails here.
 */
import { buildEmulator } from "../../emulator/index.js";
import { CONTROL_PREFIX, controlApiDescription } from "../../emulator/control/openapi.js";
import { controlApi } from "../helpers/control-api.js";
import { registeredRoutes } from "../helpers/registered-routes.js";
import { startTestEmulator } from "../helpers/start-emulator.js";

type Operation = {
  operationId: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: object }> }>;
};
const document = controlApiDescription() as unknown as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
);

describe("the control API's OpenAPI description", () => {
  test("describes exactly the routes registered under /__emulator", async () => {
    const app = await buildEmulator({ control: true });
    let routes: string[];
    try {
      routes = (await registeredRoutes(app)).filter((route) => {
        const path = route.split(" ")[1]!;
        return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
      });
    } finally {
      await app.close();
    }
    // fastify files the dashboard's GET /__emulator/ under /__emulator (it answers both).
    const described = operations.map(
      ({ path, method }) =>
        `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1").replace(/(.)\/$/, "$1")}`,
    );
    expect(routes.length).toBeGreaterThanOrEqual(24);
    expect(described.sort()).toEqual(routes.sort());
  });

  test("is OpenAPI 3.1: unique operation ids, parameters declared, schemas for bodies and answers", () => {
    expect(document.openapi).toBe("3.1.0");
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, operation } of operations) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      expect({ path, parameters: declared }).toEqual({ path, parameters: inPath });
      // A JSON object, or the text of a dashboard file under its own media type.
      const [[mediaType, answer]] = Object.entries(operation.responses["200"]?.content ?? {}) as [
        [string, { schema: object }],
      ];
      expect(answer.schema).toMatchObject({ type: mediaType === "application/json" ? "object" : "string" });
      const body = operation.requestBody?.content["application/json"]?.schema;
      if (body) expect(body).toMatchObject({ type: "object" });
      expect(JSON.stringify(operation)).not.toContain('"$schema"');
    }
    expect(document.paths["/__emulator/requests"]!.get!.parameters).toEqual([
      expect.objectContaining({ name: "last", in: "query", schema: expect.objectContaining({ minimum: 1 }) }),
    ]);
  });

  test("is served by the emulator with control on", async () => {
    const emu = await startTestEmulator({ control: true });
    try {
      expect(await controlApi(emu.baseUrl)("GET", "/openapi.json")).toEqual({ status: 200, body: document });
      // Each answer comes with the media type described: the dashboard's HTML, script, style sheet and icon too.
      const origin = emu.baseUrl.replace(/\/r$/, "");
      const described = operations
        .filter(({ method, path }) => method === "get" && !path.includes("{"))
        .map(({ path, operation }) => [path, Object.keys(operation.responses["200"]!.content!)[0]]);
      const served = await Promise.all(
        described.map(async ([path]) => {
          const response = await fetch(`${origin}${path}`);
          return [path, response.headers.get("content-type")?.split(";")[0]];
        }),
      );
      expect(served).toEqual(described);
      expect(described.filter(([, type]) => type !== "application/json").length).toBe(4);
    } finally {
      await emu.close();
    }
  });
});
