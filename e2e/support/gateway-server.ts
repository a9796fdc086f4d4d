/**
 * The second journey server (E2E_GATEWAY_SERVER: a deployment whose gateway has a number), started by the first
 * journey of a worker that asks for it and stopped with the worker. Three spec files use it; as a `webServer` of
 * playwright.config.ts it started in both shards and idled there for the whole run (about 25 CPU-s a shard:
 * pg-boss polling its embedded database; docs/journal/2026-11-29-eighteenth-session.md).
 *
 * A worker that Playwright replaces after a failed test starts it afresh (new database, its administrator made
 * again by the CLI); a server a killed worker left behind is found by its pid file and stopped first.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { GATEWAY_ADMIN_SESSION_FILE } from './api';
import { E2E, E2E_GATEWAY_SERVER, journeyServerEnv } from './environment';
import { serverBundleArgs } from './server-bundle';

const root = path.resolve(import.meta.dirname, '..', '..');
const pidFile = path.join(E2E.own, 'gateway-server.pid');
const logFile = path.join(E2E.own, 'gateway-server.log');
/** As the main journey server's `webServer.timeout`: a start on a loaded host takes tens of seconds. */
const START_LIMIT_MS = 120_000;

/** Stops the server a killed worker left, only if that pid still runs the server's bundle (a pid is reused). */
function stopLeftover(mainFile: string): void {
  let pid = 0;
  try {
    pid = Number(readFileSync(pidFile, 'utf8'));
  } catch {
    return;
  }
  try {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (pid > 0 && commandLine.includes(mainFile)) process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
  rmSync(pidFile, { force: true });
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

function logTail(): string {
  try {
    return readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Starts the server on a new database with its administrator; resolves with the function that stops it. */
export async function startGatewayServer(): Promise<() => Promise<void>> {
  const server = E2E_GATEWAY_SERVER;
  const health = `${server.baseUrl}/api/health/`;
  // E2E_REUSE_SERVER=1 (never in CI), as playwright.config.ts's webServer: the developer's running server is the
  // one tested, and its database is left alone.
  if (process.env.E2E_REUSE_SERVER === '1' && !process.env.CI && (await answers(health)))
    return async () => {};
  const { main, cli } = serverBundleArgs();
  stopLeftover(main[main.length - 1] ?? 'main.js');
  rmSync(server.dataDir, { recursive: true, force: true });
  rmSync(GATEWAY_ADMIN_SESSION_FILE, { force: true });
  mkdirSync(E2E.own, { recursive: true });
  const env = {
    ...process.env,
    ...journeyServerEnv({
      PORT: String(server.port),
      DATA_DIR: server.dataDir,
      DEVICE_GATEWAY_PHONE: server.gatewayPhone,
    }),
  };
  const { admin } = server;
  await promisify(execFile)(
    'node',
    [...cli, 'create-admin', '--phone', admin.phone, '--password', admin.password, '--name', admin.name],
    { cwd: root, env },
  );
  const log = openSync(logFile, 'w');
  let child: ChildProcess;
  try {
    child = spawn('node', main, { cwd: root, env, stdio: ['ignore', 'ignore', log] });
  } finally {
    closeSync(log);
  }
  writeFileSync(pidFile, String(child.pid));
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const deadline = Date.now() + START_LIMIT_MS;
  while (!(await answers(health))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(
        `the gateway journey server did not answer ${health} ${exited ? '(it exited)' : `in ${START_LIMIT_MS / 1000} s`}:\n${logTail()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(killed);
    }
    rmSync(pidFile, { force: true });
  };
}
