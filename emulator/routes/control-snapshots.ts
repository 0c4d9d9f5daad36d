/** /__emulator/snapshots: save the whole state under a name, list, download, upload and load snapshots. */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { controlRoute } from "../control/api.js";
import type { EmulatorDeps } from "../http/types.js";
import { parseStateJson } from "../state/state-json.js";

const nameOf = (request: FastifyRequest) => (request.params as { name: string }).name;

export const snapshotRoutes: FastifyPluginAsync<EmulatorDeps> = async (app, deps) => {
  const { store, clock } = deps.ctx;

  controlRoute(app, "listSnapshots", async () => ({ snapshots: deps.snapshots.list() }));

  // Each change answers once the state file (if any) holds it, as every change does.
  controlRoute(app, "saveSnapshot", async (request) => {
    const saved = deps.snapshots.put(nameOf(request), store.exportState(), clock.now());
    await store.durable();
    return saved;
  });

  controlRoute(app, "getSnapshot", async (request) => deps.snapshots.get(nameOf(request)));

  controlRoute(app, "putSnapshot", async (request) => {
    const name = nameOf(request);
    const state = parseStateJson(request.body, `The snapshot '${name}' sent`, "EMU_ERR_VALIDATION");
    const saved = deps.snapshots.put(name, state, clock.now());
    await store.durable();
    return saved;
  });

  controlRoute(app, "loadSnapshot", async (request) => {
    const name = nameOf(request);
    store.replaceState(deps.snapshots.get(name));
    await store.durable();
    return { loaded: name, orders: store.state.orders.length };
  });
};
