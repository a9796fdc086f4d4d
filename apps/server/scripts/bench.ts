/**
 * `npm run bench [-- --duration 10] [--connections 50] [--only barriers] [--rate 1500]`: loads the read endpoints of the
 * barrier domain on the seeded PostgreSQL database (`npm run seed` first) and prints, for each, req/s,
 * p50/p99 latency, non-2xx responses and the number of SQL queries one request makes, beside a plain
 * Fastify route measured in the same run. Then it runs `scripts/bench-devices.ts` when that file exists.
 *
 * `--rate N` sends N requests a second (autocannon's `overallRate`) instead of as many as the server takes: a
 * run's Node CPU per request falls as its throughput rises (more requests per turn of the event loop), so on a
 * shared machine two versions compare best at the same rate (docs/journal/2026-11-29-hot-paths.md).
 *
 * The app is built exactly as `npm start` builds it (buildApp, a pool of 20 connections) and listens on a
 * random port of 127.0.0.1. Autocannon's programmatic API runs in a child process, so the load generator
 * shares neither the server's event loop nor its CPU count. Only loopback addresses are used.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { applyMigrations, openDatabase } from '../src/db/database.ts';
import { domainHooks } from '../src/domain-hooks.ts';
import { systemClock } from '../src/lib/clock.ts';
import type { Dependencies } from '../src/lib/dependencies.ts';
import { deviceWakeUp } from '../src/lib/device-wake.ts';
import { createMetrics } from '../src/lib/metrics.ts';
import { RateLimiter } from '../src/lib/rate-limiter.ts';
import { Secrets } from '../src/lib/secrets.ts';
import { createSmsGateway } from '../src/lib/sms-gateway.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import {
  assertLoopback,
  BENCH_SECRET_KEY,
  benchDatabaseUrl,
  formatCount,
  numberArgument,
  parseArguments,
  processCpuMicros,
} from './bench-lib.ts';
import {
  BAD_PLAN_EXTRA_MS,
  BAD_PLAN_RATIO,
  type CapturedQuery,
  comparePlans,
  serverPlanCacheMode,
} from './bench-plans.ts';

/** The part of autocannon's result used here. */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  /** Requests a second over all connections (`--rate`); unset: as many as the server answers. */
  overallRate?: number;
}

/**
 * Autocannon's programmatic API, run in a child process: the load generator then has its own process, so
 * it does not share the server's event loop and the server's CPU time can be read apart from it.
 */
const AUTOCANNON_CHILD = `
const autocannon = require('autocannon');
autocannon(JSON.parse(process.argv[1])).then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (error) => { process.stderr.write(String(error && error.stack || error)); process.exit(1); },
);`;

function runAutocannon(options: AutocannonOptions): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', AUTOCANNON_CHILD, JSON.stringify(options)],
      { cwd: import.meta.dirname, maxBuffer: 64 * 1024 * 1024, timeout: (options.duration + 60) * 1000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`autocannon failed: ${stderr || error.message}`));
        else resolve(JSON.parse(stdout) as AutocannonResult);
      },
    );
  });
}

async function cpuSnapshot(pool: pg.Pool): Promise<{ server: number; database: number }> {
  const usage = process.cpuUsage();
  const backends = await pool.query<{ pid: number }>(
    'select pid from pg_stat_activity where application_name = $1',
    [APPLICATION_NAME],
  );
  const database = backends.rows.reduce((sum, row) => sum + processCpuMicros(row.pid), 0);
  return { server: usage.user + usage.system, database };
}
const APPLICATION_NAME = 'propusk-bench';

/** Targets of issue 3 at the seeded scale. */
const TARGET_REQUESTS_PER_SECOND = 3000;
const TARGET_P99_MS = 50;

/**
 * Every query that any pg client of this process sends goes through here, so one request's queries can be
 * counted (and explained) without touching the app.
 */
