/**
 * `npm run bench:resilience`: four resilience checks against the real server process (`src/main.ts`, demo
 * SMS provider with its device simulator) on a private PostgreSQL cluster that the bench creates in a temp
 * folder (initdb, pg_ctl on a free loopback port) and removes at the end, whatever happens:
 *
 * 1. load: RESILIENCE_CONNECTIONS (500) concurrent clients for RESILIENCE_LOAD_SECONDS (60), after a warm-up of
 *    RESILIENCE_WARMUP_SECONDS (10) on the same connections, on a mix of
 *    reads and writes (autocannon in a child process): requests, errors, p50/p99;
 * 2. crash: the server is killed with SIGKILL in the middle of 200 device commands and started again; every
 *    SMS that left (SMS_FILE) is replayed into fresh simulators of the devices, which are then compared with
 *    the database: commands lost, commands sent twice, whitelists equal;
 * 3. database restart: `pg_ctl restart -m fast` under load; errors before / during / after, time to recover;
 * 4. fuzz: RESILIENCE_FUZZ_REQUESTS (10,000) hostile requests built from /api/openapi.json on every route,
 *    as an administrator and as a resident: every 5xx is listed (route and body).
 *
 * Only loopback addresses are used. The shared PostgreSQL on 5432 is not touched.
 */
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeviceModel } from '@propusk/devices/models';
import { createDeviceSimulator } from '@propusk/devices/simulator';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { environmentSchema } from '../src/config/config.ts';
import type { Database } from '../src/db/database.ts';
import * as schema from '../src/db/schema.ts';
import { handOffKey } from '../src/engine/send/index.ts';
import { systemClock } from '../src/lib/clock.ts';
import { Secrets } from '../src/lib/secrets.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import {
  type Cluster,
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
import {
  cpuMeter,
  loadAverage,
  mostCalledStatements,
  resetStatementStats,
  startPlainFastify,
  statementCalls,
  topStatements,
  waitSampler,
} from './bench-load-probes.ts';

const LOAD_SECONDS = positiveEnv('RESILIENCE_LOAD_SECONDS', 60);
const CONNECTIONS = positiveEnv('RESILIENCE_CONNECTIONS', 500);
/** The same clients and mix before the measured run (a fresh process: its pool, caches and JIT are cold). */
const WARMUP_SECONDS = positiveEnv('RESILIENCE_WARMUP_SECONDS', 10);
/** RESILIENCE_WRITES=off: the mix without its two adds (what the reads alone cost on this machine). */
const WRITES = choiceEnv('RESILIENCE_WRITES', ['on', 'off'], 'on');
/** RESILIENCE_PG_SOCKET=on: the server reaches PostgreSQL through its Unix socket instead of loopback TCP. */
const PG_SOCKET = choiceEnv('RESILIENCE_PG_SOCKET', ['on', 'off'], 'off');
/** RESILIENCE_LOG_LEVEL=info: the server's log with a line per request (its own timings), kept only for the run. */
const LOG_LEVEL = choiceEnv(
  'RESILIENCE_LOG_LEVEL',
  environmentSchema.shape.LOG_LEVEL.unwrap().options,
  'warn',
);
const CRASH_COMMANDS = positiveEnv('RESILIENCE_CRASH_COMMANDS', 200);
const RESTART_SECONDS = positiveEnv('RESILIENCE_RESTART_SECONDS', 25);
const FUZZ_REQUESTS = positiveEnv('RESILIENCE_FUZZ_REQUESTS', 10_000);
const SEED_SCALE = positiveEnv('RESILIENCE_SEED_SCALE', 0.01);
const INBOUND_TOKEN = 'resilience-inbound-token-0123456789';

function positiveEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

function choiceEnv<Choice extends string>(
  name: string,
  choices: readonly Choice[],
  fallback: Choice,
): Choice {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const choice = choices.find((candidate) => candidate === raw);
  if (choice === undefined) throw new Error(`${name} must be one of ${choices.join(', ')}`);
  return choice;
}

const print = (line = '') => process.stdout.write(`${line}\n`);

interface Context {
  server: Server;
  pool: pg.Pool;
  /** The private cluster's data folder (its postmaster.pid: the CPU of the whole cluster). */
  clusterDirectory: string;
  adminId: number;
  residentId: number;
  adminToken: string;
  residentToken: string;
  /** A counter for phone numbers no seeded row uses (+79 then 9 digits). */
  nextPhone: () => string;
}

async function request(
  url: string,
  init: { method?: string; token?: string; body?: unknown; rawBody?: string; contentType?: string } = {},
): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.rawBody !== undefined) body = init.rawBody;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body });
  return { status: response.status, body: await response.text() };
}

