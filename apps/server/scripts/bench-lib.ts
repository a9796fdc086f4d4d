/**
 * What `npm run seed` and `npm run bench` share: the database they use, its creation, argument parsing, and
 * the key that both the seeded ciphertexts and the bench's tokens are made with.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';

export const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/propusk_bench';

/** Same key in seed and bench: seeded device passwords decrypt, tokens issued by the bench verify. */
export const BENCH_SECRET_KEY = process.env.SECRET_KEY ?? 'propusk-bench-secret-key-0123456789abcdefghij';

/** The password of every seeded administrator (so that the admin login can be tried by hand). */
export const SEEDED_ADMIN_PASSWORD = 'bench-admin-password';
/** The device password behind every seeded RTU barrier's ciphertext. */
export const SEEDED_DEVICE_PASSWORD = '1234';

export function benchDatabaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_BENCH_DATABASE_URL;
}

/** Load goes only to this machine: the database and the HTTP server must be on loopback. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host) || host === '';
  if (!loopback) {
    throw new Error(`Refusing to load a non-loopback host (${host}); use a database on 127.0.0.1.`);
  }
}

/** Creates the database named in the URL when it does not exist yet (connecting to `postgres` for that). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`Unsupported database name: ${name}`);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      // Cyrillic trigrams need a locale that classifies Cyrillic letters (C.UTF-8 does; plain C does not).
      await client.query(`create database ${name}`);
      process.stdout.write(`created database ${name}\n`);
    }
  } finally {
    await client.end();
  }
}

export interface ParsedArguments {
  flags: Set<string>;
  values: Map<string, string>;
}

/** `--flag` and `--name value` / `--name=value`. */
export function parseArguments(argv: string[]): ParsedArguments {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (!argument.startsWith('--')) throw new Error(`Unexpected argument: ${argument}`);
    const [name, inline] = argument.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) {
      values.set(name, inline);
    } else if (argv[index + 1] !== undefined && !argv[index + 1]?.startsWith('--')) {
      values.set(name, argv[index + 1] as string);
      index += 1;
    } else {
      flags.add(name);
    }
  }
  return { flags, values };
}

export function numberArgument(parsed: ParsedArguments, name: string, fallback: number): number {
  const raw = parsed.values.get(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

export function formatSeconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** The value at percentile `p` (0..100) of an ascending list (NaN when empty). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/**
 * Runs `run` on a fresh database named `{prefix}_{random}` next to DATABASE_URL's (default: the local
 * PostgreSQL's `postgres`), on loopback only, and drops it afterwards whatever happens.
 */
export async function withScratchDatabase<T>(prefix: string, run: (url: string) => Promise<T>): Promise<T> {
  const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  assertLoopback(baseUrl);
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    const dropper = new pg.Client({ connectionString: baseUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  }
}

/** The plain reference of a run: one round trip and one committed insert on this database, in ms (mean of `runs`). */
export async function databaseTimings(
  url: string,
  runs: number,
): Promise<{ roundTrip: number; commit: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create temporary table bench_probe (value int)');
    const time = async (text: string) => {
      const start = performance.now();
      for (let index = 0; index < runs; index++) await client.query(text);
      return (performance.now() - start) / runs;
    };
    return {
      roundTrip: await time('select 1'),
      commit: await time('begin; insert into bench_probe values (1); commit;'),
    };
  } finally {
    await client.end();
  }
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU time (µs, user + system) a process has used so far, read from /proc (0 when it is gone). */
export function processCpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ", utime and stime are the 12th and 13th fields.
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * The CPU the PostgreSQL backends of one database used between `start()` and `read()`, sampled by `sample()`
 * as often as convenient (a backend that ends keeps what its last sample saw). µs.
 */
export function databaseCpu(pool: pg.Pool, database: string) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = async () => {
    const backends = await pool.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1',
      [database],
    );
    for (const { pid } of backends.rows) {
      const used = processCpuMicros(pid);
      if (used === 0) continue;
      if (!first.has(pid)) first.set(pid, used);
      last.set(pid, Math.max(used, last.get(pid) ?? 0));
    }
  };
  return {
    sample,
    async start() {
      first.clear();
      last.clear();
      await sample();
    },
    async read(): Promise<number> {
      await sample();
      let total = 0;
      for (const [pid, used] of last) total += used - (first.get(pid) ?? used);
      return total;
    },
  };
}