const queryLog = { capturing: false, queries: [] as CapturedQuery[] };
function installQueryCounter(): void {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function countedQuery(this: unknown, ...args: unknown[]) {
    if (queryLog.capturing) {
      const [first, second] = args;
      // query(text, values) or query({ text, values? }, values?) — drizzle passes the values second.
      if (typeof first === 'string') {
        queryLog.queries.push({ text: first, values: Array.isArray(second) ? second : [], name: '' });
      } else if (first && typeof first === 'object' && 'text' in first) {
        const config = first as { text: string; values?: unknown[]; name?: string };
        queryLog.queries.push({
          text: config.text,
          values: Array.isArray(second) ? second : (config.values ?? []),
          name: config.name ?? '',
        });
      }
    }
    return original.apply(this, args);
  };
}

interface Endpoint {
  name: string;
  /** Which server: the app, or the plain Fastify reference. */
  target: 'app' | 'plain';
  path: string;
  token?: string;
  /** Issue 3's list; the others are shown for reference. */
  isTarget: boolean;
}

interface Measurement {
  endpoint: Endpoint;
  status: number;
  queries: CapturedQuery[];
  /** Queries of the same list call with page_size=100: equal to `queries` when there is no N+1. */
  queriesAtFullPage?: number;
  result?: AutocannonResult;
  /** CPU µs per request: the Node process (app) and its PostgreSQL backends. */
  cpuPerRequest?: { server: number; database: number };
  note?: string;
  /** Queries whose generic plan the server would run although it is far worse (bench-plans.ts). */
  badPlans: number;
}

interface Subjects {
  bigBarrierId: number;
  bigBarrierUsers: number;
  adminId: number;
  adminBarriers: number;
  /**
   * The administrator whose first barrier is the newest (the last to join): his list once walked the primary
   * key from the first barrier of the install to his own (decision 0027, sixth session).
   */
  newestAdminId: number;
  newestAdminFirstBarrier: number;
  userId: number;
  userBarriers: number;
  userPhonesOnBigBarrier: number;
  addressSearch: string;
  addressMatches: number;
  userSearch: string;
  /** Digits of a number on the big barrier: the search that compares phones too. */
  userPhoneSearch: string;
}

async function findSubjects(pool: pg.Pool): Promise<Subjects> {
  const big = await pool.query<{ barrier_id: number; users: string; owner_id: number }>(
    `select a.barrier_id, count(*) as users, b.owner_id
       from barrier_access a join barriers b on b.id = a.barrier_id
      where b.deleted_at is null
      group by a.barrier_id, b.owner_id
      order by count(*) desc, a.barrier_id
      limit 1`,
  );
  const bigRow = big.rows[0];
  if (!bigRow) throw new Error('The database has no barriers: run `npm run seed` first.');
  // The user with the most barriers among those with access to the big barrier (not its owner).
  const user = await pool.query<{ user_id: number; barriers: string; phones: string }>(
    `select a.user_id,
            (select count(*) from barrier_access x where x.user_id = a.user_id) as barriers,
            (select count(*) from phones p where p.user_id = a.user_id and p.barrier_id = a.barrier_id) as phones
       from barrier_access a
      where a.barrier_id = $1 and a.user_id <> $2
      order by 3 desc, 2 desc, a.user_id
      limit 1`,
    [bigRow.barrier_id, bigRow.owner_id],
  );
  const userRow = user.rows[0];
  if (!userRow)
    throw new Error('The big barrier has no users besides its owner: run `npm run seed -- --reset`.');
  const adminBarriers = await pool.query<{ count: string }>(
    'select count(*) from barriers where owner_id = $1 and deleted_at is null',
    [bigRow.owner_id],
  );
  const phoneOnBig = await pool.query<{ phone: string }>('select phone from users where id = $1', [
    userRow.user_id,
  ]);
  const newest = await pool.query<{ owner_id: number; first: number }>(
    `select owner_id, min(id) as first from barriers where deleted_at is null
      group by owner_id order by min(id) desc limit 1`,
  );
  const addressSearch = 'Ленина';
  const matches = await pool.query<{ count: string }>(
    'select count(*) from barriers where search_vector @@ barrier_search_query($1) and deleted_at is null',
    [addressSearch],
  );
  return {
    bigBarrierId: bigRow.barrier_id,
    bigBarrierUsers: Number(bigRow.users),
    adminId: bigRow.owner_id,
    adminBarriers: Number(adminBarriers.rows[0]?.count ?? 0),
    newestAdminId: newest.rows[0]?.owner_id ?? bigRow.owner_id,
    newestAdminFirstBarrier: Number(newest.rows[0]?.first ?? bigRow.barrier_id),
    userId: userRow.user_id,
    userBarriers: Number(userRow.barriers),
    userPhonesOnBigBarrier: Number(userRow.phones),
    addressSearch,
    addressMatches: Number(matches.rows[0]?.count ?? 0),
    userSearch: 'Иван',
    userPhoneSearch: (phoneOnBig.rows[0]?.phone ?? '+79990000000').slice(-5),
  };
}

