/**
 * Builds the real app for integration tests: the embedded database in memory (kept by the worker between apps
 * and reset to the template's state: embedded-pool.ts), or, when DATABASE_URL is set, a fresh PostgreSQL
 * database per test file (created here, dropped on close). SMS go through the demo
 * gateway into a temporary SMS_FILE, exactly as in `npm start`; the clock is manual.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DemoSmsGateway } from '@propusk/sms/demo';
import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config/config.ts';
import {
  applyMigrations,
  type DatabaseHandle,
  openDatabase,
  openMemoryDatabase,
  sendDbOf,
} from '../src/db/database.ts';
import { domainHooks } from '../src/domain-hooks.ts';
import { ManualClock } from '../src/lib/clock.ts';
import type { Dependencies } from '../src/lib/dependencies.ts';
import { deviceWakeUp } from '../src/lib/device-wake.ts';
import { createMetrics } from '../src/lib/metrics.ts';
import { Secrets } from '../src/lib/secrets.ts';
import { createPerIpLimits } from '../src/lib/shared-rate-limiter.ts';
import { leaseEmbeddedDatabase } from './embedded-pool.ts';

export interface SentSmsLine {
  to: string;
  text: string;
  at: string;
}

export interface TestApp {
  app: FastifyInstance;
  deps: Dependencies;
  clock: ManualClock;
  config: Config;
  handle: DatabaseHandle;
  /** Every SMS the app sent, read back from SMS_FILE. */
  sentSms(): SentSmsLine[];
  /** The six-digit code in the last SMS sent to this phone. */
  lastCode(phone: string): string;
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const usesPostgres = Boolean(process.env.DATABASE_URL);
/** Named prepared statements, off in CI's pass through PgBouncer in transaction mode (.ci/run). */
export const namedStatementsInTests = process.env.DATABASE_PREPARED_STATEMENTS !== 'off';

async function openTestDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    // Kept by this worker between files and reset to the template's state (embedded-pool.ts).
    const handle = await leaseEmbeddedDatabase(async () => {
      const templateFile = process.env.PROPUSK_PGLITE_TEMPLATE;
      const opened = await openMemoryDatabase(
        templateFile ? new Blob([readFileSync(templateFile)]) : undefined,
      );
      await applyMigrations(opened);
      return opened;
    });
    return { handle, drop: async () => {} };
  }
  const name = `propusk_test_${randomBytes(6).toString('hex')}`;
  // Databases are created and dropped directly on PostgreSQL when DATABASE_ADMIN_URL is set (CI's PgBouncer pass:
  // a copy needs its template without connections, which PgBouncer keeps open for a while).
  const adminUrl = process.env.DATABASE_ADMIN_URL ?? url;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // A copy of the migrated template made once per run (global-setup.ts); the migrations below then find
  // nothing to apply, as on a server restarted on its own database.
  const template = process.env.PROPUSK_PG_TEMPLATE;
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const handle = await openDatabase({
    databaseUrl: testUrl.toString(),
    dataDir: tmpdir(),
    poolSize: 10,
    preparedStatements: namedStatementsInTests,
  });
  await applyMigrations(handle);
  return {
    handle,
    drop: async () => {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/**
 * The app of one test file (or describe), built before its tests and closed after them by the fixture itself
 * (issue 44 part 4, as fastify/demo's `build(t)`): `const t = useTestApp();` where the describe used to say
 * `let t: TestApp; beforeAll(create); afterAll(close)`. Its fields are filled in by its own beforeAll, so read
 * them in hooks registered after it and in tests; `t()` returns the same app. It closes after the describe's
 * other afterAll hooks (Vitest runs those in reverse order), so they still find the app open.
 */
export type TestAppFixture = TestApp & (() => TestApp);

export function useTestApp(options: Parameters<typeof createTestApp>[0] = {}): TestAppFixture {
  let current: TestApp | undefined;
  const fixture = (() => {
    if (!current)
      throw new Error('useTestApp: the app is built in beforeAll, read it inside a hook or a test');
    return current;
  }) as TestAppFixture;
  beforeAll(async () => {
    current = await createTestApp(options);
    Object.assign(fixture, current);
  });
  afterAll(async () => {
    await current?.close();
  });
  return fixture;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    configure?: (deps: Dependencies) => void;
    /** The app's logger (silent by default); a test that reads the log lines passes one with a destination. */
    logger?: FastifyBaseLogger;
  } = {},
): Promise<TestApp> {
  const directory = mkdtempSync(path.join(tmpdir(), 'propusk-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: directory,
    LOG_LEVEL: 'silent',
    DEVICE_SIM: 'off',
    // The gateway's send rate stays out of the way of tests about something else (gateway-rate.test.ts and
    // multi-gateway.test.ts set real rates).
    SMS_RATE_PER_MINUTE: '100000',
    SMS_RATE_BURST: '100000',
    INBOUND_SMS_TOKEN: 'test-inbound-token-0123456789',
    WEB_DIST_DIR: path.join(directory, 'no-web-build'),
    ...options.env,
  });
  const { handle, drop } = await openTestDatabase();
  const clock = new ManualClock(new Date('2026-11-21T09:00:00.000Z'));
  const logger = options.logger ?? pino({ level: 'silent' });
  const nowMs = () => clock.now().getTime();
  const deps: Dependencies = {
    config,
    db: handle.db,
    sendDb: sendDbOf(handle),
    databaseKind: handle.kind,
    clock,
    secrets: new Secrets('test-secret-key-that-is-long-enough-0123456789'),
    sms: new DemoSmsGateway({ file: config.smsFile, now: () => clock.now() }),
    logger,
    metrics: createMetrics(),
    // As in main.ts: in the database, shared with any other app built on the same handle.
    rateLimits: createPerIpLimits(handle.db, config, nowMs),
    ...domainHooks(),
    ...deviceWakeUp(),
    // The event loop's watch is off in tests (a loaded machine blocks the embedded database now and then, and
    // its warn lines would mix with what a test reads); event-loop-watch.test.ts turns it on.
    eventLoopBlockMs: null,
  };
  options.configure?.(deps);
  const app = await buildApp(deps, { logger });
  await app.ready();

  const sentSms = (): SentSmsLine[] => {
    try {
      return readFileSync(config.smsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as SentSmsLine);
    } catch {
      return [];
    }
  };

  return {
    app,
    deps,
    clock,
    config,
    handle,
    sentSms,
    lastCode(phone) {
      const message = sentSms()
        .filter((line) => line.to === phone)
        .at(-1);
      const code = message?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`No code was sent to ${phone}`);
      return code;
    },
    request({ token, headers, ...rest }) {
      return app.inject({
        ...rest,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      });
    },
    async close() {
      await app.close();
      await handle.close();
      await drop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
