/**
 * The Fastify application: plugins, then one route plugin per domain module. Built the same way by main.ts
 * and by the integration tests (which `inject` requests or listen on a random port).
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TrustProxy } from './config/config.ts';
import { requestIdFrom, runWithRequestId } from './db/request-context.ts';
import { setApiDateTimeOffset } from './lib/api-dates.ts';
import {
  DatabaseOutage,
  OUTAGE_RETRY_AFTER_SECONDS,
  SERVICE_UNAVAILABLE_BODY,
} from './lib/database-outage.ts';
import type { Dependencies } from './lib/dependencies.ts';
import { AccessLogController } from './lib/request-log.ts';
import { accessRequestRoutes } from './modules/access-requests/routes.ts';
import { actionRoutes } from './modules/actions/routes.ts';
import { addressRoutes } from './modules/addresses/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { balanceRoutes } from './modules/balance/routes.ts';
import { barrierStaffRoutes } from './modules/barrier-staff/routes.ts';
import { barrierUserRoutes } from './modules/barrier-users/routes.ts';
import { barrierRoutes } from './modules/barriers/routes.ts';
import { clientLogRoutes } from './modules/client-logs/routes.ts';
import { conformanceRoutes } from './modules/conformance/routes.ts';
import { deviceCheckRoutes } from './modules/device-checks/routes.ts';
import { deviceModelRoutes } from './modules/device-models/routes.ts';
import { refreshDefinedModels } from './modules/device-models/service.ts';
import { deviceSettingsRoutes } from './modules/device-settings/routes.ts';
import { demoDeviceRoutes } from './modules/devices/demo-routes.ts';
import { deviceRoutes } from './modules/devices/routes.ts';
import { exportRoutes } from './modules/exports/routes.ts';
import { guestPassRoutes } from './modules/guest-passes/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { importRoutes } from './modules/imports/routes.ts';
import { metricsPlugin } from './modules/metrics/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { phoneRoutes } from './modules/phones/routes.ts';
import { privacyRoutes } from './modules/privacy/routes.ts';
import { relayRoutes } from './modules/relay/routes.ts';
import { smsInboundRoutes } from './modules/sms-inbound/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { authenticatePlugin } from './plugins/authenticate.ts';
import { installErrorHandler } from './plugins/error-handler.ts';
import { eventLoopWatchPlugin } from './plugins/event-loop-watch.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { installRequestContract } from './plugins/request-contract.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerWebApp } from './plugins/web-app.ts';

/**
 * TRUST_PROXY for Fastify (issue 29 part 10): a number of hops trusts exactly that many proxies nearest to
 * the server (the address the outermost of them saw), so a client's own leftmost X-Forwarded-For is never
 * believed; a list trusts only those addresses.
 */
function trustProxyOption(
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

export async function buildApp(
  deps: Dependencies,
  options: { logger: FastifyBaseLogger },
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new AccessLogController(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    trustProxy: trustProxyOption(deps.config.TRUST_PROXY),
    // A valid incoming X-Request-Id (a proxy's, a client's) is the request's id, else a fresh UUID: on every
    // log line of the request (`reqId`), in the answer, and on the device commands it stores.
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
    bodyLimit: 256 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    // Issue 28 part 5: no API answer (tokens, personal data, errors and 404s too) is kept by a proxy or a
    // shared browser. Set before anything can answer, so every path out carries it.
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
    runWithRequestId(request.id, done);
  });
  // First, so that every answer below (pages, files, API, errors) carries the headers.
  const pageContentSecurityPolicy = await registerSecurityHeaders(app, {
    hstsMaxAgeSeconds: deps.config.HSTS_MAX_AGE_SECONDS,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // While the database is unreachable an API call answers 503 at once (GET /api/health/live excepted).
  deps.databaseOutage ??= new DatabaseOutage(deps.db, options.logger);
  const outage = deps.databaseOutage;
  app.addHook('onRequest', (request, reply, done) => {
    if (!outage.down || !request.url.startsWith('/api/') || request.url.startsWith('/api/health/live')) {
      done();
      return;
    }
    outage.countRefused();
    reply
      .status(503)
      .header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS))
      .type('application/json; charset=utf-8')
      .send(SERVICE_UNAVAILABLE_BODY);
  });
  app.addHook('onClose', async () => outage.stop());
  installErrorHandler(app, outage);
  // The engine's sheets of the models operators defined (docs/decisions/0039): loaded now, again after each
  // change through this app, and every 30 s for a change another process made (the command line).
  await refreshDefinedModels(deps.db);
  const definedModelsTimer = setInterval(() => {
    refreshDefinedModels(deps.db).catch((error: unknown) =>
      options.logger.warn({ err: error }, 'defined device models: refresh failed'),
    );
  }, 30_000);
  definedModelsTimer.unref();
  app.addHook('onClose', async () => clearInterval(definedModelsTimer));
  setApiDateTimeOffset(deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES);
  await registerOpenApi(app);
  await app.register(authenticatePlugin, { deps });
  installRequestContract(app);
  // Before the routes: its hook times every request (only when METRICS_TOKEN is set).
  await app.register(metricsPlugin, { deps });
  // Before the routes too: its hooks know the requests in flight when the event loop is blocked.
  if (deps.eventLoopBlockMs !== null) await app.register(eventLoopWatchPlugin, { deps });

  // Domain modules: one line each.
  await app.register(clientLogRoutes, { deps });
  await app.register(healthRoutes, { deps });
  await app.register(addressRoutes, { deps });
  await app.register(smsInboundRoutes, { deps });
  await app.register(deviceSettingsRoutes, { deps });
  await app.register(deviceRoutes, { deps });
  await app.register(deviceCheckRoutes, { deps });
  await app.register(conformanceRoutes, { deps });
  await app.register(deviceModelRoutes, { deps });
  // The simulator's routes exist only outside production, ALLOW_DEMO=on or not (issue 40 item 5).
  if (deps.config.NODE_ENV !== 'production') await app.register(demoDeviceRoutes, { deps });
  await app.register(balanceRoutes, { deps });
  await app.register(authRoutes, { deps });
  await app.register(userRoutes, { deps });
  await app.register(barrierRoutes, { deps });
  await app.register(accessRequestRoutes, { deps });
  await app.register(barrierUserRoutes, { deps });
  await app.register(barrierStaffRoutes, { deps });
  await app.register(importRoutes, { deps });
  await app.register(phoneRoutes, { deps });
  await app.register(guestPassRoutes, { deps });
  await app.register(notificationRoutes, { deps });
  await app.register(actionRoutes, { deps });
  await app.register(exportRoutes, { deps });
  await app.register(relayRoutes, { deps });
  await app.register(privacyRoutes, { deps });

  await registerWebApp(app, deps.config.webDistDir, pageContentSecurityPolicy);
  return app;
}