function buildEndpoints(
  subjects: Subjects,
  userToken: string,
  adminToken: string,
  newestAdminToken: string,
): Endpoint[] {
  const search = (parameters: Record<string, string | number>) =>
    new URLSearchParams(
      Object.entries(parameters).map(([key, value]): [string, string] => [key, String(value)]),
    ).toString();
  const yearAgo = new Date(Date.now() - 365 * 24 * 3600 * 1000).toISOString();
  const today = new Date().toISOString();
  const historyFilters = {
    page: 1,
    page_size: 10,
    action_type: 'add_phone',
    created_from: yearAgo,
    created_to: today,
  };
  const big = subjects.bigBarrierId;
  return [
    { name: 'plain Fastify hello (reference)', target: 'plain', path: '/hello', isTarget: false },
    // The floor of a one-statement read: plain Fastify and the app's pool, one prepared `select 1`.
    { name: 'plain Fastify + 1 statement (reference)', target: 'plain', path: '/one', isTarget: false },
    // The same statement on one connection of node-postgres's pipeline mode (no pool): what fewer round trips
    // for many requests would save (a lever measured, not used by the app: docs/journal/2026-11-29-fifteenth-session.md).
    {
      name: 'plain Fastify + 1 statement, pipelined (reference)',
      target: 'plain',
      path: '/one-pipelined',
      isTarget: false,
    },
    // The app's hooks and plugins without a statement, then with health's one.
    { name: 'GET /api/health/live (reference)', target: 'app', path: '/api/health/live', isTarget: false },
    { name: 'GET /api/health/ (reference)', target: 'app', path: '/api/health/', isTarget: false },
    { name: 'GET /api/users/me/', target: 'app', path: '/api/users/me/', token: userToken, isTarget: true },
    {
      name: 'GET /api/barriers/',
      target: 'app',
      path: `/api/barriers/?${search({ page: 1, page_size: 5 })}`,
      token: userToken,
      isTarget: true,
    },
    {
      name: `GET /api/barriers/?address=${subjects.addressSearch}`,
      target: 'app',
      path: `/api/barriers/?${search({ page: 1, page_size: 5, ordering: 'address', address: subjects.addressSearch })}`,
      token: userToken,
      isTarget: true,
    },
    {
      name: 'GET /api/barriers/my/',
      target: 'app',
      path: `/api/barriers/my/?${search({ page: 1, page_size: 5 })}`,
      token: userToken,
      isTarget: true,
    },
    {
      name: 'GET /api/barriers/{id}/actions/',
      target: 'app',
      path: `/api/barriers/${big}/actions/?${search({ page: 1, page_size: 10 })}`,
      token: userToken,
      isTarget: true,
    },
    {
      name: 'GET /api/barriers/{id}/actions/ +filters',
      target: 'app',
      path: `/api/barriers/${big}/actions/?${search(historyFilters)}`,
      token: userToken,
      isTarget: true,
    },
    {
      name: 'GET /api/admin/barriers/{id}/actions/ +filters',
      target: 'app',
      path: `/api/admin/barriers/${big}/actions/?${search(historyFilters)}`,
      token: adminToken,
      isTarget: true,
    },
    {
      name: 'GET /api/admin/barriers/{id}/users/',
      target: 'app',
      path: `/api/admin/barriers/${big}/users/?${search({ page: 1, page_size: 10 })}`,
      token: adminToken,
      isTarget: true,
    },
    {
      name: `GET /api/admin/barriers/{id}/users/?search=${subjects.userSearch}`,
      target: 'app',
      path: `/api/admin/barriers/${big}/users/?${search({ page: 1, page_size: 10, search: subjects.userSearch })}`,
      token: adminToken,
      isTarget: true,
    },
    {
      name: `GET /api/admin/barriers/{id}/users/?search=${subjects.userPhoneSearch}`,
      target: 'app',
      path: `/api/admin/barriers/${big}/users/?${search({ page: 1, page_size: 10, search: subjects.userPhoneSearch })}`,
      token: adminToken,
      isTarget: true,
    },
    {
      name: 'GET /api/admin/barriers/my/',
      target: 'app',
      path: `/api/admin/barriers/my/?${search({ page: 1, page_size: 5 })}`,
      token: adminToken,
      isTarget: false,
    },
    {
      name: 'GET /api/admin/barriers/my/ (newest administrator)',
      target: 'app',
      path: `/api/admin/barriers/my/?${search({ page: 1, page_size: 5 })}`,
      token: newestAdminToken,
      isTarget: false,
    },
  ];
}

