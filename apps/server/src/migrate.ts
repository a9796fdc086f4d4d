/**
 * `npm run migrate` (compiled: `npm run migrate:prod`): applies the pending migrations and exits, so that a
 * deployment can migrate once, as its own step, and start its processes with MIGRATE_ON_START=off
 * (docs/decisions/0027). Safe beside starting servers and another `migrate`: on PostgreSQL they serialise on a
 * transaction-level advisory lock; on the embedded database one process holds DATA_DIR.
 * Exit code 0 when the database is current (applied or nothing to do), 1 with a message otherwise.
 */
import { ConfigError, loadConfig } from './config/config.ts';
import { applyMigrations, DatabaseLockedError, openDatabase } from './db/database.ts';
import { acquireDataDirLock, DataDirLockedError } from './lib/data-dir-lock.ts';

async function migrate() {
  const config = loadConfig();
  const release = config.DATABASE_URL ? () => {} : acquireDataDirLock(config.dataDir);
  const started = performance.now();
  try {
    const handle = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.dataDir,
      poolSize: 1,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    });
    try {
      const { applied } = await applyMigrations(handle);
      const ms = Math.round(performance.now() - started);
      process.stdout.write(
        `${JSON.stringify({ level: 30, time: Date.now(), database: handle.kind, applied, ms, msg: 'migrations applied' })}\n`,
      );
    } finally {
      await handle.close().catch(() => {});
    }
  } finally {
    release();
  }
}

migrate().then(
  () => process.exit(0),
  (error) => {
    if (
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof DatabaseLockedError
    ) {
      process.stderr.write(`${error.message}\n`);
    } else {
      process.stderr.write(
        `Migration failed, the database is as it was: ${(error as Error).stack ?? error}\n`,
      );
    }
    process.exit(1);
  },
);
