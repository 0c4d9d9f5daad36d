/**
 * GET /__emulator/ (the dashboard) and its script, style sheet and icon, inside the control
 * routes' plugin (routes/control.ts), so they exist only with `control: true`. The Content-Security-Policy lets the
 * page load and fetch from the emulator only: nothing comes from outside, and no inline script runs.
 */
import type { FastifyInstance } from "fastify";
import { DASHBOARD_HTML } from "./page.js";
import { DASHBOARD_SCRIPT } from "./script.js";
import { DASHBOARD_CSS, DASHBOARD_ICON } from "./style.js";

const CONTENT_SECURITY_POLICY =
  "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const FILES = [
  { path: "/", type: "text/html; charset=utf-8", body: DASHBOARD_HTML },
  { path: "/dashboard.js", type: "text/javascript; charset=utf-8", body: DASHBOARD_SCRIPT },
  { path: "/dashboard.css", type: "text/css; charset=utf-8", body: DASHBOARD_CSS },
  { path: "/favicon.svg", type: "image/svg+xml", body: DASHBOARD_ICON },
];

export function dashboardRoutes(app: FastifyInstance): void {
  for (const file of FILES) {
    app.get(file.path, { config: { control: true } }, async (_request, reply) =>
      reply
        .header("content-type", file.type)
        .header("content-security-policy", CONTENT_SECURITY_POLICY)
        .header("cache-control", "no-store")
        .send(file.body),
    );
  }
}
