/**
 * Starting and stopping the whole process: configuration, database (+ lock for the embedded one),
 * migrations, dependencies, the HTTP app. Shared by main.ts and the CLI so that both open the database alike.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/config.ts';
import { applyMigrations, type DatabaseHandle, openDatabase } from './db/database.ts';
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
      ...options,
    });
    await applyMigrations(handle);
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

export type { FastifyBaseLogger };
