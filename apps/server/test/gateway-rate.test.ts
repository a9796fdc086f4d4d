/**
 * The send rate per gateway (issue 15 part 1): configuration, and the token bucket every process on the
 * database shares — two queue "processes" together never hand over more than burst + rate × time, and a
 * revocation never waits behind an add for a token.
 */
import type { DemoSmsGateway } from '@propusk/sms/demo';
import type { OutgoingSms, SentSms, SmsGateway } from '@propusk/sms/gateway';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, totalSendRatePerMinute } from '../src/config/config.ts';
import type { QueueDeps } from '../src/engine/plan/index.ts';
import { lockBarrier } from '../src/engine/plan/index.ts';
import { processBarrier } from '../src/engine/send/index.ts';
import type { ManualClock } from '../src/lib/clock.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('send rate configuration', () => {
  const base = { DATA_DIR: '/tmp/propusk-rate-config', LOG_LEVEL: 'silent' };

  it('keeps the one gateway of SMS_PROVIDER, at 20 SMS a minute with a burst of 5 unless told', () => {
    const config = loadConfig(base);
    expect(config.smsGateways).toEqual([{ name: 'demo', provider: 'demo', ratePerMinute: 20, burst: 5 }]);
    expect(totalSendRatePerMinute(config)).toBe(20);
    const tuned = loadConfig({ ...base, SMS_RATE_PER_MINUTE: '30', SMS_RATE_BURST: '10' });
    expect(tuned.smsGateways[0]).toMatchObject({ ratePerMinute: 30, burst: 10 });
    expect(() => loadConfig({ ...base, SMS_RATE_PER_MINUTE: '0' })).toThrow(/SMS_RATE_PER_MINUTE/);
    expect(() => loadConfig({ ...base, SMS_RATE_BURST: 'many' })).toThrow(/SMS_RATE_BURST/);
  });

  it('reads several gateways from SMS_GATEWAYS, their secrets from the variables they name', () => {
    const config = loadConfig({
      ...base,
      SMS_GATEWAYS: JSON.stringify([
        {
          name: 'phone-1',
          provider: 'android',
          url: 'http://10.0.0.2:8080',
          login_env: 'P1_LOGIN',
          password_env: 'P1_PASSWORD',
          rate_per_minute: 25,
          burst: 3,
        },
        {
          name: 'phone-2',
          provider: 'android',
          url: 'http://10.0.0.3:8080',
          login_env: 'P2_LOGIN',
          password_env: 'P2_PASSWORD',
          rate_per_minute: 25,
        },
        { name: 'smsru', provider: 'smsru', api_id_env: 'SMSRU_KEY', rate_per_minute: 60, burst: 10 },
      ]),
      P1_LOGIN: 'a',
      P1_PASSWORD: 'secret-one',
      P2_LOGIN: 'b',
      P2_PASSWORD: 'secret-two',
      SMSRU_KEY: 'secret-three',
    });
    expect(config.smsGateways.map((g) => [g.name, g.provider, g.ratePerMinute, g.burst])).toEqual([
      ['phone-1', 'android', 25, 3],
      ['phone-2', 'android', 25, 1],
      ['smsru', 'smsru', 60, 10],
    ]);
    expect(config.smsGateways[0]).toMatchObject({ login: 'a', password: 'secret-one' });
    expect(config.smsGateways[2]).toMatchObject({ apiId: 'secret-three', url: 'https://sms.ru' });
    expect(totalSendRatePerMinute(config)).toBe(110);
  });

  it('stops with a clear error for a bad list, naming the variable but never a secret', () => {
    const attempt = (list: unknown, extra: Record<string, string> = {}) => {
      try {
        loadConfig({
          ...base,
          SMS_GATEWAYS: typeof list === 'string' ? list : JSON.stringify(list),
          ...extra,
        });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(attempt('[{')).toMatch(/SMS_GATEWAYS: is not valid JSON/);
    expect(attempt([])).toMatch(/SMS_GATEWAYS/);
    expect(attempt([{ name: 'Bad Name', provider: 'demo', rate_per_minute: 5 }])).toMatch(
      /SMS_GATEWAYS\.0\.name/,
    );
    expect(attempt([{ name: 'x', provider: 'carrier-pigeon', rate_per_minute: 5 }])).toMatch(
      /SMS_GATEWAYS\.0\.provider/,
    );
    expect(attempt([{ name: 'x', provider: 'demo' }])).toMatch(/SMS_GATEWAYS\.0\.rate_per_minute/);
    expect(attempt([{ name: 'x', provider: 'demo', rate_per_minute: 5, password: 'inline' }])).toMatch(
      /SMS_GATEWAYS\.0/,
    );
    expect(
      attempt([
        { name: 'x', provider: 'demo', rate_per_minute: 5 },
        { name: 'x', provider: 'demo', rate_per_minute: 5 },
      ]),
    ).toMatch(/"x" is used twice/);
    expect(
      attempt([{ name: 'p', provider: 'android', rate_per_minute: 5, login_env: 'L', password_env: 'P' }]),
    ).toMatch(/SMS_GATEWAYS\.0\.url: is required/);
    const missing = attempt(
      [
        {
          name: 'p',
          provider: 'android',
          url: 'http://10.0.0.2',
          rate_per_minute: 5,
          login_env: 'L',
          password_env: 'P',
        },
      ],
      { L: 'hunter2-login' },
    );
    expect(missing).toMatch(/password_env: the variable P is not set/);
    expect(missing).not.toContain('hunter2');
  });
});

