/**
 * Starting and stopping the whole process: configuration, database (+ lock for the embedded one),
 * migrations, dependencies, the HTTP app. Shared by main.ts and the CLI so that both open the database alike.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/config.ts';
import { applyMigrations, type DatabaseHandle, openDatabase, pendingMigrations } from './db/database.ts';
import { acquireDataDirLock } from './lib/data-dir-lock.ts';

export interface OpenedDatabase {
  handle: DatabaseHandle;
  close: () => Promise<void>;
}

export async function openMigratedDatabase(
  config: Config,
  options: { poolSize?: number } = {},
): Promise<OpenedDatabase> {
  const release = config.DATABASE_URL ? () => {} : acquireDataDirLock(config.dataDir);
  try {
    const handle = await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.dataDir,
      poolSize: config.DATABASE_POOL_SIZE,
      sendPoolSize: config.DATABASE_SEND_POOL_SIZE,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
      ...options,
    });
    try {
      if (config.MIGRATE_ON_START) await applyMigrations(handle);
      else await refuseOlderSchema(handle);
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
    return {
      handle,
      close: async () => {
        await handle.close().catch(() => {});
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** MIGRATE_ON_START=off and migrations are pending: the start stops, naming them and the step that applies them. */
export class PendingMigrationsError extends Error {}

async function refuseOlderSchema(handle: DatabaseHandle): Promise<void> {
  const pending = await pendingMigrations(handle);
  if (pending.length === 0) return;
  throw new PendingMigrationsError(
    `The database is not migrated: ${pending.length} migration(s) pending (${pending.join(', ')}). ` +
      'Run `npm run migrate` (or `npm run migrate:prod`) first, or set MIGRATE_ON_START=on.',
  );
}

export type { FastifyBaseLogger };
