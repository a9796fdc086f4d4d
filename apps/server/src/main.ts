/** `npm start`: the API and the web app on HOST:PORT, on the embedded database unless DATABASE_URL is set. */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/config.ts';
import { startDeviceProcessing } from './jobs/start-device-processing.ts';
import { systemClock } from './lib/clock.ts';
import { DataDirLockedError } from './lib/data-dir-lock.ts';
import type { Dependencies } from './lib/dependencies.ts';
import { createLogger } from './lib/logger.ts';
import { createMetrics } from './lib/metrics.ts';
import { RateLimiter } from './lib/rate-limiter.ts';
import { loadOrCreateSecretKey, Secrets } from './lib/secrets.ts';
import { createSmsGateway } from './lib/sms-gateway.ts';
import { openMigratedDatabase } from './runtime.ts';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const database = await openMigratedDatabase(config);
  const windowMs = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const deps: Dependencies = {
    config,
    db: database.handle.db,
    databaseKind: database.handle.kind,
    clock: systemClock,
    secrets: new Secrets(loadOrCreateSecretKey(config.SECRET_KEY, config.dataDir)),
    sms: createSmsGateway(config, (line) => process.stdout.write(`${line}\n`)),
    logger,
    metrics: createMetrics(),
    rateLimits: {
      codeRequests: new RateLimiter(config.RATE_LIMIT_CODE_REQUESTS, windowMs),
      authCalls: new RateLimiter(config.RATE_LIMIT_AUTH_CALLS, windowMs),
      logs: new RateLimiter(600, windowMs),
    },
    notifyDeviceCommands: () => {},
  };
  const app = await buildApp(deps, { logger });
  const devices = await startDeviceProcessing(deps, database.handle);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close().catch((error) => logger.error({ err: error }, 'error while closing the server'));
    await devices
      .stop()
      .catch((error) => logger.error({ err: error }, 'error while stopping the device worker'));
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.HOST, port: config.PORT });
  logger.info(
    { url: `http://${config.HOST}:${config.PORT}`, database: database.handle.kind, sms: config.SMS_PROVIDER },
    'Propusk is running',
  );
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Propusk failed to start: ${(error as Error).stack ?? error}\n`);
  }
  process.exit(1);
});
