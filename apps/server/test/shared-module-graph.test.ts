/**
 * The server's test files share one module graph per worker (vitest.config.ts, `isolate: false`): that holds
 * only while no file replaces a module, the clock or the environment for the files after it. This reads every
 * test file of the server and names any that does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER_ROOT = path.resolve(import.meta.dirname, '..');
const SHARED_STATE_CALLS = /\bvi\s*\.\s*(mock|doMock|stubGlobal|stubEnv|useFakeTimers|setSystemTime)\s*\(/;

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the shared module graph of the server tests', () => {
  it('is never changed by a test file for the files after it', () => {
    const files = [...testFiles(path.join(SERVER_ROOT, 'test')), ...testFiles(path.join(SERVER_ROOT, 'src'))];
    expect(files.length).toBeGreaterThan(100);
    const offenders = files
      .filter((file) => file !== import.meta.filename && SHARED_STATE_CALLS.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(SERVER_ROOT, file));
    expect(offenders).toEqual([]);
  });

  it('would name a file that mocks a module or fakes the clock', () => {
    expect(SHARED_STATE_CALLS.test("vi.mock('../src/lib/clock.ts')")).toBe(true);
    expect(SHARED_STATE_CALLS.test('vi.useFakeTimers()')).toBe(true);
    expect(SHARED_STATE_CALLS.test('const clock = fixedClock()')).toBe(false);
  });
});

// The web's files share one graph per worker too; its setup resets stubbed globals and timers after every test,
// but nothing can take back a module mock: a file that imports the module after an earlier file did gets the real
// one (start.test.tsx read /start's answers for real so, and failed in one CI run out of four).
const MODULE_MOCK = /\bvi\s*\.\s*(mock|doMock)\s*\(/;

describe('the shared module graph of the web tests', () => {
  it('has no module mocked by a test file', () => {
    const webSource = path.resolve(SERVER_ROOT, '..', 'web', 'src');
    const files = testFiles(webSource);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files
      .filter((file) => MODULE_MOCK.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(webSource, file));
    expect(offenders).toEqual([]);
  });
});
