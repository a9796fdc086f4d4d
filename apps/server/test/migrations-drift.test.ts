/**
 * Fails when src/db/schema.ts and the committed migrations drift apart: the schema is compared with the
 * snapshot of the newest migration, and any statement drizzle-kit would generate is a drift.
 * Fix: `npm run db:generate` and commit the new migration.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/db/database.ts';
import * as schema from '../src/db/schema.ts';

const require = createRequire(import.meta.url);
const { generateDrizzleJson, generateMigration } =
  require('drizzle-kit/api') as typeof import('drizzle-kit/api');

describe('migrations', () => {
  it('match the schema (no drift)', async () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
      entries: { idx: number; tag: string }[];
    };
    const last = journal.entries.at(-1);
    expect(last).toBeDefined();
    const snapshotFile = path.join(
      MIGRATIONS_FOLDER,
      'meta',
      `${String(last?.idx).padStart(4, '0')}_snapshot.json`,
    );
    const snapshot = JSON.parse(readFileSync(snapshotFile, 'utf8'));
    const current = generateDrizzleJson(schema as unknown as Record<string, unknown>, snapshot.id);
    const statements = await generateMigration(snapshot, current);
    expect(statements, 'run `npm run db:generate` and commit the migration').toEqual([]);
  });
});