/** Counts what it is handed, then passes it to the demo gateway. */
class CountingGateway implements SmsGateway {
  readonly name = 'demo';
  readonly deduplicatesKeys = true;
  readonly sent: OutgoingSms[] = [];
  constructor(private readonly inner: SmsGateway) {}
  async send(message: OutgoingSms): Promise<SentSms> {
    this.sent.push(message);
    return this.inner.send(message);
  }
  balance() {
    return this.inner.balance();
  }
}

describe('the send rate, shared by every process on the database', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  let clock: ManualClock;
  let counting: CountingGateway;
  const t = useTestApp({ env: { SMS_RATE_PER_MINUTE: '6', SMS_RATE_BURST: '2' } });
  beforeAll(async () => {
    clock = t.deps.clock as ManualClock;
    h = createDeviceHarness(t);
    counting = new CountingGateway(t.deps.sms as DemoSmsGateway);
    t.deps.sms = counting;
    admin = await createAdmin(t);
  });

  it('two queue processes together never exceed burst + rate × time', async () => {
    const targets: number[] = [];
    for (let index = 0; index < 8; index++) {
      const barrier = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
      await h.addPhone(barrier.id, { userId: admin.id });
      targets.push(barrier.id);
    }
    // Two "processes": their own dependency objects, the one database (on PostgreSQL, their own connections).
    const processA: QueueDeps = { ...t.deps };
    const processB: QueueDeps = { ...t.deps };
    const started = clock.now().getTime();
    const handed: number[] = [];
    // 90 seconds, five at a time; both processes try every barrier at once.
    for (let step = 0; step <= 18; step++) {
      const results = await Promise.all(
        targets.flatMap((barrierId) => [
          processBarrier(processA, barrierId),
          processBarrier(processB, barrierId),
        ]),
      );
      const throttled = results.filter((result) => result.state === 'throttled');
      if (counting.sent.length < targets.length) expect(throttled.length).toBeGreaterThan(0);
      await h.deliverReplies();
      handed.push(counting.sent.length);
      const elapsedMinutes = (clock.now().getTime() - started) / 60_000;
      expect(counting.sent.length).toBeLessThanOrEqual(2 + Math.floor(6 * elapsedMinutes + 1e-9));
      clock.advance(5000);
    }
    // At the start the burst (2) left at once; then one every 10 s: all 8 by 60 s.
    expect(handed.slice(0, 4)).toEqual([2, 2, 3, 3]);
    expect(handed[12]).toBe(8);
    expect(new Set(counting.sent.map((message) => message.to)).size).toBe(8);
  }, 120_000);

  /** A barrier whose one number is being taken off (its revocation queued), and three with an add queued. */
  async function revocationBesideAdds() {
    const revoking = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
    const leaving = await h.addPhone(revoking.id, { userId: admin.id });
    expect(await h.run(revoking.id)).toEqual({ state: 'idle' });
    const adding: { id: number; devicePhone: string }[] = [];
    for (let index = 0; index < 3; index++) {
      const barrier = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
      await h.addPhone(barrier.id, { userId: admin.id });
      adding.push(barrier);
    }
    expect(await h.removePhone(revoking.id, leaving.id)).toBe(1);
    clock.advance(10 * 60_000); // the bucket is full again (2)
    counting.sent.length = 0;
    return { revoking, adding };
  }

  it('keeps a token for a waiting revocation: adds take only what is left over, whichever process asks first', async () => {
    clock.advance(10 * 60_000);
    const { revoking, adding } = await revocationBesideAdds();
    // The adds are tried first (another process woke them): of the bucket's 2 tokens one is kept for the
    // revocation, so one add goes and the others wait.
    const states: string[] = [];
    for (const barrier of adding) states.push((await processBarrier(t.deps, barrier.id)).state);
    expect(states).toEqual(['sent', 'throttled', 'throttled']);
    expect(counting.sent).toHaveLength(1);
    expect(await processBarrier({ ...t.deps }, revoking.id)).toMatchObject({ state: 'sent' });
    expect(counting.sent[1]).toMatchObject({ to: revoking.devicePhone, text: '1234A001##' });
    await h.deliverReplies();
    // The bucket is empty: the next add goes when the rate gives a token (one in 10 s).
    clock.advance(10_000);
    for (const barrier of adding.slice(1)) await processBarrier(t.deps, barrier.id);
    expect(counting.sent).toHaveLength(3);
  });

  it('decides the barriers woken together in one go: the tokens are counted across them, revocations first, one send per barrier', async () => {
    clock.advance(10 * 60_000);
    const { revoking, adding } = await revocationBesideAdds();
    // All at once, the adds asked first and the revoked barrier twice: one batch takes them.
    const results = await Promise.all([
      ...adding.map((barrier) => processBarrier(t.deps, barrier.id)),
      processBarrier(t.deps, revoking.id),
      processBarrier(t.deps, revoking.id),
    ]);
    const states = results.map((result) => result.state);
    expect(states.slice(0, 3).sort()).toEqual(['sent', 'throttled', 'throttled']);
    // The second call for the revoked barrier sees the first one's SMS in flight.
    expect(states.slice(3)).toEqual(['sent', 'waiting']);
    expect(counting.sent).toHaveLength(2);
    expect(counting.sent.filter((message) => message.to === revoking.devicePhone)).toEqual([
      expect.objectContaining({ text: '1234A001##' }),
    ]);
    await h.deliverReplies();
  });

  it('does not wait on a barrier another transaction holds: it sends as soon as that one commits', async () => {
    clock.advance(10 * 60_000);
    const barrier = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
    await h.addPhone(barrier.id, { userId: admin.id });
    const other = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
    await h.addPhone(other.id, { userId: admin.id });
    counting.sent.length = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = t.deps.db.transaction(async (tx) => {
      await lockBarrier(tx, barrier.id);
      locked();
      await released;
    });
    await isLocked;
    let done = false;
    const waiting = processBarrier(t.deps, barrier.id).then((result) => {
      done = true;
      return result;
    });
    if (t.deps.databaseKind === 'postgres') {
      // The other barrier is not held up by the locked one.
      expect(await processBarrier(t.deps, other.id)).toMatchObject({ state: 'sent' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(done).toBe(false);
    }
    release();
    await holding;
    expect(await waiting).toMatchObject({ state: 'sent' });
    expect(counting.sent.map((message) => message.to)).toContain(barrier.devicePhone);
    await h.deliverReplies();
  });

  it('gives an emergency hold its token before a revocation waiting on another barrier (issue 16)', async () => {
    clock.advance(10 * 60_000); // the bucket is full again (2)
    const revoking = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
    const leaving = await h.addPhone(revoking.id, { userId: admin.id });
    expect(await h.run(revoking.id)).toEqual({ state: 'idle' });
    const holder = await createAdmin(t); // a fresh session: the clock has run past the first one's
    const held = await h.createBarrier({ ownerId: holder.id, clockSetAt: clock.now() });
    expect(await h.removePhone(revoking.id, leaving.id)).toBe(1);
    const started = await t.request({
      method: 'POST',
      url: '/api/admin/emergency-holds/',
      token: holder.token,
      payload: { barrier_ids: [held.id], reason: 'Пожарная тревога' },
    });
    expect(started.statusCode, started.body).toBe(201);
    clock.advance(10 * 60_000);
    counting.sent.length = 0;
    // The revocation is tried first: tokens are there, yet it waits for the hold.
    expect((await processBarrier(t.deps, revoking.id)).state).toBe('throttled');
    expect(counting.sent).toHaveLength(0);
    expect(await processBarrier(t.deps, held.id)).toMatchObject({ state: 'sent' });
    expect(counting.sent[0]).toMatchObject({ to: held.devicePhone, text: '1234GOT999#' });
    await h.deliverReplies();
    // The hold's next step and the revocation share what is left, the hold first.
    expect(await processBarrier(t.deps, held.id)).toMatchObject({ state: 'sent' });
    expect(counting.sent[1]).toMatchObject({ to: held.devicePhone, text: '1234CC' });
  });
});
