/**
 * The OpenAPI description of the emulated RimuHosting routes (GET /r/openapi.json) against the emulator itself: it
 * describes exactly the routes registered under /r; the real answers of every route (an answer and an error each,
 * over HTTP) validate against the document's schema for their status (through zod's reader of JSON Schema, so the
 * document is checked, not the zod schemas it came from); the guesses are marked. openapi-lint.test.ts lints it.
 */
import * as z from "zod";
import { buildEmulator } from "../../emulator/index.js";
import { rimuhostingApiDescription } from "../../emulator/rimuhosting-openapi.js";
import { registeredRoutes } from "../helpers/registered-routes.js";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator.js";
import { createVps } from "./fixtures.js";

type Operation = {
  operationId: string;
  responses: Record<string, { content: { "application/json": { schema: z.core.JSONSchema.JSONSchema } } }>;
  [key: string]: unknown;
};
type Document = { paths: Record<string, Record<string, Operation>>; [key: string]: unknown };
const document = rimuhostingApiDescription() as unknown as Document;
const operations = Object.entries(document.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ template, method, operation })),
);

/** The operation a request reached: its path (matrix parameters aside) against each template. */
function operationOf(method: string, url: string) {
  const plain = url.split("?")[0]!.replace(/;[^/]*/g, "");
  return operations.find(
    (op) =>
      op.method === method.toLowerCase() &&
      new RegExp(`^${op.template.replace("{order}", "order-\\d+[^/]*")}$`).test(plain),
  );
}

describe("the OpenAPI description of the RimuHosting routes (/r/openapi.json)", () => {
  test("describes exactly the routes registered under /r, and is served there", async () => {
    const app = await buildEmulator();
    let routes: string[];
    try {
      routes = (await registeredRoutes(app)).filter((route) => route.includes(" /r/"));
    } finally {
      await app.close();
    }
    const described = operations.map(
      ({ template, method }) => `${method.toUpperCase()} /r${template.replace(/\{(\w+)\}/g, ":$1")}`,
    );
    expect([...described, "GET /r/openapi.json"].sort()).toEqual(routes.sort());
    const emu = await startTestEmulator();
    try {
      const served = await emu.api("GET", "/openapi.json", undefined, { apiKey: null });
      expect({ status: served.status, body: served.body }).toEqual({ status: 200, body: document });
    } finally {
      await emu.close();
    }
  });

  test("marks the guesses, says where the API is and how it is authenticated", () => {
    expect(document).toMatchObject({
      openapi: "3.1.0",
      servers: [{ url: "/r" }],
      security: [{ apiKey: [] }],
    });
    const text = JSON.stringify(document);
    for (const guess of ["data_transfer_usage_info are unknown", "order_filter", "unused time is credited"])
      expect(text).toContain(guess);
    expect(operations.find((op) => op.operation.operationId === "cancelOrder")!.operation).toMatchObject({
      "x-emulator-guess": expect.stringContaining("30 days"),
    });
    // The public routes take no key.
    const publicIds = operations
      .filter((op) => Array.isArray(op.operation.security))
      .map((op) => op.template);
    expect([...new Set(publicIds)].sort()).toEqual(
      ["/data-centers", "/distributions", "/pricing-plans", "/pricing-plans/new-vm-pricing"].sort(),
    );
  });

  test("the real answers of every route, and errors of each kind, validate against the document", async () => {
    const emu: TestEmulator = await startTestEmulator({
      faults: [{ route: "listDataCenters", kind: "status", status: 503 }],
    });
    const checked: string[] = [];
    const failures: unknown[] = [];
    const call = async (method: string, url: string, body?: unknown, options = {}) => {
      const res = await emu.api(method, url, body, options);
      const op = operationOf(method, url);
      const schema = op?.operation.responses[String(res.status)]?.content["application/json"].schema;
      if (!op || !schema) {
        failures.push({
          method,
          url,
          status: res.status,
          problem: "no such operation or status in the document",
        });
        return res;
      }
      const parsed = z.fromJSONSchema(schema).safeParse(res.body);
      if (!parsed.success) failures.push({ method, url, status: res.status, issues: parsed.error.issues });
      checked.push(`${op.operation.operationId} ${res.status}`);
      return res;
    };
    try {
      await call("GET", "/data-centers"); // the fault: 503
      await call("GET", "/data-centers");
      await call("GET", "/distributions");
      await call("GET", "/pricing-plans;server_type=VPS");
      await call("PUT", "/pricing-plans/new-vm-pricing", {
        new_order_request: { vps_parameters: { memory_mb: 2048 } },
      });
      await call("GET", "/pricing-plans/new-vm-pricing;memory_mb=1024;disk_space_mb=20480");
      await call("GET", "/billing-methods");
      await call("GET", "/billing-methods", undefined, { apiKey: null }); // 403
      await call("POST", "/orders/new-vps", {
        new_order_request: {
          instantiation_options: { domain_name: "doc.example.com" },
          vps_parameters: { memory_mb: 1 },
        },
      }); // 400
      const created = await call("POST", "/orders/new-vps", {
        new_order_request: { instantiation_options: { domain_name: "doc.example.com", distro: "deb12.64" } },
      });
      const oid = (created.body as { post_new_vps_response: { about_order: { order_oid: number } } })
        .post_new_vps_response.about_order.order_oid;
      const order = `/orders/order-${oid}-doc`;
      const other = (await createVps(emu, {}, { domain: "gone.example.com" })).about_order.order_oid;
      await call("GET", "/orders;include_inactive=Y");
      await call("GET", order);
      await call("GET", "/orders/order-1-missing"); // 404
      await call("GET", `${order}/vps`);
      await call("GET", `${order}/vps/data-transfer-usage`);
      await call("PUT", `${order}/vps/parameters`, { running_vps_data: { memory_mb: 2048 } });
      await call("PUT", `${order}/vps/parameters`, { running_vps_data: { disk_space_mb: 1024 } }); // 409: shrink
      await call("PUT", `${order}/vps/running-state`, {
        running_state_change_request: { running_state: "RESTARTING" },
      });
      await call("PUT", `${order}/vps/host-server`, { vps_move_request: {} });
      await call("PUT", `${order}/vps/reinstall`, {
        new_order_request: { instantiation_options: { distro: "deb13.64" } },
      });
      await call("PUT", `${order}/ptr`, undefined, {
        raw: "domain_name=doc.example.com",
        contentType: "application/x-www-form-urlencoded",
      });
      await call("PUT", `${order}/cancelled`);
      await call("DELETE", `/orders/order-${other}-gone/vps`);
      await call("DELETE", `/orders/order-${other}-gone/vps`); // 409: already cancelled
      await call("GET", `/orders/order-${other}-gone/vps`); // 404: removed
    } finally {
      await emu.close();
    }
    expect(failures).toEqual([]);
    const answered = new Set(checked.filter((c) => c.endsWith(" 200")).map((c) => c.split(" ")[0]));
    expect([...answered].sort()).toEqual(
      [...new Set(operations.map((op) => op.operation.operationId))].sort(),
    );
    expect(new Set(checked.map((c) => c.split(" ")[1]))).toEqual(
      new Set(["200", "400", "403", "404", "409", "503"]),
    );
  });
});
