/**
 * buildEmulator(): the fastify instance of the emulator, with its state loaded and every route
 * registered. It never listens; index.ts (startEmulator) and cli.ts do.
 */
import Fastify, { type FastifyInstance, LogController } from "fastify";
import { ChaosController } from "./chaos/controller.js";
import { rulesFromOptions } from "./chaos/rule.js";
import { parseNowSetting } from "./calendar.js";
import { type Clock, createClock, isTimeControl } from "./clock.js";
import { emuError } from "./errors.js";
import { FaultController } from "./faults.js";
import { registerBodyParsers } from "./http/body.js";
import { answerConnect, answerExpectation, clientErrorHandler } from "./http/client-errors.js";
import { onFrameworkError, registerErrorHandling } from "./http/error-handler.js";
import { registerHooks } from "./http/hooks.js";
import { InFlight } from "./http/in-flight.js";
import { rewriteMatrixUrl } from "./http/matrix-url.js";
import type { EmulatorDeps, RequestState } from "./http/types.js";
import { type StartEmulatorOptions, resolveOptions } from "./options.js";
import { createRandom } from "./random.js";
import { RateLimiter } from "./rate-limit.js";
import { RequestLog } from "./request-log.js";
import { billingMethodsRoutes } from "./routes/billing-methods.js";
import { catalogRoutes } from "./routes/catalog.js";
import { controlRoutes } from "./routes/control.js";
import { openApiRoutes } from "./routes/openapi.js";
import { ordersRoutes } from "./routes/orders.js";
import { ptrRoutes } from "./routes/ptr.js";
import { vpsRoutes } from "./routes/vps.js";
import { StateStore } from "./state/store.js";
import { ListingRenderer } from "./wire/listing.js";

/** Request log lines never carry headers (the API key is in Authorization), only method, URL and status. */
export function loggerOptions(enabled: boolean) {
  if (!enabled) return false;
  return {
    level: "info",
    redact: { paths: ["req.headers.authorization", "headers.authorization"], censor: "[redacted]" },
    serializers: {
      // originalUrl keeps the matrix parameters that rewriteMatrixUrl strips before routing.
      req: (req: { method?: string; url?: string; originalUrl?: string }) => ({
        method: req.method,
        url: req.originalUrl ?? req.url,
      }),
    },
  };
}

/** `now` (--now): the date the emulator starts at, before the state is seeded on it. */
function startClockAt(clock: Clock, now: string): void {
  if (!isTimeControl(clock)) {
    throw emuError("EMU_ERR_STATE_INVALID", {
      message:
        "now cannot be given with a clock given in code (the clock option), which decides its own time.",
    });
  }
  const machineNow = clock.now() - clock.offsetMs();
  clock.setOffsetMs(parseNowSetting(now, machineNow)! - machineNow);
}

export async function buildEmulator(input: StartEmulatorOptions = {}): Promise<FastifyInstance> {
  const options = resolveOptions(input);
  const clock = options.clock ?? createClock({ timeScale: options.timeScale });
  if (options.now !== undefined) startClockAt(clock, options.now);
  const store = await StateStore.open({
    clockSetAtStart: options.now !== undefined,
    seed: options.seed,
    clock,
    stateFile: options.stateFile,
    loadSnapshot: options.loadSnapshot,
    dedicatedServers: options.dedicatedServers,
  });
  const ctx = { store, clock };
  const deps: EmulatorDeps = {
    ctx,
    listings: new ListingRenderer(
      ctx,
      options.shuffleListings ? createRandom(options.seed ^ 0x5b0f) : undefined,
    ),
    faults: new FaultController(options.faults),
    chaos: new ChaosController({ seed: options.seed, rules: rulesFromOptions(options) }),
    time: isTimeControl(clock) ? clock : undefined,
    snapshots: store.snapshots,
    rateLimiter: new RateLimiter(options.rateLimit, clock.now),
    requestLog: new RequestLog(),
    options,
  };

  const app = Fastify({
    logger: loggerOptions(options.logger),
    // One line per request, written by the request log hook (http/hooks.ts), instead of fastify's
    // two with a child logger each: a quarter of a small request's CPU went there.
    logController: new LogController({ disableRequestLogging: true }),
    rewriteUrl: rewriteMatrixUrl,
    // Matrix parameters are parsed by rewriteMatrixUrl; this relies on fastify 5's default
    // useSemicolonDelimiter: false (';' is not a query delimiter).
    // A path segment may be long (clients put whole domain names in order segments); past this, 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    frameworkErrors: onFrameworkError,
    clientErrorHandler: clientErrorHandler(clock.now),
    // Node would answer a Host-less HTTP/1.1 request itself, outside the envelope; the onRequest
    // hook answers it instead.
    http: { requireHostHeader: false },
    // Requests that are mid-way through a long (scaled) operation are ended by disposing the clock.
    forceCloseConnections: true,
  });
  answerConnect(app.server, clock.now);
  answerExpectation(app.server, clock.now);
  const inFlight = new InFlight(app.server);
  app.decorate("emulator", deps);
  app.decorateRequest("emu", null as unknown as RequestState);
  registerBodyParsers(app);
  registerErrorHandling(app);
  registerHooks(app, deps);
  await app.register(ordersRoutes, { prefix: "/r", ...deps });
  await app.register(vpsRoutes, { prefix: "/r", ...deps });
  await app.register(ptrRoutes, { prefix: "/r", ...deps });
  await app.register(billingMethodsRoutes, { prefix: "/r", ...deps });
  await app.register(catalogRoutes, { prefix: "/r", ...deps });
  await app.register(openApiRoutes, { prefix: "/r", ...deps });
  if (options.control) await app.register(controlRoutes, { prefix: "/__emulator", ...deps });

  // Every wait ends at once; the requests they held answer before their connections close.
  app.addHook("preClose", async () => {
    clock.dispose();
    await inFlight.settled();
  });
  app.addHook("onClose", async () => store.close());
  return app;
}
