/**
 * GET /__emulator/ (the dashboard) and its script, style sheet and icon, inside the control
 * routes' plugin (routes/control.ts), so they exist only with `control: true`; their paths and content types are in
 * the control API's table (control/api.ts). The Content-Security-Policy lets the page load and fetch from the
 * emulator only: nothing comes from outside, and no inline script runs.
 */
import type { FastifyInstance } from "fastify";
import { type ControlRouteId, controlRoute } from "../control/api.js";
import { DASHBOARD_HTML } from "./page.js";
import { DASHBOARD_SCRIPT } from "./script.js";
import { DASHBOARD_CSS, DASHBOARD_ICON } from "./style.js";

const CONTENT_SECURITY_POLICY =
  "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const FILES = {
  dashboard: DASHBOARD_HTML,
  dashboardScript: DASHBOARD_SCRIPT,
  dashboardStyle: DASHBOARD_CSS,
  dashboardIcon: DASHBOARD_ICON,
} as const satisfies Partial<Record<ControlRouteId, string>>;

export function dashboardRoutes(app: FastifyInstance): void {
  for (const [id, body] of Object.entries(FILES) as [keyof typeof FILES, string][]) {
    controlRoute(app, id, async (_request, reply) => {
      reply.header("content-security-policy", CONTENT_SECURITY_POLICY).header("cache-control", "no-store");
      return body;
    });
  }
}
