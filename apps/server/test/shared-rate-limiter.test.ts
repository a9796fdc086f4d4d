import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createPerIpLimits, createSharedRateLimiter } from '../src/lib/shared-rate-limiter.ts';
import { useTestApp } from './test-app.ts';

describe('a limit shared by several server processes', () => {
  let nowMs = Date.UTC(2026, 10, 21, 9, 0, 0);
  const now = () => nowMs;
  const t = useTestApp();

  it('counts the hits of two processes together, and keys and limiters apart', async () => {
    // Two limiters with one name on one database: what two server processes hold.
    const first = createSharedRateLimiter(t.deps.db, {
      name: 'test-shared',
      limit: 3,
      windowMs: 60_000,
      now,
    });
    const second = createSharedRateLimiter(t.deps.db, {
      name: 'test-shared',
      limit: 3,
      windowMs: 60_000,
      now,
    });
    const other = createSharedRateLimiter(t.deps.db, { name: 'test-other', limit: 3, windowMs: 60_000, now });
    expect(await first.hit('10.0.0.1')).toBe(0);
    expect(await second.hit('10.0.0.1')).toBe(0);
    expect(await first.hit('10.0.0.1')).toBe(0);
    expect(await second.hit('10.0.0.1')).toBeGreaterThan(0);
    expect(await first.hit('10.0.0.2')).toBe(0);
    expect(await other.hit('10.0.0.1')).toBe(0);
  });

  it('slides: a hit leaves the window exactly one window after it was made, and says when', async () => {
    const limiter = createSharedRateLimiter(t.deps.db, {
      name: 'test-slide',
      limit: 2,
      windowMs: 60_000,
      now,
    });
    nowMs = Date.UTC(2026, 10, 21, 10, 0, 50);
    expect(await limiter.hit('a')).toBe(0);
    nowMs += 20_000; // across a minute boundary: a fixed window would start counting again here
    expect(await limiter.hit('a')).toBe(0);
    expect(await limiter.hit('a')).toBe(40); // the first hit leaves the window in 40 s
    nowMs += 39_000;
    expect(await limiter.hit('a')).toBe(1); // refused hits write nothing: still the first hit's 1 s
    nowMs += 1_000;
    expect(await limiter.hit('a')).toBe(0);
    expect(await limiter.hit('a')).toBe(20); // now the second hit is the oldest inside the window
  });

  it('deletes expired windows as it goes', async () => {
    const limiter = createSharedRateLimiter(t.deps.db, {
      name: 'test-sweep',
      limit: 100,
      windowMs: 1_000,
      now,
      sweepEvery: 3,
    });
    await limiter.hit('old');
    nowMs += 10_000;
    await limiter.hit('new');
    await limiter.hit('new');
    const rows = (await t.deps.db.execute(
      sql`select key from rate_limit_hits where bucket = 'test-sweep'`,
    )) as unknown as { rows: { key: string }[] };
    expect(rows.rows.map((row) => row.key)).toEqual(['new', 'new']);
  });

  it('a per-address limit holds across two app processes on one database', async () => {
    const limits = { ...t.config, RATE_LIMIT_CODE_REQUESTS: 2 };
    const processA = await buildApp(
      { ...t.deps, rateLimits: createPerIpLimits(t.deps.db, limits, now) },
      { logger: t.deps.logger },
    );
    const processB = await buildApp(
      { ...t.deps, rateLimits: createPerIpLimits(t.deps.db, limits, now) },
      { logger: t.deps.logger },
    );
    try {
      const ask = (app: typeof processA, phone: string) =>
        app.inject({
          method: 'POST',
          url: '/api/auth/codes/',
          remoteAddress: '203.0.113.7',
          payload: { phone, mode: 'login' },
        });
      expect((await ask(processA, '+79990001001')).statusCode).toBe(201);
      expect((await ask(processB, '+79990001002')).statusCode).toBe(201);
      const refused = await ask(processA, '+79990001003');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'too_many_requests' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await processA.close();
      await processB.close();
    }
  });
});