function shortSql(text: string): string {
  const compact = text.replace(/\s+/g, ' ').trim();
  return compact.length > 110 ? `${compact.slice(0, 107)}...` : compact;
}

function pad(value: string, width: number, alignRight = false): string {
  return alignRight ? value.padStart(width) : value.padEnd(width);
}

/**
 * Requests per second that two otherwise idle cores could serve at the measured CPU cost per request (Node
 * + PostgreSQL, the load generator left out): a figure that other work on the machine disturbs much less
 * than the measured req/s.
 */
function capacityOnTwoCores(measurement: Measurement): number | undefined {
  const cpu = measurement.cpuPerRequest;
  if (!cpu) return undefined;
  return 2_000_000 / Math.max(1, cpu.server + cpu.database);
}

function printTable(measurements: Measurement[]): void {
  const header = [
    pad('endpoint', 50),
    pad('req/s', 7, true),
    pad('p50 ms', 6, true),
    pad('p99 ms', 6, true),
    pad('non-2xx', 7, true),
    pad('errors', 6, true),
    pad('queries', 7, true),
    pad('cpu µs/req node+pg', 18, true),
    pad('2-core req/s', 12, true),
    pad('× plain', 7, true),
    '  target',
  ].join(' ');
  // Issue 44 part 5's measure: the Node CPU a request against plain Fastify's hello in the same run.
  const plainNode = measurements.find((measurement) => measurement.endpoint.path === '/hello')?.cpuPerRequest
    ?.server;
  process.stdout.write(`\n${header}\n${'-'.repeat(header.length)}\n`);
  for (const measurement of measurements) {
    const { endpoint, result, cpuPerRequest } = measurement;
    const verdict = !endpoint.isTarget
      ? ''
      : !result
        ? 'not run'
        : result.requests.average >= TARGET_REQUESTS_PER_SECOND &&
            result.latency.p99 <= TARGET_P99_MS &&
            result.non2xx === 0
          ? 'met'
          : 'MISSED';
    const planVerdict = measurement.badPlans > 0 ? ` BAD PLAN (${measurement.badPlans})` : '';
    const capacity = capacityOnTwoCores(measurement);
    const cells = [
      pad(endpoint.name, 50),
      pad(result ? formatCount(Math.round(result.requests.average)) : '-', 7, true),
      pad(result ? String(result.latency.p50) : '-', 6, true),
      pad(result ? String(result.latency.p99) : '-', 6, true),
      pad(result ? formatCount(result.non2xx) : '-', 7, true),
      pad(result ? formatCount(result.errors + result.timeouts) : '-', 6, true),
      pad(
        endpoint.target === 'plain'
          ? '-'
          : `${measurement.queries.length}${measurement.queriesAtFullPage === undefined ? '' : `/${measurement.queriesAtFullPage}`}`,
        7,
        true,
      ),
      pad(
        cpuPerRequest ? `${Math.round(cpuPerRequest.server)} + ${Math.round(cpuPerRequest.database)}` : '-',
        18,
        true,
      ),
      pad(capacity ? formatCount(Math.round(capacity)) : '-', 12, true),
      pad(cpuPerRequest && plainNode ? `${(cpuPerRequest.server / plainNode).toFixed(1)}×` : '-', 7, true),
      `  ${verdict}${planVerdict}${measurement.note ? ` (${measurement.note})` : ''}`,
    ];
    process.stdout.write(`${cells.join(' ')}\n`);
  }
}

