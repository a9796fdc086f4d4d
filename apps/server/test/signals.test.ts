/**
 * Stopping on a signal (issue 13): the real process (the compiled server that `npm run start:prod` runs,
 * built from these sources for the run: server-bundle.ts; `npm start` itself in one test), with the device worker
 * (pg-boss) and the demo device simulator running. SIGTERM and SIGINT end it with code 0 within 10 s, having
 * closed the HTTP server, the worker and the database: the DATA_DIR lock is gone and the embedded database
 * opens again. A signal during start-up waits for the step in progress, then stops the same way.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledArgs } from './server-bundle.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const STOP_WITHIN_MS = 10_000;
/**
 * A stop during start-up waits for the step in progress: here the creation and migration of a new embedded
 * database, which took 9.0–10.6 s on a slow 2-core host (`npm run measure:start`'s first start, 2026-11-27), and
 * longer beside CI's journeys (the limit of 10 s failed there, and 30 s once in the PostgreSQL pass on Node 22,
 * 2026-11-29, with the server logging "shutting down" and still migrating). A hang still fails.
 */
const STARTUP_STOP_WITHIN_MS = 60_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Every process a test started: a test that fails midway must not leave a server running after the file. */
const started: ChildProcess[] = [];

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, bundledArgs('main'), {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', DEVICE_SIM_DELAY_MS: '100', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

/**
 * A server's start on a new embedded database (creation and migrations) is ~10 s on a quiet host and took over
 * 60 s beside CI's journeys (2026-11-29): 150 s is a limit against a hang, not a speed check.
 */
async function waitFor(
  condition: () => boolean | Promise<boolean>,
  child: ChildProcess,
  timeoutMs = 150_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('server exited');
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met in time');
}

const isHealthy = (port: number) => async () => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/api/health/`)).ok;
  } catch {
    return false;
  }
};

/** Sends the signal and answers how the process ended and how long it took. */
async function stopWith(
  server: ReturnType<typeof startServer>,
  signal: NodeJS.Signals,
  withinMs = STOP_WITHIN_MS,
) {
  const sentAt = Date.now();
  server.child.kill(signal);
  const ended = await Promise.race([
    server.exited,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), withinMs)),
  ]);
  if (ended === 'still running') server.child.kill('SIGKILL');
  return { ended, ms: Date.now() - sentAt };
}

describe('stopping on a signal', () => {
  const directories: string[] = [];
  const tempDir = () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'propusk-signals-'));
    directories.push(directory);
    return directory;
  };
  afterAll(() => {
    for (const child of started)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  it('stops on SIGTERM, then on SIGINT, with code 0 in time, leaving the embedded database reusable', async () => {
    const dataDir = tempDir();
    const lockFile = path.join(dataDir, 'propusk.lock');

    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const port = await freePort();
      const server = startServer({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
      await waitFor(isHealthy(port), server.child);
      await waitFor(() => server.output().includes('Propusk is running'), server.child);
      expect(server.output()).toContain(`Propusk работает: http://127.0.0.1:${port}\n`);
      expect(existsSync(lockFile)).toBe(true);

      const { ended, ms } = await stopWith(server, signal);
      expect(ended, server.output()).toEqual({ code: 0, signal: null });
      expect(ms).toBeLessThan(STOP_WITHIN_MS);
      expect(server.output()).toContain('"msg":"shutting down"');
      expect(server.output()).toContain('"msg":"stopped"');
      expect(server.output()).not.toMatch(/error while|pg-boss error|did not finish/);
      expect(existsSync(lockFile)).toBe(false);
      expect(await isHealthy(port)()).toBe(false);
    }
  }, 360_000);

  it('stops with `npm start` when npm is sent SIGTERM, leaving no server behind', async () => {
    const dataDir = tempDir();
    const lockFile = path.join(dataDir, 'propusk.lock');
    const port = await freePort();
    // --ignore-scripts skips prestart (the client build): the start script itself is what is tested.
    const npm = spawn('npm', ['start', '--ignore-scripts'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
      stdio: 'ignore',
    });
    const npmExited = new Promise<void>((resolve) => npm.on('exit', () => resolve()));
    await waitFor(isHealthy(port), npm);
    npm.kill('SIGTERM');
    await npmExited;
    // The server got the signal too: it lets go of the port and of DATA_DIR.
    const deadline = Date.now() + STOP_WITHIN_MS;
    while (Date.now() < deadline && ((await isHealthy(port)()) || existsSync(lockFile))) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await isHealthy(port)()).toBe(false);
    expect(existsSync(lockFile)).toBe(false);
  }, 240_000);

  it('stops on SIGTERM during start-up once the step in progress is done', async () => {
    const dataDir = tempDir();
    const lockFile = path.join(dataDir, 'propusk.lock');
    const port = await freePort();
    const server = startServer({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    // The lock is taken as the embedded database starts to open (a new one takes seconds): mid start-up.
    await waitFor(() => existsSync(lockFile), server.child);

    const { ended, ms } = await stopWith(server, 'SIGTERM', STARTUP_STOP_WITHIN_MS);
    expect(ended, server.output()).toEqual({ code: 0, signal: null });
    expect(ms).toBeLessThan(STARTUP_STOP_WITHIN_MS);
    expect(server.output()).not.toContain('Propusk is running');
    expect(existsSync(lockFile)).toBe(false);

    // The database it was creating is whole: the next start opens and serves it.
    const again = startServer({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    await waitFor(isHealthy(port), again.child);
    expect((await stopWith(again, 'SIGTERM')).ended).toEqual({ code: 0, signal: null });
  }, 300_000);

  it.skipIf(!process.env.DATABASE_URL)(
    'stops on SIGTERM on PostgreSQL, its pool ended before the exit',
    async () => {
      const url = process.env.DATABASE_URL as string;
      const name = `propusk_signals_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      try {
        const databaseUrl = new URL(url);
        databaseUrl.pathname = `/${name}`;
        const port = await freePort();
        const server = startServer({
          DATABASE_URL: databaseUrl.toString(),
          DATA_DIR: tempDir(),
          PORT: String(port),
          HOST: '127.0.0.1',
        });
        await waitFor(isHealthy(port), server.child);
        const { ended, ms } = await stopWith(server, 'SIGTERM');
        expect(ended, server.output()).toEqual({ code: 0, signal: null });
        expect(ms).toBeLessThan(STOP_WITHIN_MS);
        // "stopped" is logged after the pool has ended, just before the exit.
        expect(server.output()).toContain('"msg":"stopped"');
        expect(server.output()).not.toMatch(/error while|pg-boss error|did not finish/);
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    240_000,
  );
});