async function createBarrier(context: Context, model: 'RTU5025' | 'Telemetrica', amount: number) {
  const response = await request(`${context.server.url}/api/admin/barriers/`, {
    method: 'POST',
    token: context.adminToken,
    body: {
      address: `г. Москва, ул. Стойкости, д. ${randomInt(1, 1000)}`,
      device_phone: context.nextPhone(),
      device_model: model,
      device_password: model === 'RTU5025' ? '1234' : null,
      device_phones_amount: amount,
    },
  });
  if (response.status !== 201) throw new Error(`creating a barrier: ${response.status} ${response.body}`);
  return JSON.parse(response.body) as { id: number; device_phone: string };
}

/** The new barriers the load's adds go to, round-robin (999 slots each). */
const LOAD_BARRIERS = 32;

// ---------------------------------------------------------------------------------------------------------
// 1. load

async function loadPhase(context: Context): Promise<void> {
  print(
    `\n== 1. ${CONNECTIONS} concurrent clients for ${LOAD_SECONDS} s, ${WRITES === 'on' ? 'reads and writes' : 'reads only (RESILIENCE_WRITES=off)'} ==`,
  );
  // Writes go round-robin to new barriers of 999 slots (RTU5025). 32 of them: room for ~32,000 adds. With 16,
  // a host that added 227 phones a second filled them within the run and the rest of the adds were 409s.
  const loadBarriers: { id: number; device_phone: string }[] = [];
  for (let index = 0; index < LOAD_BARRIERS; index++) {
    loadBarriers.push(await createBarrier(context, 'RTU5025', 999));
  }
  const barrierRow = await context.pool.query<{ barrier_id: number }>(
    'select barrier_id from barrier_access where user_id = $1 limit 1',
    [context.residentId],
  );
  const residentBarrier = barrierRow.rows[0]?.barrier_id;
  const resident = { authorization: `Bearer ${context.residentToken}` };
  const admin = { authorization: `Bearer ${context.adminToken}` };
  const write = (): LoadRequest => ({
    method: 'POST',
    path: '/api/admin/barriers/__BARRIER__/phones/',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ phone: '__PHONE__', name: 'Нагрузка', type: 'permanent', user: context.adminId }),
  });
  // 8 reads and 2 writes per round of each connection (an add of a phone: a row, an action and a device
  // command in one transaction, then an SMS through the worker and the simulator).
  const requests: LoadRequest[] = [
    { method: 'GET', path: '/api/users/me/', headers: resident },
    { method: 'GET', path: '/api/barriers/?page=1&page_size=5', headers: resident },
    { method: 'GET', path: '/api/barriers/my/?page=1&page_size=5', headers: resident },
    write(),
    {
      method: 'GET',
      path: `/api/barriers/${residentBarrier}/actions/?page=1&page_size=10`,
      headers: resident,
    },
    { method: 'GET', path: '/api/admin/barriers/my/?page=1&page_size=5', headers: admin },
    {
      method: 'GET',
      path: `/api/admin/barriers/${loadBarriers[1]!.id}/phones/my/?page=1&page_size=10`,
      headers: admin,
    },
    write(),
    { method: 'GET', path: `/api/barriers/${residentBarrier}/phones/my/`, headers: resident },
    { method: 'GET', path: '/api/barriers/?page=1&page_size=5&address=Ленина', headers: resident },
  ]
    .filter((entry) => WRITES === 'on' || entry.method === 'GET')
    .map((entry) => ({ ...entry, path: encodeURI(entry.path) }));
  const phoneBase = 100_000_000 + randomInt(0, 400_000_000);
  print(`load average at the start: ${loadAverage()}`);
  // What this machine serves right now with the same clients, when the app does nothing.
  const plain = await startPlainFastify(SERVER_DIRECTORY);
  try {
    const reference = await runAutocannon({
      url: plain.url,
      connections: CONNECTIONS,
      duration: Math.min(10, LOAD_SECONDS),
      requests: [{ method: 'GET', path: '/hello', headers: {} }],
      phoneBase: 0,
      writeBarriers: [],
    });
    print(
      `plain Fastify hello, same clients, ${Math.min(10, LOAD_SECONDS)} s: ` +
        `${formatCount(Math.round(reference.requests.average))} req/s, p50 ${reference.latency.p50} ms, ` +
        `p99 ${reference.latency.p99} ms, errors ${formatCount(reference.errors)}`,
    );
  } finally {
    plain.child.kill('SIGKILL');
  }
  // One run on the same connections: the warm-up's seconds are not counted (a fresh process, and 500
  // connections opened at once, which the server accepts one per event-loop turn: libuv/libuv#3696). The
  // meters start when the warm-up ends.
  const running = runAutocannon({
    url: context.server.url,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    duration: LOAD_SECONDS,
    requests,
    phoneBase,
    writeBarriers: loadBarriers.map((barrier) => barrier.id),
  });
  await sleep(WARMUP_SECONDS * 1000);
  const hasStatementStats = await resetStatementStats(context.pool);
  const cpu = cpuMeter(context.server.process.pid ?? 0, context.clusterDirectory);
  const waits = waitSampler(context.pool, 'propusk_resilience');
  const addsBefore = await countLoadAdds(context, loadBarriers);
  cpu.start();
  const result = await running;
  const cpuPerRequest = cpu.stop(result.requests.total);
  const waited = await waits.stop();
  const adds = (await countLoadAdds(context, loadBarriers)) - addsBefore;
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stat]) => `${code}: ${formatCount(stat.count)}`)
    .join(', ');
  print(
    `requests ${formatCount(result.requests.total)} (${formatCount(Math.round(result.requests.average))} req/s), ` +
      `non-2xx ${formatCount(result.non2xx)}, errors ${formatCount(result.errors)} (timeouts ${result.timeouts}), ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  );
  print(
    `counted: the ${LOAD_SECONDS} s after a warm-up of ${WARMUP_SECONDS} s on the same connections; the first ` +
      `request of each of the ${CONNECTIONS} connections (opened at once): p50 ${result.firstRequests.p50} ms, ` +
      `p99 ${result.firstRequests.p99} ms, max ${result.firstRequests.max} ms`,
  );
  print(`statuses: ${statuses || 'n/a'}; server still running: ${context.server.process.exitCode === null}`);
  print('latency by request (ms): count, p50, p99, max');
  for (const [index, entry] of requests.entries()) {
    const figures = result.byRequest[index];
    if (!figures) continue;
    const label = `${entry.method} ${decodeURI(entry.path).replace(/\/\d+\//g, '/{id}/')}`;
    print(
      `  ${label.padEnd(62)} ${formatCount(figures.count).padStart(7)} ${String(figures.p50).padStart(6)} ` +
        `${String(figures.p99).padStart(6)} ${String(figures.max).padStart(6)}`,
    );
  }
  print(
    `phones added: ${formatCount(adds)} (${(adds / LOAD_SECONDS).toFixed(0)}/s); CPU per request: ` +
      `server ${Math.round(cpuPerRequest.server)} µs + PostgreSQL ${Math.round(cpuPerRequest.database)} µs ` +
      '(the device worker and the simulator included)',
  );
  print(`busy PostgreSQL backends on average, by what they wait on: ${waited}`);
  if (hasStatementStats) {
    const calls = await statementCalls(context.pool);
    const perRequest = (value: number) => (value / Math.max(1, result.requests.total)).toFixed(1);
    print(
      `statements run: ${formatCount(calls.all)} (${perRequest(calls.all)} a request), of them sent by a client ` +
        `${formatCount(calls.sent)} (${perRequest(calls.sent)} a request; the rest are nested: foreign-key checks, ` +
        'triggers, functions); ' +
        'PostgreSQL time by statement (pg_stat_statements, share of planning + execution time, mean ms):',
    );
    for (const line of await topStatements(context.pool)) print(`  ${line}`);
    print('statements by calls (pg_stat_statements):');
    for (const line of await mostCalledStatements(context.pool)) print(`  ${line}`);
  }
  print(`load average at the end: ${loadAverage()}`);
}

/** Phones on the load's barriers: the adds that committed. */
async function countLoadAdds(context: Context, barriers: { id: number }[]): Promise<number> {
  const result = await context.pool.query<{ count: string }>(
    'select count(*) from phones where barrier_id = any($1)',
    [barriers.map((barrier) => barrier.id)],
  );
  return Number(result.rows[0]?.count ?? 0);
}

// ---------------------------------------------------------------------------------------------------------
// 2. SIGKILL in the middle of device commands

async function crashPhase(context: Context, env: NodeJS.ProcessEnv, logFile: string, smsFile: string) {
  print(`\n== 2. SIGKILL in the middle of ${CRASH_COMMANDS} device commands, then a restart ==`);
  const barrierCount = 10;
  const created: { id: number; device_phone: string }[] = [];
  for (let index = 0; index < barrierCount; index++)
    // RTU5025 only: the Telemetrica sheet now holds 4 numbers (its documented capacity), not the 20 each gets here.
    created.push(await createBarrier(context, 'RTU5025', 999));
  const devicePhones = new Set(created.map((barrier) => barrier.device_phone));
  const deviceLines = () => readSmsFile(smsFile).filter((line) => devicePhones.has(line.to));
  const before = deviceLines().length;

  // The 200 adds, 10 at a time; the kill comes when half of their SMS have left.
  const planned = Array.from({ length: CRASH_COMMANDS }, (_, index) => ({
    barrierId: created[index % barrierCount]!.id,
    phone: context.nextPhone(),
  }));
  const acknowledged: string[] = [];
  const refusedOrCut: string[] = [];
  let cursor = 0;
  const submit = async () => {
    while (cursor < planned.length) {
      const item = planned[cursor++]!;
      try {
        const response = await request(`${context.server.url}/api/admin/barriers/${item.barrierId}/phones/`, {
          method: 'POST',
          token: context.adminToken,
          body: { phone: item.phone, name: 'Сбой', type: 'permanent', user: context.adminId },
        });
        (response.status === 201 ? acknowledged : refusedOrCut).push(item.phone);
      } catch {
        refusedOrCut.push(item.phone);
      }
    }
  };
  const submitting = Promise.all(Array.from({ length: 10 }, submit));
  const killAt = before + Math.floor(CRASH_COMMANDS / 2);
  const deadline = Date.now() + 120_000;
  while (deviceLines().length < killAt && Date.now() < deadline) await sleep(10);
  const sentBeforeKill = deviceLines().length - before;
  const killedAt = new Date();
  context.server.process.kill('SIGKILL');
  await context.server.exited;
  await submitting;
  print(
    `killed with SIGKILL after ${sentBeforeKill} of the device SMS had left; ` +
      `${acknowledged.length} adds answered 201, ${refusedOrCut.length} cut or refused`,
  );
  // The commands the kill left in flight, by what the database and SMS_FILE say about their hand-over.
  const inFlight = await context.pool.query<{
    id: number;
    attempts: number;
    created_at: Date;
    handed_over_at: Date | null;
  }>(
    `select id, attempts, created_at, handed_over_at from device_commands
      where barrier_id = any($1) and status = 'sent'`,
    [created.map((barrier) => barrier.id)],
  );
  const keysInFile = new Set(deviceLines().flatMap((line) => (line.key ? [line.key] : [])));
  const left = (row: (typeof inFlight.rows)[number]) =>
    keysInFile.has(handOffKey({ id: row.id, createdAt: row.created_at }, row.attempts));
  const accepted = inFlight.rows.filter((row) => row.handed_over_at !== null);
  const unknown = inFlight.rows.filter((row) => row.handed_over_at === null);
  print(
    `in flight at the kill: ${inFlight.rows.length} commands; their hand-over accepted and recorded: ${accepted.length}; ` +
      `attempt recorded, acceptance not: ${unknown.length} ` +
      `(${unknown.filter(left).length} of them with their SMS in SMS_FILE, ${unknown.filter((row) => !left(row)).length} without)`,
  );

  const restartedAt = Date.now();
  context.server = await startServer(env, logFile);
  print(`restarted in ${((Date.now() - restartedAt) / 1000).toFixed(1)} s`);
  // Submit what the kill cut off (a client retries), then wait for the queue to drain.
  for (const phone of refusedOrCut) {
    const item = planned.find((entry) => entry.phone === phone)!;
    const response = await request(`${context.server.url}/api/admin/barriers/${item.barrierId}/phones/`, {
      method: 'POST',
      token: context.adminToken,
      body: { phone: item.phone, name: 'Сбой', type: 'permanent', user: context.adminId },
    });
    if (response.status === 201) acknowledged.push(phone);
  }
  const ids = created.map((barrier) => barrier.id);
  const drainDeadline = Date.now() + 180_000;
  let open = -1;
  while (Date.now() < drainDeadline) {
    const result = await context.pool.query<{ open: string }>(
      `select (select count(*) from device_commands where barrier_id = any($1) and status in ('queued', 'sent'))
            + (select count(*) from phones where barrier_id = any($1) and deleted_at is null and status = 'pending')
              as open`,
      [ids],
    );
    open = Number(result.rows[0]?.open ?? 0);
    if (open === 0) break;
    await sleep(250);
  }
  print(
    `queue drained ${open === 0 ? 'yes' : `NO (${open} open)`} after ${((Date.now() - restartedAt) / 1000).toFixed(1)} s`,
  );

  // Replay every SMS that left into fresh simulators: what the real devices would hold.
  const lines = deviceLines();
  const barrierRows = await context.pool.query<{ id: number; device_phone: string; device_model: string }>(
    'select id, device_phone, device_model from barriers where id = any($1)',
    [ids],
  );
  let equal = 0;
  const differences: string[] = [];
  const onDevices = new Set<string>();
  for (const barrier of barrierRows.rows) {
    if (!isDeviceModel(barrier.device_model)) throw new Error(`unknown model ${barrier.device_model}`);
    const simulator = createDeviceSimulator({ model: barrier.device_model, password: '1234' });
    for (const line of lines.filter((entry) => entry.to === barrier.device_phone))
      simulator.receive(line.text, new Date(line.at));
    const device = simulator
      .slots()
      .map((slot) => `${slot.slot}:${slot.number}`)
      .sort();
    for (const slot of simulator.slots()) onDevices.add(slot.number);
    const rows = await context.pool.query<{ slot: number; phone: string }>(
      'select slot, phone from phones where barrier_id = $1 and deleted_at is null',
      [barrier.id],
    );
    const database = rows.rows.map((row) => `${row.slot}:${row.phone}`).sort();
    if (JSON.stringify(device) === JSON.stringify(database)) equal += 1;
    else
      differences.push(
        `barrier ${barrier.id}: device [${device.join(' ')}] database [${database.join(' ')}]`,
      );
  }
  const inDatabase = await context.pool.query<{ phone: string }>(
    'select phone from phones where barrier_id = any($1) and deleted_at is null',
    [ids],
  );
  const databasePhones = new Set(inDatabase.rows.map((row) => row.phone));
  const lost = acknowledged.filter((phone) => !databasePhones.has(phone) || !onDevices.has(phone));
  const counts = new Map<string, number>();
  for (const line of lines)
    counts.set(`${line.to} ${line.text}`, (counts.get(`${line.to} ${line.text}`) ?? 0) + 1);
  const duplicates = [...counts.entries()].filter(([, count]) => count > 1);
  // The last SMS each device got before the kill: the command in flight. Sent again only when neither the
  // same-key hand-over nor the restarted demo devices' answers settled it (0011-resilience.md).
  const lastBeforeKill = new Set<string>();
  for (const phone of devicePhones) {
    const last = lines.filter((line) => line.to === phone && new Date(line.at) <= killedAt).at(-1);
    if (last) lastBeforeKill.add(`${last.to} ${last.text}`);
  }
  const inFlightResent = duplicates.filter(([key]) => lastBeforeKill.has(key)).length;
  print(
    `device SMS sent ${lines.length - before} (+${before} for the barriers' creation); ` +
      `commands lost ${lost.length}, commands sent twice ${duplicates.length} ` +
      `(${inFlightResent} of them the command in flight at the kill, sent again after its reply timeout; ` +
      `${duplicates.length - inFlightResent} other), ` +
      `whitelists equal to the database ${equal}/${barrierRows.rows.length}`,
  );
  for (const phone of lost.slice(0, 20)) print(`  lost: ${phone}`);
  for (const [key, count] of duplicates.slice(0, 20))
    print(`  sent ${count} times: ${key}${lastBeforeKill.has(key) ? ' (in flight at the kill)' : ''}`);
  for (const difference of differences.slice(0, 10)) print(`  differs: ${difference}`);
}

// ---------------------------------------------------------------------------------------------------------
// 3. PostgreSQL restarted under load

function serverLogTail(logFile: string, lines = 12): string {
  if (!existsSync(logFile)) return '';
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('[SMS to'))
    .slice(-lines)
    .map((line) => `    ${line.slice(0, 400)}`)
    .join('\n');
}

