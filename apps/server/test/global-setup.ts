/**
 * Once per test run: an embedded database with every migration applied, dumped to a file. Each test file then
 * loads that dump (≈0.3 s) instead of creating a database and migrating it (≈3 s).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyMigrations, openMemoryDatabase } from '../src/db/database.ts';

export default async function setup() {
  if (process.env.DATABASE_URL) return;
  const directory = mkdtempSync(path.join(tmpdir(), 'propusk-template-'));
  const handle = await openMemoryDatabase();
  if (handle.kind !== 'pglite') throw new Error('expected the embedded database');
  await applyMigrations(handle);
  const dump = await handle.pglite.dumpDataDir('none');
  const file = path.join(directory, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  process.env.PROPUSK_PGLITE_TEMPLATE = file;
  return () => rmSync(directory, { recursive: true, force: true });
}
