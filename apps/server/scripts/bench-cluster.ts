/**
 * What the benches that run the real server share (bench-resilience.ts, bench-processes.ts): a private PostgreSQL
 * cluster in a temp folder, the server started as a child process and stopped, autocannon in its own process, and
 * the SMS_FILE the demo provider appends every sent SMS to. Only loopback addresses are used.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { statementStatsOptions } from './bench-load-probes.ts';

export const REPOSITORY = path.resolve(import.meta.dirname, '../../..');
export const SERVER_DIRECTORY = path.resolve(import.meta.dirname, '..');
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where the PostgreSQL binaries are: PATH first, then the usual places. */
export function postgresBinary(name: string): string {
  for (const directory of [
    ...(process.env.PATH ?? '').split(':'),
    '/usr/local/bin',
    '/usr/lib/postgresql/17/bin',
    '/usr/lib/postgresql/16/bin',
    '/usr/lib/postgresql/15/bin',
  ]) {
    const candidate = path.join(directory, name);
    if (directory && existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} not found (PostgreSQL server binaries are needed)`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** PostgreSQL refuses to run as root: then its commands run as the `postgres` user. */
export const IS_ROOT = process.getuid?.() === 0;
export function runPostgresCommand(binary: string, args: string[]): Promise<string> {
  const [file, fullArgs] = IS_ROOT
    ? ['runuser', ['-u', 'postgres', '--', postgresBinary(binary), ...args]]
    : [postgresBinary(binary), args];
  return new Promise((resolve, reject) => {
    execFile(file, fullArgs, { timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${binary} ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

export interface Cluster {
  directory: string;
  port: number;
  url: string;
  /** The same database through the cluster's Unix socket (in `root`) instead of loopback TCP. */
  socketUrl: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startCluster(root: string): Promise<Cluster> {
  const directory = path.join(root, 'pg');
  if (IS_ROOT) chownSync(root, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), -1);
  await runPostgresCommand('initdb', [
    '-D',
    directory,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  const port = await freePort();
  const options =
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off` +
    statementStatsOptions(postgresBinary('pg_ctl'));
  const control = (action: string, ...extra: string[]) =>
    runPostgresCommand('pg_ctl', [
      '-D',
      directory,
      '-o',
      options,
      '-l',
      path.join(root, 'pg.log'),
      '-w',
      ...extra,
      action,
    ]);
  await control('start');
  let running = true;
  return {
    directory,
    port,
    url: `postgres://postgres@127.0.0.1:${port}/propusk_resilience`,
    socketUrl: `postgres://postgres@/propusk_resilience?host=${encodeURIComponent(root)}&port=${port}`,
    restart: () => control('restart', '-m', 'fast').then(() => undefined),
    stop: async () => {
      if (!running) return;
      running = false;
      await control('stop', '-m', 'immediate').catch(() => {});
    },
  };
}

export interface Server {
  process: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

export async function startServer(env: NodeJS.ProcessEnv, logFile: string): Promise<Server> {
  const port = await freePort();
  const log = openSync(logFile, 'a');
  // RESILIENCE_CPU_PROF=<folder>: a V8 CPU profile of the server, written when it stops (SIGTERM).
  const profile = process.env.RESILIENCE_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.RESILIENCE_CPU_PROF)]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPOSITORY,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited at start; see ${logFile}`);
    try {
      const response = await fetch(`${url}/api/health/`);
      if (response.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('the server did not answer /api/health/ within 60 s');
    await sleep(100);
  }
  return { process: child, url, exited };
}

export async function stopServer(
  server: Server | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (!server || server.process.exitCode !== null || server.process.signalCode !== null) return;
  server.process.kill(signal);
  const timer = setTimeout(() => server.process.kill('SIGKILL'), 10_000);
  await server.exited;
  clearTimeout(timer);
}

/** The part of autocannon's result used here: the measured window's figures (after the warm-up). */
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  /** Connection errors and timeouts of the whole run, warm-up included. */
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
  /** Latency of each entry of `requests` (same order): which kind of request makes the tail. */
  byRequest: LatencyFigures[];
  /** The first request of each connection (all opened at once at the start, warm-up included). */
  firstRequests: LatencyFigures;
}

export interface LatencyFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** `__PHONE__` is replaced by a fresh number for each request. */
  body?: string;
}

/**
 * Autocannon in its own process: the load generator does not share the server's event loop. It runs
 * warm-up + duration seconds on the same connections; the figures count the requests sent after the warm-up.
 * A latency is autocannon's (from the request's write, the connection's opening included for a first request).
 */
const AUTOCANNON_CHILD = `
const autocannon = require('autocannon');
const options = JSON.parse(process.argv[1]);
let next = options.phoneBase;
let barrier = 0;
const requests = options.requests.map((request, index) => {
  // Called just before autocannon's 'response' event of the same request: it names the request's kind.
  const entry = { method: request.method, path: request.path, headers: request.headers,
    onResponse: (status, body, context) => { context.kind = index; } };
  if (!request.body) return entry;
  return {
    ...entry,
    setupRequest: (r) => ({
      ...r,
      path: request.path.replace('__BARRIER__', String(options.writeBarriers[barrier++ % options.writeBarriers.length])),
      body: request.body.replace('__PHONE__', '+79' + String(next++).padStart(9, '0')),
    }),
  };
});
const all = [];
const byKind = options.requests.map(() => []);
const first = [];
const statuses = {};
let non2xx = 0;
const started = Date.now();
const measuredFrom = started + options.warmupSeconds * 1000;
const instance = autocannon({ url: options.url, connections: options.connections,
  duration: options.warmupSeconds + options.duration, requests, timeout: 30 });
instance.on('response', (client, status, bytes, time) => {
  if (client.reqsMade === 1) first.push(time);
  if (Date.now() - time < measuredFrom) return;
  all.push(time);
  const kind = client.requestIterator && client.requestIterator.context && client.requestIterator.context.kind;
  if (typeof kind === 'number') byKind[kind].push(time);
  statuses[status] = { count: ((statuses[status] && statuses[status].count) || 0) + 1 };
  if (status < 200 || status >= 300) non2xx++;
});
const figures = (list) => {
  const sorted = Float64Array.from(list).sort();
  const at = (share) => sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
  return { count: sorted.length, p50: Math.round(at(0.5)), p99: Math.round(at(0.99)), max: Math.round(sorted[sorted.length - 1] || 0) };
};
instance.then(
  (result) => {
    const measured = figures(all);
    process.stdout.write(JSON.stringify({
      requests: { total: measured.count, average: measured.count / options.duration },
      latency: { p50: measured.p50, p99: measured.p99, max: measured.max },
      non2xx, errors: result.errors, timeouts: result.timeouts, statusCodeStats: statuses,
      byRequest: byKind.map(figures), firstRequests: figures(first),
    }));
  },
  (error) => { process.stderr.write(String((error && error.stack) || error)); process.exit(1); },
);`;

export function runAutocannon(options: {
  url: string;
  connections: number;
  duration: number;
  /** Seconds on the same connections before the measured `duration` (0: measure from the first request). */
  warmupSeconds?: number;
  requests: LoadRequest[];
  phoneBase: number;
  writeBarriers: number[];
}): Promise<AutocannonResult> {
  const childOptions = { ...options, warmupSeconds: options.warmupSeconds ?? 0 };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-e', AUTOCANNON_CHILD, JSON.stringify(childOptions)],
      {
        cwd: SERVER_DIRECTORY,
        maxBuffer: 64 * 1024 * 1024,
        timeout: (childOptions.warmupSeconds + options.duration + 90) * 1000,
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`autocannon failed: ${stderr || error.message}`));
        else resolve(JSON.parse(stdout) as AutocannonResult);
      },
    );
  });
}

export interface SentLine {
  to: string;
  text: string;
  at: string;
  /** The hand-over's idempotency key (engine/send/render.ts `handOffKey`). */
  key?: string;
}
export function readSmsFile(file: string): SentLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as SentLine];
      } catch {
        return []; // a line cut by the kill
      }
    });
}
