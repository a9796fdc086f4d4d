/**
 * `npm start`: the API and the web app on HOST:PORT, on the embedded database unless DATABASE_URL is set.
 *
 * SIGTERM and SIGINT stop it cleanly: no new connections, requests in flight answered, the device worker
 * and pg-boss stopped, the database closed (the `pg` pool, or PGlite with its files and the DATA_DIR lock),
 * then exit code 0. A signal during start-up lets the step in progress finish (a migration is never cut in
 * half) and closes what was opened. Whatever is still open SHUTDOWN_TIMEOUT_MS after that step, or a second
 * signal, ends the process with code 1.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/config.ts';
import { judgeDemoInProduction } from './config/demo-in-production.ts';
import { sendDbOf } from './db/database.ts';
import { domainHooks } from './domain-hooks.ts';
import { type DeviceProcessing, startDeviceProcessing } from './jobs/start-device-processing.ts';
import { systemClock } from './lib/clock.ts';
import { DataDirLockedError } from './lib/data-dir-lock.ts';
import type { Dependencies } from './lib/dependencies.ts';
import { deviceWakeUp } from './lib/device-wake.ts';
import { createLogger } from './lib/logger.ts';
import { createMetrics } from './lib/metrics.ts';
import { loadOrCreateSecretKey, Secrets } from './lib/secrets.ts';
import { createPerIpLimits } from './lib/shared-rate-limiter.ts';
import { createSmsGateway, createSmsGateways } from './lib/sms-gateway.ts';
import { type OpenedDatabase, openMigratedDatabase, PendingMigrationsError } from './runtime.ts';

/** Below Docker's and systemd's default grace periods (10 s, 90 s), so that we, not SIGKILL, end it. */
const SHUTDOWN_TIMEOUT_MS = 8_000;

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const demo = judgeDemoInProduction(config);
  if (demo && 'refuse' in demo) throw new ConfigError(demo.refuse);
  if (demo) logger.warn({ allowDemo: true }, demo.warn);

  // What is open so far; `stop` closes it in reverse order.
  let database: OpenedDatabase | undefined;
  let app: FastifyInstance | undefined;
  let devices: DeviceProcessing | undefined;
  let startupStep: Promise<unknown> = Promise.resolve();
  let stopping = false;

  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal while shutting down: exiting now');
      process.exit(1);
    }
    stopping = true;
    const startedAt = Date.now();
    logger.info({ signal }, 'shutting down');
    // A start-up step in progress finishes first, however long it takes (main records what it opened before
    // looking at `stopping`): the creation of a new embedded database or a migration is never cut in half by our
    // own limit (on a loaded host it ran past 8 s and the process exited 1 mid-step). A second signal still ends
    // the process at once.
    await startupStep.catch(() => {});
    const force = setTimeout(() => {
      logger.error({ timeoutMs: SHUTDOWN_TIMEOUT_MS }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    force.unref();
    await app?.close().catch((error) => logger.error({ err: error }, 'error while closing the server'));
    await devices
      ?.stop()
      .catch((error) => logger.error({ err: error }, 'error while stopping the device worker'));
    await database?.close();
    logger.info({ signal, ms: Date.now() - startedAt }, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  // How long each start-up step took (in the "running" line: what to look at when a start is slow).
  const startupMs: Record<string, number> = {};
  let stepStarted = performance.now();
  const step = <T>(work: Promise<T>, name: string): Promise<T> => {
    startupStep = work;
    return work.finally(() => {
      const now = performance.now();
      startupMs[name] = Math.round(now - stepStarted);
      stepStarted = now;
    });
  };

  stepStarted = performance.now();
  database = await step(openMigratedDatabase(config), 'database');
  if (stopping) return;
  const print = (line: string) => process.stdout.write(`${line}\n`);
  const sms = createSmsGateway(config, print);
  const deps: Dependencies = {
    config,
    db: database.handle.db,
    sendDb: sendDbOf(database.handle),
    databaseKind: database.handle.kind,
    clock: systemClock,
    secrets: new Secrets(loadOrCreateSecretKey(config.SECRET_KEY, config.dataDir)),
    sms,
    smsGateways: createSmsGateways(config, sms, print),
    logger,
    metrics: createMetrics(),
    rateLimits: createPerIpLimits(database.handle.db, config),
    ...domainHooks(),
    ...deviceWakeUp(),
  };
  app = await step(buildApp(deps, { logger }), 'app');
  if (stopping) return;
  devices = await step(startDeviceProcessing(deps, database.handle), 'devices');
  if (stopping) return;
  await step(app.listen({ host: config.HOST, port: config.PORT }), 'listen');
  if (stopping) return;
  const url = `http://${config.HOST}:${config.PORT}`;
  logger.info(
    {
      url,
      database: database.handle.kind,
      sms: config.SMS_PROVIDER,
      // Since the process started (modules loaded included), and per step.
      startupMs: { total: Math.round(performance.now()), ...startupMs },
      // Names, providers and rates only: the credentials stay out of the log.
      gateways: config.smsGateways.map(
        (g) => `${g.name} (${g.provider}, ${g.ratePerMinute}/min, burst ${g.burst})`,
      ),
    },
    'Propusk is running',
  );
  // One plain line for the person who started it (stdout stays JSON, for machines).
  process.stderr.write(`Propusk работает: ${url}\n`);
}

main().catch((error) => {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof PendingMigrationsError
  ) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Propusk failed to start: ${(error as Error).stack ?? error}\n`);
  }
  process.exit(1);
});
