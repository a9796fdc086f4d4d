/**
 * Several SMS gateways at once (issue 15 part 4): commands spread over them, the gateway of each command is
 * recorded, a gateway that fails is skipped and its command resent through another under the same attempt,
 * a device that only obeys a known number always hears from the same gateway, a revocation never waits
 * behind an add whichever gateway the add would use, and a reply is matched by the device's number whatever
 * gateway received it.
 */
import type { DemoSmsGateway } from '@propusk/sms/demo';
import { type OutgoingSms, type SentSms, type SmsGateway, SmsGatewayError } from '@propusk/sms/gateway';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleDeviceReply } from '../src/engine/reply/index.ts';
import { handOffKey, processBarrier } from '../src/engine/send/index.ts';
import type { ManualClock } from '../src/lib/clock.ts';
import type { GatewayEntry } from '../src/lib/sms-gateway.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

/** A gateway (two Android phones, SMS.ru…) in front of the demo one, so that the simulated devices hear it. */
class FakeGateway implements SmsGateway {
  readonly deduplicatesKeys = true;
  down = false;
  readonly sent: OutgoingSms[] = [];
  constructor(
    readonly name: string,
    private readonly inner: SmsGateway,
  ) {}
  async send(message: OutgoingSms): Promise<SentSms> {
    if (this.down) throw new SmsGatewayError('connection refused', true);
    this.sent.push(message);
    return this.inner.send(message);
  }
  balance() {
    return Promise.resolve(null);
  }
}

