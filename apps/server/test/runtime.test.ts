/**
 * The runtime contract of DESIGN.md section 1, as an operator sees it: the real process, the compiled server
 * that `npm run start:prod` runs (built from these sources for the run: server-bundle.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledArgs } from './server-bundle.ts';

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, bundledArgs('main'), {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('server exited');
    try {
      const response = await fetch(url);
      if (response.ok) return response.json();
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not become healthy');
}

describe('runtime contract', () => {
  const directories: string[] = [];
  const tempDir = () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'propusk-runtime-'));
    directories.push(directory);
    return directory;
  };
  afterAll(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  it('stops at start-up with a message naming a bad variable', async () => {
    const server = startServer({ DATA_DIR: tempDir(), PORT: 'not-a-port' });
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toContain('PORT');
    expect(server.output()).not.toMatch(/at .*\.ts:\d+/);
  });

  it('serves health on the embedded database, logs without secrets, and shuts down cleanly', async () => {
    const dataDir = tempDir();
    const port = String(20_000 + Math.floor(Math.random() * 20_000));
    const server = startServer({ DATA_DIR: dataDir, PORT: port, HOST: '127.0.0.1', DEVICE_SIM: 'off' });
    const body = await waitForHealth(`http://127.0.0.1:${port}/api/health/`, server.child, 60_000);
    expect(body).toEqual({ status: 'ok' });

    await fetch(`http://127.0.0.1:${port}/api/health/`, {
      headers: { authorization: 'Bearer very-secret-token' },
    });

    // A second process cannot take the same embedded database.
    const second = startServer({ DATA_DIR: dataDir, PORT: String(Number(port) + 1) });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toMatch(/занята другим процессом/);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toContain('very-secret-token');
    expect(() => readFileSync(path.join(dataDir, 'propusk.lock'))).toThrow();
  }, 90_000);
});
