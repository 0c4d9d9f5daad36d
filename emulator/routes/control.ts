/**
/**
 * The /__emulator/* control endpoints (only registered with `control: true`): arm a fault, set the rate limit, read
 * the request log, the orders, the accounts' totals and the hosts' room, reset to a fresh state, this API's
 * description and the dashboard that shows them; snapshots, chaos rules and time in their own files. Plain JSON, not
 * the RimuHosting envelope (errors aside). Every route comes from the table in control/api.ts.
 */
import type { FastifyPluginAsync } from "fastify";
import { CONTROL_ROUTES, controlRoute } from "../control/api.js";
import { controlApiDescription } from "../control/openapi.js";
import { RequestsQuery } from "../control/schemas.js";
import { dashboardRoutes } from "../dashboard/routes.js";
import { accountTotals } from "../domain/account-totals.js";
import { hostRoom } from "../domain/host-room.js";
import { snapshotOrders } from "../domain/snapshot.js";
import { emuError } from "../errors.js";
import { parseBody } from "../http/body.js";
import type { EmulatorDeps } from "../http/types.js";
import { chaosRoutes } from "./control-chaos.js";
import { snapshotRoutes } from "./control-snapshots.js";
import { timeRoutes } from "./control-time.js";

/** `?last=N` of GET /__emulator/requests: the N requests that ended last; without it (undefined), all of them. */
function lastCount(query: unknown): number | undefined {
  const raw = (query as Record<string, unknown> | undefined)?.last;
  const parsed = RequestsQuery.shape.last.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw emuError("EMU_ERR_VALIDATION", {
    fieldName: "last",
    message: `last must be a whole number of requests, 1 or more, not '${String(raw)}'. Leave it out for all of them.`,
  });
}

export const controlRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  controlRoute(app, "armFault", async (request) => {
    deps.faults.arm(parseBody(CONTROL_ROUTES.armFault.body, request.body));
    return { armed: [...deps.faults.pending()] };
  });

  controlRoute(app, "listFaults", async () => ({ armed: [...deps.faults.pending()] }));

  // {"requests": n, "windowSeconds": s} sets the limit (every key starts a new window); {"requests": null} ends it.
  controlRoute(app, "setRateLimit", async (request) => {
    const { requests, windowSeconds } = parseBody(CONTROL_ROUTES.setRateLimit.body, request.body);
    deps.rateLimiter.set(requests === null ? undefined : { requests, windowSeconds: windowSeconds! });
    return { rateLimit: deps.rateLimiter.current() ?? null };
  });

  controlRoute(app, "getRateLimit", async () => ({ rateLimit: deps.rateLimiter.current() ?? null }));

  // Copies: the table's answers are open records (more fields may come), which an interface's values are not.
  controlRoute(app, "listRequests", async (request) => {
    const last = lastCount(request.query);
    const requests = last === undefined ? deps.requestLog.all() : deps.requestLog.last(last);
    return { requests: requests.map((entry) => ({ ...entry })), total: deps.requestLog.size };
  });

  controlRoute(app, "listOrders", async () => ({
    orders: snapshotOrders(deps.ctx).map((order) => ({ ...order })),
    now: new Date(deps.ctx.clock.now()).toISOString(),
  }));

  controlRoute(app, "listAccounts", async () => ({ accounts: accountTotals(deps.ctx) }));

  controlRoute(app, "listHosts", async () => ({ hosts: hostRoom(deps.ctx) }));

  controlRoute(app, "reset", async () => {
    deps.ctx.store.reset();
    deps.requestLog.clear();
    deps.faults.clear();
    deps.chaos.reset();
    // The limit stays as set; every key starts a new window.
    deps.rateLimiter.set(deps.rateLimiter.current());
    return { reset: true as const };
  });

  const description = controlApiDescription();
  controlRoute(app, "openApi", async () => description);

  dashboardRoutes(app);

  // Under this plugin's prefix already: the options' own prefix (/__emulator) must not be added twice.
  const nested = { ...deps, prefix: "" };
  await app.register(snapshotRoutes, nested);
  await app.register(chaosRoutes, nested);
  await app.register(timeRoutes, nested);
};
