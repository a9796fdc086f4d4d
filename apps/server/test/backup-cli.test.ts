/**
 * `npm run cli -- backup` / `restore` as the operator runs them (child processes), on a DATA_DIR of their own,
 * or on fresh PostgreSQL databases when DATABASE_URL is set (and then also an embedded backup restored into
 * PostgreSQL: one format for both). Messages in Russian, exit codes 0 / 1 / 2.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { openMigratedDatabase } from '../src/runtime.ts';
import { runBundledCli } from './server-bundle.ts';

const SLOW = 240_000;

function runCli(env: Record<string, string>, ...args: string[]) {
  return runBundledCli({ env, timeoutMs: SLOW }, ...args);
}

/** The users' phones in the database of `env`. */
async function userPhones(env: Record<string, string>): Promise<string[]> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const database = await openMigratedDatabase(config, { poolSize: 1 });
  try {
    const result = (await database.handle.db.execute(
      sql`select phone from users order by id`,
    )) as unknown as {
      rows: { phone: string }[];
    };
    return result.rows.map((row) => row.phone);
  } finally {
    await database.close();
  }
}

describe('backup and restore from the CLI', () => {
  let directory: string;
  const created: string[] = [];
  let source: Record<string, string>;
  let target: Record<string, string>;
  const baseUrl = process.env.DATABASE_URL;

  async function freshEnvironment(
    name: string,
    kind: 'own' | 'pglite' = 'own',
  ): Promise<Record<string, string>> {
    const env: Record<string, string> = { DATA_DIR: path.join(directory, name), SECRET_KEY: 'k'.repeat(40) };
    if (baseUrl && kind === 'own') {
      const database = `propusk_backup_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query(`create database ${database}`);
      await admin.end();
      created.push(database);
      const url = new URL(baseUrl);
      url.pathname = `/${database}`;
      env.DATABASE_URL = url.toString();
    }
    return env;
  }

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'propusk-backup-cli-'));
    source = await freshEnvironment('source');
    target = await freshEnvironment('target');
  }, SLOW);
  afterAll(async () => {
    if (baseUrl) {
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      for (const name of created) await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    }
    rmSync(directory, { recursive: true, force: true });
  });

  it(
    'backs up, restores into a fresh database, refuses one with data unless --force, refuses a bad file',
    async () => {
      const made = await runCli(
        source,
        'create-admin',
        '--phone',
        '+79990000501',
        '--password',
        'secret-pass-heron-7',
      );
      expect(made.code, made.stderr).toBe(0);
      const file = path.join(directory, 'propusk.ndjson.gz');

      const backup = await runCli(source, 'backup', '--out', file);
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(
        /^Резервная копия записана в .*propusk\.ndjson\.gz: таблиц \d+, строк 1,/,
      );

      const restored = await runCli(target, 'restore', '--from', file);
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(/^База данных восстановлена из .*: таблиц \d+, строк 1,/);
      expect(restored.stdout).not.toMatch(/другим ключом/);
      expect(await userPhones(target)).toEqual(['+79990000501']);

      const made2 = await runCli(
        target,
        'create-admin',
        '--phone',
        '+79990000502',
        '--password',
        'secret-pass-heron-7',
      );
      expect(made2.code).toBe(0);
      const refused = await runCli(target, 'restore', '--from', file);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^Ошибка: В базе данных уже есть данные \(таблицы: .*users.*\).*--force/,
      );
      expect(await userPhones(target)).toEqual(['+79990000501', '+79990000502']);

      const bad = path.join(directory, 'bad.gz');
      writeFileSync(bad, 'not a backup\n');
      const badFile = await runCli(target, 'restore', '--from', bad, '--force');
      expect(badFile.code).toBe(1);
      expect(badFile.stderr).toMatch(/^Ошибка: Файл .*bad\.gz не является резервной копией Пропуска/);
      expect(await userPhones(target)).toEqual(['+79990000501', '+79990000502']);

      const forced = await runCli(target, 'restore', '--from', file, '--force');
      expect(forced.code, forced.stderr).toBe(0);
      expect(await userPhones(target)).toEqual(['+79990000501']);

      const missing = await runCli(target, 'restore');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/^Ошибка: укажите файл: --from ФАЙЛ\./);
      const noOut = await runCli(target, 'backup');
      expect(noOut.code).toBe(2);
      expect(noOut.stderr).toMatch(/^Ошибка: укажите файл: --out ФАЙЛ\./);
    },
    SLOW,
  );

  it(
    'warns when the backup was taken under another server key',
    async () => {
      const file = path.join(directory, 'propusk.ndjson.gz');
      const elsewhere = { ...(await freshEnvironment('elsewhere')), SECRET_KEY: 'z'.repeat(40) };
      const restored = await runCli(elsewhere, 'restore', '--from', file);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/Внимание: копия сделана с другим ключом сервера/);
    },
    SLOW,
  );

  it.runIf(baseUrl)(
    'restores a backup of the embedded database into PostgreSQL',
    async () => {
      const embedded = await freshEnvironment('embedded', 'pglite');
      const made = await runCli(
        embedded,
        'create-admin',
        '--phone',
        '+79990000503',
        '--password',
        'secret-pass-heron-7',
      );
      expect(made.code, made.stderr).toBe(0);
      const file = path.join(directory, 'embedded.ndjson.gz');
      expect((await runCli(embedded, 'backup', '--out', file)).code).toBe(0);
      const postgres = await freshEnvironment('postgres');
      const restored = await runCli(postgres, 'restore', '--from', file);
      expect(restored.code, restored.stderr).toBe(0);
      expect(await userPhones(postgres)).toEqual(['+79990000503']);
    },
    SLOW,
  );
});
