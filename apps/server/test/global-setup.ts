/**
 * Once per test run: a database with every migration applied, which each test file then copies instead of
 * creating a database and migrating it. Embedded: a dump loaded by every file (≈0.3 s instead of ≈3 s).
 * PostgreSQL (DATABASE_URL): a template database that `create database … template` copies.
 * And the server's bundle, built from the sources, that the files starting the server or the CLI as a child
 * process run (server-bundle.ts).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations, openDatabase, openMemoryDatabase } from '../src/db/database.ts';

export default async function setup() {
  const removeBundle = buildServerBundle();
  const removeDatabase = await createTemplate();
  return async () => {
    removeBundle();
    await removeDatabase();
  };
}

/**
 * `apps/server/dist/test-<random>/`: two folders below apps/server as dist/server is (the paths the bundle
 * computes from its own place hold), one folder a run, so that two runs at once (CI's two server passes)
 * never share one.
 */
function buildServerBundle(): () => void {
  const serverDir = path.resolve(import.meta.dirname, '..');
  const outdir = path.join(serverDir, 'dist', `test-${randomBytes(4).toString('hex')}`);
  execFileSync(process.execPath, [path.join(serverDir, 'scripts/build.mjs'), '--outdir', outdir], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env.PROPUSK_SERVER_BUNDLE = outdir;
  return () => rmSync(outdir, { recursive: true, force: true });
}

async function createTemplate(): Promise<() => void | Promise<void>> {
  const url = process.env.DATABASE_URL;
  // DATABASE_ADMIN_URL (CI's PgBouncer pass): the template is made directly on PostgreSQL, since a database can
  // be copied only while nothing is connected to it, and PgBouncer keeps its server connections open.
  if (url) return createPostgresTemplate(process.env.DATABASE_ADMIN_URL ?? url);
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

async function runAsAdmin(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function createPostgresTemplate(url: string) {
  const name = `propusk_template_${randomBytes(6).toString('hex')}`;
  await runAsAdmin(url, `create database ${name}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  // Every connection to it is closed before the files copy it: PostgreSQL copies no database in use.
  const handle = await openDatabase({
    databaseUrl: templateUrl.toString(),
    dataDir: tmpdir(),
    poolSize: 1,
    preparedStatements: process.env.DATABASE_PREPARED_STATEMENTS !== 'off',
  });
  try {
    await applyMigrations(handle);
  } finally {
    await handle.close();
  }
  process.env.PROPUSK_PG_TEMPLATE = name;
  return () => runAsAdmin(url, `drop database if exists ${name} with (force)`);
}