/** A server that died in a phase is reported (with its last log lines) and started again for the next. */
async function ensureServer(context: Context, env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  const child = context.server.process;
  if (child.exitCode === null && child.signalCode === null) return;
  print(`  THE SERVER EXITED (code ${child.exitCode}, signal ${child.signalCode}); its last log lines:`);
  print(serverLogTail(logFile));
  print('  starting it again for the next phase');
  context.server = await startServer(env, logFile);
}

async function restartPhase(context: Context, cluster: Cluster): Promise<void> {
  print(`\n== 3. pg_ctl restart -m fast under load (50 clients, ${RESTART_SECONDS} s) ==`);
  const samples: { end: number; ok: boolean }[] = [];
  const stopAt = Date.now() + RESTART_SECONDS * 1000;
  const paths = [
    '/api/users/me/',
    '/api/barriers/my/?page=1&page_size=5',
    '/api/barriers/?page=1&page_size=5',
  ];
  const client = async (index: number) => {
    let round = index;
    while (Date.now() < stopAt) {
      const url = `${context.server.url}${paths[round++ % paths.length]}`;
      let ok = false;
      try {
        const response = await request(url, { token: context.residentToken });
        ok = response.status === 200;
      } catch {}
      samples.push({ end: Date.now(), ok });
    }
  };
  const clients = Promise.all(Array.from({ length: 50 }, (_, index) => client(index)));
  await sleep(Math.min(8, RESTART_SECONDS / 3) * 1000);
  const outageStart = Date.now();
  await cluster.restart();
  const outageEnd = Date.now();
  await clients;
  const before = samples.filter((sample) => sample.end < outageStart);
  const during = samples.filter((sample) => sample.end >= outageStart && sample.end <= outageEnd);
  const after = samples.filter((sample) => sample.end > outageEnd);
  const failures = (list: typeof samples) => list.filter((sample) => !sample.ok).length;
  const lastFailure = Math.max(
    outageStart,
    ...samples.filter((sample) => !sample.ok).map((sample) => sample.end),
  );
  const firstOkAfter = after.find((sample) => sample.ok)?.end;
  print(
    `restart took ${((outageEnd - outageStart) / 1000).toFixed(2)} s; requests/errors before ${before.length}/${failures(before)}, ` +
      `during ${during.length}/${failures(during)}, after ${after.length}/${failures(after)}`,
  );
  print(
    `time to recover (restart begun → last error): ${((lastFailure - outageStart) / 1000).toFixed(2)} s; ` +
      `first success after the restart ended: +${firstOkAfter === undefined ? 'never' : `${firstOkAfter - outageEnd} ms`}; ` +
      `server still running without a restart: ${context.server.process.exitCode === null && context.server.process.signalCode === null}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// 4. hostile requests from the OpenAPI document

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
};
interface Operation {
  method: string;
  path: string;
  pathParameters: string[];
  queryParameters: string[];
  bodyFields: string[];
  hasBody: boolean;
}

function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

const MEGABYTE_STRING = 'я'.repeat(500_000); // 1 MB in UTF-8
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 31,
  2 ** 63,
  -(2 ** 53),
  1e308,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f\u007f',
  '\r\n\t',
  '\u202e\u200b\ufeff',
  '\ud800',
  '\udfff\ud800',
  `é${'\u0301'.repeat(500)}`,
  '👨‍👩‍👧‍👦'.repeat(50),
  'Ｉｖａｎ',
  "' or 1=1 --",
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00',
  ['$', '{jndi:ldap://x}'].join(''),
  '9'.repeat(400),
  '-9223372036854775809',
  'NaN',
  'Infinity',
  '2026-13-45T99:99:99',
  '+7999999999999999999',
  '+7 (900) 000-00-00',
  'x'.repeat(100_000),
  MEGABYTE_STRING,
  [],
  [1, 'a', null],
  {},
  { $gt: '' },
  { __proto__: { admin: true } },
  JSON.parse(deepJson(200)),
];
const HOSTILE_PATH_VALUES = [
  '-1',
  '0',
  '2147483648',
  '9223372036854775808',
  '99999999999999999999999',
  'abc',
  '1.5',
  '1e3',
  '%00',
  '%E2%80%AE',
  '%F0%9F%92%A9',
  ' 1',
  'null',
  'x'.repeat(2000),
];

function pick<T>(list: readonly T[]): T {
  return list[randomInt(0, list.length)] as T;
}

async function readOperations(url: string): Promise<Operation[]> {
  const document = JSON.parse((await request(`${url}/api/openapi.json`)).body) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { in: string; name: string }[];
          requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        }
      >
    >;
  };
  const operations: Operation[] = [];
  for (const [route, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      // Deleting the caller's own account would end the run's sessions; its body is nothing to fuzz anyway.
      if (method === 'delete' && route === '/api/users/me/') continue;
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      const fields = new Set<string>();
      const collect = (node: JsonSchema | undefined) => {
        if (!node) return;
        for (const key of Object.keys(node.properties ?? {})) fields.add(key);
        for (const part of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
          collect(part);
      };
      collect(schema);
      operations.push({
        method: method.toUpperCase(),
        path: route,
        pathParameters: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        queryParameters: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: [...fields],
        hasBody: schema !== undefined || ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase()),
      });
    }
  }
  return operations;
}

function hostileString(): string {
  const value = pick(HOSTILE_VALUES);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One hostile request for an operation: the URL and the raw body (or none). */
function buildHostile(
  operation: Operation,
  ids: number[],
): { url: string; rawBody?: string; contentType?: string } {
  let route = operation.path;
  for (const name of operation.pathParameters) {
    // Half the time an id that exists (so the body reaches validation past the 404), else a hostile one.
    const value = randomInt(0, 2) === 0 ? String(pick(ids)) : pick(HOSTILE_PATH_VALUES);
    route = route.replace(`{${name}}`, value.startsWith('%') ? value : encodeURIComponent(value));
  }
  const query = new URLSearchParams();
  for (const name of operation.queryParameters) {
    const roll = randomInt(0, 4);
    if (roll === 0) continue;
    query.append(name, hostileString().slice(0, roll === 3 ? 200_000 : 2_000));
    if (roll === 2) query.append(name, hostileString().slice(0, 100));
  }
  if (randomInt(0, 6) === 0)
    query.append(pick(['page', 'page_size', 'ordering', 'x']), hostileString().slice(0, 500));
  const search = query.toString();
  const url = `${route}${search ? `?${search}` : ''}`;
  if (operation.method === 'GET' || (!operation.hasBody && randomInt(0, 4) !== 0)) return { url };
  const shape = randomInt(0, 10);
  if (shape === 0) return { url, rawBody: deepJson(randomInt(1000, 20_000)) };
  if (shape === 1)
    return { url, rawBody: pick(['{"a":', 'null', '[]', '"x"', '123', '\u0000', '{"a":1,}', '']) };
  if (shape === 2)
    return { url, rawBody: JSON.stringify({}), contentType: pick(['text/plain', 'application/xml']) };
  const body: Record<string, unknown> = {};
  for (const field of operation.bodyFields) {
    const roll = randomInt(0, 3);
    if (roll === 0) continue; // missing
    body[field] = pick(HOSTILE_VALUES);
  }
  if (randomInt(0, 4) === 0)
    body[pick(['extra', '__proto__', 'constructor', 'user', 'id'])] = pick(HOSTILE_VALUES);
  return { url, rawBody: shape === 3 ? JSON.stringify([body]) : JSON.stringify(body) };
}

async function fuzzPhase(context: Context): Promise<void> {
  print(
    `\n== 4. ${formatCount(FUZZ_REQUESTS)} hostile requests from /api/openapi.json, as admin and resident ==`,
  );
  const operations = await readOperations(context.server.url);
  const idRows = await context.pool.query<{ id: number }>(
    `(select barrier_id as id from barrier_access where user_id in ($1, $2) limit 5)
     union all (select id from phones where user_id in ($1, $2) limit 5)
     union all (select id from access_requests limit 3)
     union all (select $1::int) union all (select $2::int)`,
    [context.adminId, context.residentId],
  );
  const ids = idRows.rows.map((row) => Number(row.id));
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  /** 5xx by status, route and answer: the listing below shows two examples of each. */
  const groups = new Map<string, number>();
  let networkErrors = 0;
  let sent = 0;
  const worker = async () => {
    while (sent < FUZZ_REQUESTS) {
      const index = sent++;
      const operation = operations[index % operations.length]!;
      const asAdmin = Math.floor(index / operations.length) % 2 === 0;
      const hostile = buildHostile(operation, ids);
      try {
        const response = await request(`${context.server.url}${hostile.url}`, {
          method: operation.method,
          token: asAdmin ? context.adminToken : context.residentToken,
          rawBody: hostile.rawBody,
          contentType: hostile.contentType,
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) {
          const kind = `${response.status} ${operation.method} ${operation.path} ${response.body.slice(0, 120)}`;
          groups.set(kind, (groups.get(kind) ?? 0) + 1);
          if ((groups.get(kind) ?? 0) > 2) continue;
          failures.push(
            `${response.status} ${operation.method} ${operation.path} as ${asAdmin ? 'admin' : 'resident'}: ` +
              `url ${hostile.url.slice(0, 300)} body ${(hostile.rawBody ?? '').slice(0, 300)} → ${response.body.slice(0, 200)}`,
          );
        }
      } catch (error) {
        networkErrors += 1;
        failures.push(
          `network error ${operation.method} ${hostile.url.slice(0, 200)}: ${(error as Error).message}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const fiveHundreds = [...statuses.entries()]
    .filter(([status]) => status >= 500)
    .reduce((sum, [, n]) => sum + n, 0);
  print(
    `${operations.length} operations; statuses: ${[...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}: ${formatCount(count)}`)
      .join(', ')}; network errors ${networkErrors}`,
  );
  print(`5xx: ${fiveHundreds}; server still running: ${context.server.process.exitCode === null}`);
  for (const [kind, count] of groups) print(`  ${count} × ${kind}`);
  for (const failure of failures.slice(0, 40)) print(`  ${failure}`);
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const startedAt = Date.now();
  const root = mkdtempSync(path.join(tmpdir(), 'propusk-resilience-'));
  let cluster: Cluster | undefined;
  let pool: pg.Pool | undefined;
  let context: Context | undefined;
  let server: Server | undefined;
  const cleanup = async () => {
    // A CPU profile is written only by a process that exits by itself.
    const signal = process.env.RESILIENCE_CPU_PROF ? 'SIGTERM' : 'SIGKILL';
    await stopServer(context?.server ?? server, signal).catch(() => {});
    await pool?.end().catch(() => {});
    await cluster?.stop();
    rmSync(root, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  process.once('SIGTERM', () => void cleanup().finally(() => process.exit(143)));
  try {
    print(
      `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GB, ` +
        `Node ${process.version}, load average ${os
          .loadavg()
          .map((value) => value.toFixed(2))
          .join(' ')}`,
    );
    cluster = await startCluster(root);
    const admin = new pg.Client({
      connectionString: cluster.url.replace(/\/propusk_resilience$/, '/postgres'),
    });
    await admin.connect();
    const version = await admin.query<{ server_version: string }>('show server_version');
    await admin.query('create database propusk_resilience');
    await admin.end();
    print(
      `private PostgreSQL ${version.rows[0]?.server_version} on 127.0.0.1:${cluster.port} (${cluster.directory})` +
        `; the server connects ${PG_SOCKET === 'on' ? 'through its Unix socket' : 'over loopback TCP'}`,
    );

    const seedStarted = Date.now();
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/seed.ts', '--scale', String(SEED_SCALE)], {
      cwd: SERVER_DIRECTORY,
      env: { ...process.env, DATABASE_URL: cluster.url, SECRET_KEY: BENCH_SECRET_KEY },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    pool = new pg.Pool({ connectionString: cluster.url, max: 4 });
    pool.on('error', () => {});
    const counts = await pool.query<{ users: string; barriers: string; phones: string }>(
      'select (select count(*) from users) users, (select count(*) from barriers) barriers, (select count(*) from phones) phones',
    );
    const row = counts.rows[0];
    print(
      `seeded (npm run seed -- --scale ${SEED_SCALE}) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s: ` +
        `${formatCount(Number(row?.users))} users, ${formatCount(Number(row?.barriers))} barriers, ${formatCount(Number(row?.phones))} phones`,
    );
    const subjects = await pool.query<{ admin_id: number; resident_id: number }>(
      `select b.owner_id as admin_id, a.user_id as resident_id
         from barrier_access a join barriers b on b.id = a.barrier_id
         join users u on u.id = a.user_id
        where a.user_id <> b.owner_id and u.role = 'user' and b.deleted_at is null
        order by b.id limit 1`,
    );
    const subject = subjects.rows[0];
    if (!subject) throw new Error('the seeded database has no resident');
    const deps = { clock: systemClock, secrets: new Secrets(BENCH_SECRET_KEY) };
    const db = drizzle(pool, { schema }) as unknown as Database;
    const adminSession = await issueSession(deps, db, subject.admin_id);
    const residentSession = await issueSession(deps, db, subject.resident_id);

    const smsFile = path.join(root, 'sms-outbox.jsonl');
    const logFile = path.join(root, 'server.log');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATABASE_URL: PG_SOCKET === 'on' ? cluster.socketUrl : cluster.url,
      DATA_DIR: path.join(root, 'data'),
      SECRET_KEY: BENCH_SECRET_KEY,
      SMS_PROVIDER: 'demo',
      SMS_FILE: smsFile,
      DEVICE_SIM: 'on',
      // The demo in production on purpose (issue 40 item 5): allowed, with a warning line.
      ALLOW_DEMO: 'on',
      DEVICE_SIM_DELAY_MS: '50',
      DEVICE_REPLY_TIMEOUT_MS: '3000',
      INBOUND_SMS_TOKEN: INBOUND_TOKEN,
      LOG_LEVEL,
      WEB_DIST_DIR: path.join(root, 'no-web-build'),
      // The load and the fuzz come from one address: the per-IP limits would answer 429 to most of it.
      // The device pipeline at full speed: the gateway's default 20 SMS a minute would leave the load's device
      // commands queued (their sending never measured) and the crash phase's 200 commands undrained.
      SMS_RATE_PER_MINUTE: '60000',
      SMS_RATE_BURST: '1000',
      RATE_LIMIT_CODE_REQUESTS: '1000000',
      RATE_LIMIT_AUTH_CALLS: '1000000',
    };
    server = await startServer(env, logFile);
    let phoneCounter = 600_000_000 + randomInt(0, 300_000_000);
    context = {
      server,
      pool,
      clusterDirectory: cluster.directory,
      adminId: subject.admin_id,
      residentId: subject.resident_id,
      adminToken: adminSession.access_token,
      residentToken: residentSession.access_token,
      nextPhone: () => `+79${String(phoneCounter++).padStart(9, '0')}`,
    };
    print(
      `server: node --import tsx apps/server/src/main.ts on ${server.url} (demo SMS, simulator delay 50 ms)`,
    );

    const only = process.env.RESILIENCE_ONLY?.split(',');
    const runs = (phase: string) => !only || only.includes(phase);
    if (runs('load')) await loadPhase(context);
    await ensureServer(context, env, logFile);
    if (runs('crash')) await crashPhase(context, env, logFile, smsFile);
    await ensureServer(context, env, logFile);
    if (runs('restart')) await restartPhase(context, cluster);
    await ensureServer(context, env, logFile);
    if (runs('fuzz')) await fuzzPhase(context);
    await ensureServer(context, env, logFile);
    const serverLog = readFileSync(logFile, 'utf8');
    const fatal = serverLog.split('\n').filter((line) => /"level":(50|60)/.test(line));
    print(
      `\nserver log: ${fatal.length} error/fatal lines${fatal.length > 0 ? ` (first: ${fatal[0]?.slice(0, 300)})` : ''}`,
    );
    print(
      `total ${((Date.now() - startedAt) / 1000).toFixed(0)} s; load average ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench:resilience failed: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);