/** One request alone, with every query it makes. */
async function probeQueries(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; queries: CapturedQuery[] }> {
  queryLog.queries = [];
  queryLog.capturing = true;
  try {
    const response = await fetch(url, { headers });
    const body = await response.text();
    return { status: response.status, body, queries: [...queryLog.queries] };
  } finally {
    queryLog.capturing = false;
  }
}

/** Requests still in flight when autocannon stops finish after it: wait until no connection is busy. */
async function waitForIdlePool(pool: pg.Pool): Promise<void> {
  const deadline = Date.now() + 10_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    const busy = pool.totalCount - pool.idleCount > 0 || pool.waitingCount > 0;
    if (busy) quietSince = Date.now();
    else if (Date.now() - quietSince >= 300) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

async function runDeviceBenchIfPresent(): Promise<void> {
  const file = path.join(import.meta.dirname, 'bench-devices.ts');
  if (!existsSync(file)) {
    process.stdout.write('\n(scripts/bench-devices.ts not present: no device figures)\n');
    return;
  }
  process.stdout.write('\n== device bench (scripts/bench-devices.ts) ==\n');
  const module = (await import(file)) as { runDeviceBench?: () => Promise<unknown> };
  if (typeof module.runDeviceBench === 'function') await module.runDeviceBench();
  const traffic = path.join(import.meta.dirname, 'bench-traffic.ts');
  if (!existsSync(traffic)) return;
  process.stdout.write('\n== device traffic (scripts/bench-traffic.ts) ==\n');
  const trafficModule = (await import(traffic)) as { runTrafficBench?: () => Promise<unknown> };
  if (typeof trafficModule.runTrafficBench === 'function') await trafficModule.runTrafficBench();
}

async function main() {
  const parsed = parseArguments(process.argv.slice(2));
  const duration = numberArgument(parsed, 'duration', 10);
  const connections = Math.round(numberArgument(parsed, 'connections', 50));
  const only = parsed.values.get('only');
  const rate = parsed.values.has('rate') ? Math.round(numberArgument(parsed, 'rate', 1)) : undefined;
  const paced = rate === undefined ? {} : { overallRate: rate };
  const databaseUrl = benchDatabaseUrl();
  assertLoopback(databaseUrl);

  installQueryCounter();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'propusk-bench-'));
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SECRET_KEY: BENCH_SECRET_KEY,
    SMS_PROVIDER: 'demo',
    DEVICE_SIM: 'off',
    HOST: '127.0.0.1',
    PORT: '0',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
  });
  const poolUrl = new URL(databaseUrl);
  poolUrl.searchParams.set('application_name', APPLICATION_NAME);
  const handle = await openDatabase({
    databaseUrl: poolUrl.toString(),
    dataDir,
    poolSize: 20,
    preparedStatements: true,
  });
  if (handle.kind !== 'postgres') throw new Error('The bench needs PostgreSQL');
  await applyMigrations(handle);
  // Keep every connection open for the whole run and open them all now: the CPU time of the PostgreSQL
  // backends is read per process, and a connection closed when idle would take its CPU time with it.
  handle.pool.options.idleTimeoutMillis = 0;
  const opened = await Promise.all(Array.from({ length: 20 }, () => handle.pool.connect()));
  for (const client of opened) client.release();

  const logger = pino({ level: 'silent' });
  const windowMs = config.RATE_LIMIT_WINDOW_SECONDS * 1000;
  const deps: Dependencies = {
    config,
    db: handle.db,
    databaseKind: handle.kind,
    clock: systemClock,
    secrets: new Secrets(BENCH_SECRET_KEY),
    sms: createSmsGateway(config, () => {}),
    logger,
    metrics: createMetrics(),
    rateLimits: {
      codeRequests: new RateLimiter(config.RATE_LIMIT_CODE_REQUESTS, windowMs),
      authCalls: new RateLimiter(config.RATE_LIMIT_AUTH_CALLS, windowMs),
      logs: new RateLimiter(600, windowMs),
    },
    ...domainHooks(),
    ...deviceWakeUp(),
  };

  const subjects = await findSubjects(handle.pool);
  const userTokens = await issueSession(deps, deps.db, subjects.userId);
  const adminTokens = await issueSession(deps, deps.db, subjects.adminId);
  const newestAdminTokens = await issueSession(deps, deps.db, subjects.newestAdminId);
  const counts = await handle.pool.query<{ relname: string; rows: string }>(
    `select relname, reltuples::bigint as rows from pg_class
      where relname in ('users', 'barriers', 'barrier_access', 'phones', 'actions') and relkind = 'r'
      order by relname`,
  );
  process.stdout.write(
    `database: ${counts.rows.map((row) => `${row.relname} ~${formatCount(Number(row.rows))}`).join(', ')}\n` +
      `subjects: user ${subjects.userId} (${subjects.userBarriers} barriers, ${subjects.userPhonesOnBigBarrier} phones on the big one); ` +
      `admin ${subjects.adminId} (${subjects.adminBarriers} barriers); newest administrator ` +
      `${subjects.newestAdminId} (first barrier ${subjects.newestAdminFirstBarrier}); big barrier ${subjects.bigBarrierId} ` +
      `(${subjects.bigBarrierUsers} users); address '${subjects.addressSearch}' matches ${subjects.addressMatches} barriers\n` +
      `machine: ${os.cpus().length} cores, load average ${loadAverage()} (other work on the machine skews the figures)\n` +
      `load: autocannon, ${connections} connections, ${duration} s per endpoint${rate === undefined ? '' : `, ${formatCount(rate)} requests a second`}, pool of 20 PostgreSQL connections\n`,
  );

  const app = await buildApp(deps, { logger });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const plain: FastifyInstance = Fastify({ logger: false });
  plain.get('/hello', async () => ({ hello: 'world' }));
  plain.get('/one', async () => {
    const result = await handle.pool.query<{ one: number }>({ name: 'bench.one', text: 'select 1 as one' });
    return { one: result.rows[0]?.one };
  });
  const pipelined = new pg.Client({ connectionString: poolUrl.toString(), pipeline: true });
  await pipelined.connect();
  plain.get('/one-pipelined', async () => {
    const result = await pipelined.query<{ one: number }>({ name: 'bench.one', text: 'select 1 as one' });
    return { one: result.rows[0]?.one };
  });
  await plain.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = (server: FastifyInstance) => {
    const address = server.server.address();
    if (!address || typeof address === 'string') throw new Error('server has no port');
    return `http://127.0.0.1:${address.port}`;
  };
  const urls = { app: baseUrl(app), plain: baseUrl(plain) };

  const endpoints = buildEndpoints(
    subjects,
    userTokens.access_token,
    adminTokens.access_token,
    newestAdminTokens.access_token,
  ).filter((endpoint) => !only || endpoint.name.includes(only) || endpoint.target === 'plain');
  const measurements: Measurement[] = [];
  const explainClient = await handle.pool.connect();
  const planCacheMode = await serverPlanCacheMode(explainClient);
  process.stdout.write(`plans: plan_cache_mode ${planCacheMode} on the server's connections\n`);
  try {
    for (const endpoint of endpoints) {
      const url = `${urls[endpoint.target]}${endpoint.path}`;
      const headers: Record<string, string> = endpoint.token
        ? { authorization: `Bearer ${endpoint.token}` }
        : {};
      // One request alone, to count its queries and check that it answers (after the previous load drained).
      await waitForIdlePool(handle.pool);
      const probe = await probeQueries(url, headers);
      const measurement: Measurement = {
        endpoint,
        status: probe.status,
        queries: probe.queries,
        badPlans: 0,
      };
      measurements.push(measurement);
      process.stdout.write(
        `\n${endpoint.name}\n  ${endpoint.path}\n  probe: ${probe.status}, ${measurement.queries.length} queries\n`,
      );
      // A list must not make more queries for a longer page (no query per row).
      if (url.includes('page_size=') && probe.status === 200) {
        const full = await probeQueries(url.replace(/page_size=\d+/, 'page_size=100'), headers);
        measurement.queriesAtFullPage = full.queries.length;
        process.stdout.write(
          `  same call with page_size=100: ${full.status}, ${full.queries.length} queries\n`,
        );
      }
      const probeBody = probe.body;
      if (probe.status < 200 || probe.status >= 300) {
        measurement.note = `probe answered ${probe.status}: ${probeBody.slice(0, 80)}`;
        process.stdout.write(`  skipped: ${measurement.note}\n`);
        continue;
      }
      for (const [index, query] of measurement.queries.entries()) {
        const verdict = await comparePlans(explainClient, query, planCacheMode);
        if (verdict.isBad) measurement.badPlans += 1;
        process.stdout.write(
          `  q${index + 1}: ${shortSql(query.text)}\n${verdict.lines.map((line) => `      ${line}\n`).join('')}`,
        );
      }
      // A short warm-up (JIT, pool connections, PostgreSQL caches), then the measured run.
      await runAutocannon({ url, connections, duration: Math.min(2, duration), headers, ...paced });
      await waitForIdlePool(handle.pool);
      const before = await cpuSnapshot(handle.pool);
      measurement.result = await runAutocannon({ url, connections, duration, headers, ...paced });
      await waitForIdlePool(handle.pool);
      const after = await cpuSnapshot(handle.pool);
      const { result } = measurement;
      const served = Math.max(1, result.requests.total);
      // The two snapshots' own queries are a rounding error against tens of thousands of requests.
      measurement.cpuPerRequest = {
        server: (after.server - before.server) / served,
        database: Math.max(0, after.database - before.database) / served,
      };
      process.stdout.write(
        `  ${formatCount(Math.round(result.requests.average))} req/s, p50 ${result.latency.p50} ms, ` +
          `p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}; ` +
          `cpu per request ${Math.round(measurement.cpuPerRequest.server)} µs node + ` +
          `${Math.round(measurement.cpuPerRequest.database)} µs postgres\n`,
      );
    }
  } finally {
    explainClient.release();
  }

  printTable(measurements);
  process.stdout.write(
    '\nqueries: per request (a/b: at the page size shown / at page_size=100); cpu: CPU time per request of the ' +
      'Node process and of its PostgreSQL backends; 2-core req/s: 2 cores divided by that CPU time (load ' +
      'generator left out)\n',
  );
  process.stdout.write(`load average at the end: ${loadAverage()}\n`);
  process.stdout.write(
    `\ntarget: each endpoint of issue 3 >= ${formatCount(TARGET_REQUESTS_PER_SECOND)} req/s with p99 <= ${TARGET_P99_MS} ms\n`,
  );

  await app.close();
  await plain.close();
  await pipelined.end();
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });

  // `--only` measures a few endpoints quickly: the device bench is left out then.
  if (!only) await runDeviceBenchIfPresent();

  // A generic plan far worse than the custom one, which the server would run, fails the bench loudly: the
  // figures above may still look fine (a cache, a short run) while one query waits to hurt in production.
  const badPlans = measurements.reduce((sum, measurement) => sum + measurement.badPlans, 0);
  if (badPlans > 0) {
    process.stdout.write(
      `\nBAD PLAN: ${badPlans} quer${badPlans === 1 ? 'y' : 'ies'} would run a generic plan more than ` +
        `${BAD_PLAN_RATIO}× and ${BAD_PLAN_EXTRA_MS} ms slower than its custom plan (see the lines above)\n`,
    );
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