describe('several gateways', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  let clock: ManualClock;
  let phoneA: FakeGateway;
  let phoneB: FakeGateway;
  let entries: GatewayEntry[];
  const t = useTestApp();
  beforeAll(async () => {
    clock = t.deps.clock as ManualClock;
    h = createDeviceHarness(t);
    const demo = t.deps.sms as DemoSmsGateway;
    phoneA = new FakeGateway('android', demo);
    phoneB = new FakeGateway('android', demo);
    entries = [
      { name: 'phone-a', gateway: phoneA, ratePerMinute: 600, burst: 50 },
      { name: 'phone-b', gateway: phoneB, ratePerMinute: 600, burst: 50 },
    ];
    t.deps.smsGateways = entries;
    admin = await createAdmin(t);
  });
  beforeEach(async () => {
    // Every test starts with both gateways up and their buckets full.
    phoneA.down = false;
    phoneB.down = false;
    for (const entry of entries) entry.burst = 50;
    clock.advance(60 * 60_000);
    await t.deps.db.execute(sql`update sms_gateway_buckets set down_until = null, tokens = burst`);
  });

  const gatewaysOf = async (barrierId: number) =>
    (await h.commands(barrierId)).map((command) => command.gateway);

  it('spreads commands over the gateways and records which one sent each', async () => {
    const barriers: { id: number; devicePhone: string }[] = [];
    for (let index = 0; index < 6; index++) {
      const barrier = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
      await h.addPhone(barrier.id, { userId: admin.id });
      barriers.push(barrier);
    }
    const before = { a: phoneA.sent.length, b: phoneB.sent.length };
    for (const barrier of barriers) expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(phoneA.sent.length - before.a).toBe(3);
    expect(phoneB.sent.length - before.b).toBe(3);
    const used = (await Promise.all(barriers.map((barrier) => gatewaysOf(barrier.id)))).flat();
    expect(used.filter((name) => name === 'phone-a')).toHaveLength(3);
    expect(used.filter((name) => name === 'phone-b')).toHaveLength(3);
    // Each device got its command once, and its reply confirmed it.
    for (const barrier of barriers) expect(h.smsTo(barrier.devicePhone)).toHaveLength(1);
  });

  it('skips a gateway that fails and resends its command through the other, under the same attempt', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    // Phone A would be chosen (more tokens); it is down.
    await t.deps.db.execute(sql`update sms_gateway_buckets set tokens = burst - 10 where name = 'phone-b'`);
    phoneA.down = true;
    const failed = await processBarrier(t.deps, barrier.id);
    expect(failed).toMatchObject({ state: 'gateway_failed' });
    if (failed.state !== 'gateway_failed') throw new Error('unreachable');
    // No wait: the other gateway takes it at once.
    expect(failed.retryAt.getTime()).toBeLessThanOrEqual(clock.now().getTime());
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    const [command] = await h.commands(barrier.id);
    expect(command).toMatchObject({ status: 'confirmed', gateway: 'phone-b', attempts: 1 });
    expect(phoneB.sent.at(-1)).toMatchObject({ to: barrier.devicePhone, key: handOffKey(command!, 1) });
    expect(h.smsTo(barrier.devicePhone)).toHaveLength(1);
    expect((await h.phone(phone.id)).status).toBe('ok');
    // While it is marked down, every process leaves phone A out, even when it has more tokens.
    const next = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
    await h.addPhone(next.id, { userId: admin.id });
    phoneA.down = false;
    expect(await h.run(next.id)).toEqual({ state: 'idle' });
    expect(await gatewaysOf(next.id)).toEqual(['phone-b']);
    // After its down spell it is used again.
    clock.advance(61_000);
    const later = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
    await h.addPhone(later.id, { userId: admin.id });
    expect(await h.run(later.id)).toEqual({ state: 'idle' });
    expect(await gatewaysOf(later.id)).toEqual(['phone-a']);
  });

  it('keeps the sender a device without a password knows: it waits for that gateway rather than hear another', async () => {
    // Telemetrica takes commands from the number registered on it (no password).
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'Telemetrica', password: null });
    await h.addPhone(barrier.id, { userId: admin.id });
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    const first = (await gatewaysOf(barrier.id)).filter((name) => name !== null);
    expect(first.length).toBeGreaterThan(0);
    const sender = first[0]!;
    expect(new Set(first)).toEqual(new Set([sender]));
    // The other gateway now has far more tokens: the device still hears from its own.
    await t.deps.db.execute(sql`update sms_gateway_buckets set tokens = 1 where name = ${sender}`);
    await h.addPhone(barrier.id, { userId: admin.id });
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(new Set(await gatewaysOf(barrier.id))).toEqual(new Set([sender]));
    // Its gateway fails: the command waits for it, never goes through the other one.
    const own = sender === 'phone-a' ? phoneA : phoneB;
    const other = sender === 'phone-a' ? phoneB : phoneA;
    own.down = true;
    clock.advance(10_000); // its bucket refills
    const otherBefore = other.sent.length;
    await h.addPhone(barrier.id, { userId: admin.id });
    expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'gateway_failed' });
    const held = await processBarrier(t.deps, barrier.id);
    expect(held.state === 'throttled' || held.state === 'waiting').toBe(true);
    expect(other.sent.length).toBe(otherBefore);
    own.down = false;
    clock.advance(61_000);
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(new Set(await gatewaysOf(barrier.id))).toEqual(new Set([sender]));
    expect(other.sent.length).toBe(otherBefore);
  });

  it('sends a revocation before the adds when both gateways are short of tokens', async () => {
    const revoking = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
    const leaving = await h.addPhone(revoking.id, { userId: admin.id });
    expect(await h.run(revoking.id)).toEqual({ state: 'idle' });
    const adding: { id: number }[] = [];
    for (let index = 0; index < 4; index++) {
      const barrier = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
      await h.addPhone(barrier.id, { userId: admin.id });
      adding.push(barrier);
    }
    expect(await h.removePhone(revoking.id, leaving.id)).toBe(1);
    // One token left on each gateway.
    await t.deps.db.execute(
      sql`update sms_gateway_buckets set tokens = 1, refilled_at = ${clock.now().toISOString()}::timestamptz`,
    );
    const before = phoneA.sent.length + phoneB.sent.length;
    for (const barrier of adding) expect((await processBarrier(t.deps, barrier.id)).state).toBe('throttled');
    expect(phoneA.sent.length + phoneB.sent.length).toBe(before);
    expect(await processBarrier(t.deps, revoking.id)).toMatchObject({ state: 'sent' });
    const all = [...phoneA.sent, ...phoneB.sent];
    expect(all.at(-1)).toMatchObject({ to: revoking.devicePhone, text: '1234A001##' });
    await h.deliverReplies();
    // The one token left goes to an add.
    for (const barrier of adding) await processBarrier(t.deps, barrier.id);
    expect(phoneA.sent.length + phoneB.sent.length).toBe(before + 2);
  });

  it('matches a reply by the device number, whatever gateway received it', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, clockSetAt: clock.now() });
    await h.addPhone(barrier.id, { userId: admin.id });
    expect(await processBarrier(t.deps, barrier.id)).toMatchObject({ state: 'sent' });
    await h.dropReplies();
    const [command] = await h.commands(barrier.id);
    const payload = command!.payload as { slot: number; number: string };
    // The unit's answer to an add: `NNN:number` (the sheet's form, 0007 + ten digits).
    const text = `${String(payload.slot).padStart(3, '0')}:0007${payload.number.slice(2)}`;
    const reply = await handleDeviceReply(t.deps, {
      from: barrier.devicePhone,
      text,
      gatewayId: { gateway: command!.gateway === 'phone-a' ? 'phone-b' : 'phone-a', messageId: 'm-1' },
    });
    expect(reply.matched).toMatchObject({ barrierId: barrier.id, outcome: 'confirmed' });
  });
});
