/**
 * `npm run bench:processes`: three server processes on one PostgreSQL through PgBouncer in transaction mode
 * (issue 31 part 6), under a mixed load of reads and phone adds, one of them killed with SIGKILL halfway and
 * started again (as a process manager would). Prints requests per second, p99 and errors (those of the killed
 * process's clients apart), then, once the device queue has drained, the commands lost (a phone in the database
 * that its device, replayed from every SMS that left, does not hold), the SMS sent twice and how many simulated
 * whitelists equal the database.
 *
 * A private PostgreSQL cluster in a temp folder (bench-cluster.ts) and Debian's pgbouncer (own ini, port
 * BENCH_PGBOUNCER_PORT or a free one) are started and removed at the end. Settings: PROCESSES_LOAD_SECONDS (60),
 * PROCESSES_CONNECTIONS (300, split between the three). Only loopback addresses are used.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeviceModel } from '@propusk/devices/models';
import { createDeviceSimulator } from '@propusk/devices/simulator';
import { inArray, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../src/db/database.ts';
import * as schema from '../src/db/schema.ts';
import { commandSmsSql } from '../src/engine/budget/index.ts';
import { systemClock } from '../src/lib/clock.ts';
import { Secrets } from '../src/lib/secrets.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import {
  type AutocannonResult,
  type Cluster,
  freePort,
  type LoadRequest,
  readSmsFile,
  runAutocannon,
  SERVER_DIRECTORY,
  type Server,
  sleep,
  startCluster,
  startServer,
  stopServer,
} from './bench-cluster.ts';
import { BENCH_SECRET_KEY, formatCount } from './bench-lib.ts';
import { loadAverage } from './bench-load-probes.ts';

const LOAD_SECONDS = Number(process.env.PROCESSES_LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.PROCESSES_CONNECTIONS ?? 300);
const PROCESS_COUNT = 3;
const BARRIERS = 12;
const print = (line = '') => process.stdout.write(`${line}\n`);

/** Debian's pgbouncer in transaction mode in front of the private cluster (as .ci/pgbouncer does for CI). */
async function startPgBouncer(
  root: string,
  postgresPort: number,
): Promise<{ port: number; stop: () => void }> {
  const binary = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((file) => existsSync(file));
  if (!binary) throw new Error('pgbouncer is not installed (Debian: apt-get install pgbouncer)');
  const directory = path.join(root, 'pgbouncer');
  mkdirSync(directory);
  const port = Number(process.env.BENCH_PGBOUNCER_PORT ?? (await freePort()));
  writeFileSync(path.join(directory, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    path.join(directory, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=127.0.0.1 port=${postgresPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${directory}/userlist.txt`,
      'pool_mode = transaction',
      'max_client_conn = 2000',
      'default_pool_size = 40',
      'server_reset_query =',
      `logfile = ${directory}/pgbouncer.log`,
      `pidfile = ${directory}/pgbouncer.pid`,
      '',
    ].join('\n'),
  );
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    for (const file of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(path.join(directory, file), uid, -1);
  }
  const started = spawnSync(binary, [
    '-d',
    ...(isRoot ? ['-u', 'postgres'] : []),
    `${directory}/pgbouncer.ini`,
  ]);
  if (started.status !== 0) throw new Error(`pgbouncer did not start: ${started.stderr.toString()}`);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await sleep(100);
    }
  }
  return {
    port,
    stop: () => {
      try {
        process.kill(Number(readFileSync(path.join(directory, 'pgbouncer.pid'), 'utf8')), 'SIGTERM');
      } catch {}
    },
  };
}

async function createBarrier(
  url: string,
  token: string,
  devicePhone: string,
  model: 'RTU5025' | 'Telemetrica',
) {
  const response = await fetch(`${url}/api/admin/barriers/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      address: `г. Москва, ул. Процессов, д. ${randomInt(1, 1000)}`,
      device_phone: devicePhone,
      device_model: model,
      device_password: model === 'RTU5025' ? '1234' : null,
      device_phones_amount: 999,
    }),
  });
  if (response.status !== 201)
    throw new Error(`creating a barrier: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: number; device_phone: string };
}

function loadRequests(adminToken: string, residentToken: string, residentBarrier: number): LoadRequest[] {
  const resident = { authorization: `Bearer ${residentToken}` };
  const admin = { authorization: `Bearer ${adminToken}` };
  const write: LoadRequest = {
    method: 'POST',
    path: '/api/admin/barriers/__BARRIER__/phones/',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ phone: '__PHONE__', name: 'Процессы', type: 'permanent', user: '__ADMIN__' }),
  };
  // 8 reads and 2 adds per round, as bench:resilience's load.
  return [
    { method: 'GET', path: '/api/users/me/', headers: resident },
    { method: 'GET', path: '/api/barriers/?page=1&page_size=5', headers: resident },
    { method: 'GET', path: '/api/barriers/my/?page=1&page_size=5', headers: resident },
    write,
    {
      method: 'GET',
      path: `/api/barriers/${residentBarrier}/actions/?page=1&page_size=10`,
      headers: resident,
    },
    { method: 'GET', path: '/api/admin/barriers/my/?page=1&page_size=5', headers: admin },
    { method: 'GET', path: '/api/health/ready', headers: {} },
    write,
    { method: 'GET', path: `/api/barriers/${residentBarrier}/phones/my/`, headers: resident },
    { method: 'GET', path: '/api/barriers/?page=1&page_size=5&address=Ленина', headers: resident },
  ].map((entry) => ({ ...entry, path: encodeURI(entry.path) }));
}

/** Whitelists replayed from every SMS that left, compared with the database. */
async function verify(
  pool: pg.Pool,
  db: Database,
  smsFile: string,
  barriers: { id: number; device_phone: string }[],
) {
  const ids = barriers.map((barrier) => barrier.id);
  const devicePhones = new Set(barriers.map((barrier) => barrier.device_phone));
  const lines = readSmsFile(smsFile).filter((line) => devicePhones.has(line.to));
  const rows = await pool.query<{ id: number; device_phone: string; device_model: string }>(
    'select id, device_phone, device_model from barriers where id = any($1)',
    [ids],
  );
  let equal = 0;
  let lost = 0;
  const differences: string[] = [];
  for (const barrier of rows.rows) {
    if (!isDeviceModel(barrier.device_model)) throw new Error(`unknown model ${barrier.device_model}`);
    const simulator = createDeviceSimulator({ model: barrier.device_model, password: '1234' });
    for (const line of lines.filter((entry) => entry.to === barrier.device_phone))
      simulator.receive(line.text, new Date(line.at));
    const device = simulator
      .slots()
      .map((slot) => `${slot.slot}:${slot.number}`)
      .sort();
    const onDevice = new Set(simulator.slots().map((slot) => slot.number));
    const phones = await pool.query<{ slot: number; phone: string }>(
      'select slot, phone from phones where barrier_id = $1 and deleted_at is null',
      [barrier.id],
    );
    lost += phones.rows.filter((row) => !onDevice.has(row.phone)).length;
    const database = phones.rows.map((row) => `${row.slot}:${row.phone}`).sort();
    if (JSON.stringify(device) === JSON.stringify(database)) equal += 1;
    else
      differences.push(
        `barrier ${barrier.id}: ${device.length} on the device, ${database.length} in the database`,
      );
  }
  const counts = new Map<string, number>();
  for (const line of lines)
    counts.set(`${line.to} ${line.text}`, (counts.get(`${line.to} ${line.text}`) ?? 0) + 1);
  const twice = [...counts.entries()].filter(([, count]) => count > 1);
  // The SMS the database counts for these barriers' commands (an attempt is recorded before its SMS leaves):
  // as many as left when every repeat is a retry the database decided (its reply lost with the killed
  // process, say); more left than recorded would be an SMS sent twice by one attempt.
  const [recordedRow] = await db
    .select({ sms: sql<string>`coalesce(sum(${commandSmsSql()}), 0)` })
    .from(schema.deviceCommands)
    .where(inArray(schema.deviceCommands.barrierId, ids));
  const recorded = Number(recordedRow?.sms ?? 0);
  return { sent: lines.length, recorded, lost, twice, equal, total: rows.rows.length, differences };
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'propusk-processes-'));
  let cluster: Cluster | undefined;
  let bouncer: { port: number; stop: () => void } | undefined;
  let pool: pg.Pool | undefined;
  const servers: (Server | undefined)[] = [];
  const cleanup = async () => {
    for (const server of servers) await stopServer(server, 'SIGKILL').catch(() => {});
    await pool?.end().catch(() => {});
    bouncer?.stop();
    await cluster?.stop();
    rmSync(root, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    print(`load average at the start: ${loadAverage()}`);
    cluster = await startCluster(root);
    const admin = new pg.Client({
      connectionString: cluster.url.replace(/\/propusk_resilience$/, '/postgres'),
    });
    await admin.connect();
    await admin.query('create database propusk_resilience');
    await admin.end();
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--scale', '0.01'], {
      cwd: SERVER_DIRECTORY,
      env: { ...process.env, DATABASE_URL: cluster.url, SECRET_KEY: BENCH_SECRET_KEY },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    bouncer = await startPgBouncer(root, cluster.port);
    const bouncerPort = bouncer.port;
    pool = new pg.Pool({ connectionString: cluster.url, max: 4 });
    pool.on('error', () => {});
    const subjects = await pool.query<{ admin_id: number; resident_id: number; barrier_id: number }>(
      `select b.owner_id as admin_id, a.user_id as resident_id, a.barrier_id
         from barrier_access a join barriers b on b.id = a.barrier_id join users u on u.id = a.user_id
        where a.user_id <> b.owner_id and u.role = 'user' and b.deleted_at is null order by b.id limit 1`,
    );
    const subject = subjects.rows[0];
    if (!subject) throw new Error('the seeded database has no resident');
    const deps = { clock: systemClock, secrets: new Secrets(BENCH_SECRET_KEY) };
    const db = drizzle(pool, { schema }) as unknown as Database;
    const adminToken = (await issueSession(deps, db, subject.admin_id)).access_token;
    const residentToken = (await issueSession(deps, db, subject.resident_id)).access_token;

    const smsFile = path.join(root, 'sms-outbox.jsonl');
    const env = (index: number): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: cluster!.url.replace(`:${cluster!.port}/`, `:${bouncerPort}/`),
      DATABASE_PREPARED_STATEMENTS: 'off',
      DATA_DIR: path.join(root, `data-${index}`),
      SECRET_KEY: BENCH_SECRET_KEY,
      SMS_PROVIDER: 'demo',
      SMS_FILE: smsFile,
      DEVICE_SIM: 'on',
      // The demo in production on purpose (issue 40 item 5): allowed, with a warning line.
      ALLOW_DEMO: 'on',
      DEVICE_SIM_DELAY_MS: '50',
      DEVICE_REPLY_TIMEOUT_MS: '3000',
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: path.join(root, 'no-web-build'),
      // The gateway's rate is shared by the processes; 20 a minute (the default) would take the whole run to
      // send the seeded barriers' clock settings.
      SMS_RATE_PER_MINUTE: '60000',
      SMS_RATE_BURST: '1000',
      RATE_LIMIT_CODE_REQUESTS: '1000000',
      RATE_LIMIT_AUTH_CALLS: '1000000',
    });
    const logFile = (index: number) => path.join(root, `server-${index}.log`);
    for (const [index, server] of (
      await Promise.all([0, 1, 2].map((index) => startServer(env(index), logFile(index))))
    ).entries())
      servers[index] = server;
    print(
      `${PROCESS_COUNT} processes (node --import tsx apps/server/src/main.ts) through PgBouncer (transaction mode, 127.0.0.1:${bouncerPort}), ` +
        `DATABASE_PREPARED_STATEMENTS=off, demo SMS with simulated devices`,
    );
    const first = servers[0]!;
    const barriers: { id: number; device_phone: string }[] = [];
    let devicePhone = 700_000_000 + randomInt(0, 200_000_000);
    for (let index = 0; index < BARRIERS; index += 1)
      barriers.push(
        await createBarrier(first.url, adminToken, `+79${String(devicePhone++).padStart(9, '0')}`, 'RTU5025'),
      );
    const requests = loadRequests(adminToken, residentToken, subject.barrier_id).map((entry) =>
      entry.body ? { ...entry, body: entry.body.replace('"__ADMIN__"', String(subject.admin_id)) } : entry,
    );

    const killed = 1;
    const loads = servers.map((server, index) =>
      runAutocannon({
        url: server!.url,
        connections: Math.round(CONNECTIONS / PROCESS_COUNT),
        duration: LOAD_SECONDS,
        requests,
        phoneBase: 100_000_000 + index * 100_000_000 + randomInt(0, 50_000_000),
        writeBarriers: barriers.map((barrier) => barrier.id),
      }),
    );
    await sleep((LOAD_SECONDS * 1000) / 2);
    servers[killed]!.process.kill('SIGKILL');
    await servers[killed]!.exited;
    print(`process ${killed + 1} killed with SIGKILL at ${LOAD_SECONDS / 2} s; started again`);
    servers[killed] = await startServer(env(killed), logFile(killed));
    const results: AutocannonResult[] = await Promise.all(loads);
    const total = results.reduce((sum, result) => sum + result.requests.total, 0);
    const p99 = Math.max(...results.map((result) => result.latency.p99));
    const errorsOf = (result: AutocannonResult) => result.errors + result.timeouts + result.non2xx;
    const survivors = results.filter((_, index) => index !== killed);
    print(
      `requests ${formatCount(total)} (${formatCount(Math.round(total / LOAD_SECONDS))} req/s), p99 ${p99} ms ` +
        `(per process ${results.map((result) => result.latency.p99).join(' / ')} ms); errors and non-2xx: ` +
        `${survivors.reduce((sum, result) => sum + errorsOf(result), 0)} on the surviving processes, ` +
        `${errorsOf(results[killed]!)} on the killed one's clients (its port was closed until it was back)`,
    );

    const ids = barriers.map((barrier) => barrier.id);
    const drainStarted = Date.now();
    let open = -1;
    const drainLimit = Number(process.env.PROCESSES_DRAIN_SECONDS ?? 240) * 1000;
    while (Date.now() - drainStarted < drainLimit) {
      const result = await pool.query<{ open: string }>(
        `select (select count(*) from device_commands where barrier_id = any($1) and status in ('queued', 'sent'))
              + (select count(*) from phones where barrier_id = any($1) and deleted_at is null and status = 'pending') as open`,
        [ids],
      );
      open = Number(result.rows[0]?.open ?? 0);
      if (open === 0) break;
      await sleep(500);
    }
    print(
      `queue drained: ${open === 0 ? 'yes' : `NO (${open} open)`} after ${((Date.now() - drainStarted) / 1000).toFixed(1)} s`,
    );
    if (open !== 0) {
      const statuses = await pool.query<{ status: string; count: string }>(
        'select status, count(*) from device_commands where barrier_id = any($1) group by status',
        [ids],
      );
      print(
        `  device commands by status: ${statuses.rows.map((row) => `${row.status} ${row.count}`).join(', ')}`,
      );
      for (const index of [0, 1, 2]) {
        const tail = existsSync(logFile(index))
          ? readFileSync(logFile(index), 'utf8').split('\n').slice(-6)
          : [];
        for (const line of tail.filter(Boolean)) print(`  process ${index + 1}: ${line.slice(0, 300)}`);
      }
    }
    const outcome = await verify(pool, db, smsFile, barriers);
    print(
      `device SMS ${formatCount(outcome.sent)} (attempts the database recorded: ${formatCount(outcome.recorded)} SMS); ` +
        `commands lost ${outcome.lost}; sent twice ${outcome.twice.length}; ` +
        `whitelists equal to the database ${outcome.equal}/${outcome.total}`,
    );
    for (const [line, count] of outcome.twice.slice(0, 10)) print(`  sent ${count} times: ${line}`);
    if (outcome.twice.length > 0 && outcome.sent <= outcome.recorded) {
      print(
        '  no more SMS left than the recorded attempts account for: the repeats are retries (their replies went with the killed process, which simulated those units)',
      );
    }
    if (outcome.sent > outcome.recorded) {
      print(`  ${outcome.sent - outcome.recorded} SMS left that no recorded attempt accounts for`);
    }
    for (const difference of outcome.differences.slice(0, 10)) print(`  differs: ${difference}`);
    const logs = [0, 1, 2].flatMap((index) =>
      existsSync(logFile(index))
        ? readFileSync(logFile(index), 'utf8')
            .split('\n')
            .filter((line) => /"level":(50|60)/.test(line))
        : [],
    );
    print(`server logs: ${logs.length} error lines${logs[0] ? ` (first: ${logs[0].slice(0, 300)})` : ''}`);
    print(`load average at the end: ${loadAverage()}`);
    if (
      open !== 0 ||
      outcome.lost > 0 ||
      outcome.equal !== outcome.total ||
      outcome.sent > outcome.recorded
    ) {
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    process.stderr.write(`bench:processes failed: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);
