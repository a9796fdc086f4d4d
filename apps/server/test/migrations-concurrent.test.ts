/**
 * Issue 31 part 4: several processes starting at once on one PostgreSQL (or `npm run migrate` beside them) apply
 * each migration once, under a transaction-level lock that also holds through PgBouncer in transaction mode;
 * and the pending list that MIGRATE_ON_START=off checks. Concurrency needs PostgreSQL (DATABASE_URL): the
 * embedded database has one process by construction.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  applyMigrations,
  MIGRATIONS_FOLDER,
  openDatabase,
  openMemoryDatabase,
  pendingMigrations,
} from '../src/db/database.ts';
import { namedStatementsInTests, usesPostgres } from './test-app.ts';

const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};
const tags = journal.entries.map((entry) => entry.tag);

describe('pending migrations', () => {
  it('are all of them on an empty database and none once applied', async () => {
    const handle = await openMemoryDatabase();
    try {
      expect(await pendingMigrations(handle)).toEqual(tags);
      expect(await applyMigrations(handle)).toEqual({ applied: tags.length });
      expect(await pendingMigrations(handle)).toEqual([]);
      expect(await applyMigrations(handle)).toEqual({ applied: 0 });
    } finally {
      await handle.close();
    }
  });
});

describe.skipIf(!usesPostgres)('migrations started by four processes at once', () => {
  it('are applied once each, and every process starts on the migrated schema', async () => {
    const url = process.env.DATABASE_ADMIN_URL ?? process.env.DATABASE_URL ?? '';
    const name = `propusk_migrate_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const target = new URL(process.env.DATABASE_URL ?? '');
    target.pathname = `/${name}`;
    const handles = await Promise.all(
      [1, 2, 3, 4].map(() =>
        openDatabase({
          databaseUrl: target.toString(),
          dataDir: '.',
          poolSize: 2,
          preparedStatements: namedStatementsInTests,
        }),
      ),
    );
    try {
      const results = await Promise.all(handles.map((handle) => applyMigrations(handle)));
      expect(results.map((result) => result.applied).sort((a, b) => b - a)).toEqual([tags.length, 0, 0, 0]);
      const first = handles[0];
      if (first?.kind !== 'postgres') throw new Error('expected PostgreSQL');
      const rows = await first.pool.query('select hash from drizzle.__drizzle_migrations');
      expect(rows.rowCount).toBe(tags.length);
      for (const handle of handles) expect(await pendingMigrations(handle)).toEqual([]);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
