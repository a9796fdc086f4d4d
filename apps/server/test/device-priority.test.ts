/**
 * Priorities in the device queue (issue 15, part 2): a command that takes access away reaches the gateway
 * before any that gives access, then the soonest deadline; a barrier's own commands keep their order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeviceProcessing } from '../src/jobs/start-device-processing.ts';
import { systemClock } from '../src/lib/clock.ts';
import { barriersNeedingAttention, processBarrier } from '../src/modules/devices/queue.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/** A number as the RTU sheet writes it (`0007` + ten digits). */
const digits = (phone: string) => `0007${phone.slice(2)}`;

async function waitFor<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('device queue priorities', () => {
  let t: TestApp;
  let h: DeviceHarness;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp({
      env: { DEVICE_SIM_DELAY_MS: '0' },
      configure: (deps) => {
        deps.clock = systemClock;
      },
    });
    // Manual: commands are stored and wait; nothing is sent until the test drives the queue or the worker.
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });
  afterAll(() => t.close());

  it('hands a revocation to the gateway before the adds of many other barriers', async () => {
    // Adds waiting on six barriers, stored first (lower barrier and command ids).
    const adding: { devicePhone: string }[] = [];
    for (let index = 0; index < 6; index++) {
      const barrier = await h.createBarrier({ ownerId: admin.id });
      await h.addPhone(barrier.id, { userId: admin.id });
      await h.addPhone(barrier.id, { userId: admin.id });
      adding.push(barrier);
    }
    // The last barrier: a number on its device, then taken away.
    const revoking = await h.createBarrier({ ownerId: admin.id });
    const leaving = await h.addPhone(revoking.id, { userId: admin.id });
    expect(await h.run(revoking.id)).toEqual({ state: 'idle' });
    expect(await h.removePhone(revoking.id, leaving.id)).toBe(1);
    const before = t.sentSms().length;

    expect((await barriersNeedingAttention(t.deps.db))[0]).toBe(revoking.id);

    // The worker starts (as after a restart): its sweep drives the barriers one after the other.
    const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: true });
    try {
      await waitFor(
        async () => t.sentSms().length - before,
        (count) => count >= 13,
      );
    } finally {
      await processing.stop();
    }
    const sent = t.sentSms().slice(before);
    expect(sent[0]).toMatchObject({ to: revoking.devicePhone, text: '1234A001##' });
    // Every add still left, each once.
    for (const barrier of adding)
      expect(sent.filter((line) => line.to === barrier.devicePhone)).toHaveLength(2);
  });

  it('ranks the adds of different barriers by deadline: access due now, then the window that opens soonest', async () => {
    const hour = 60 * 60_000;
    const later = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(later.id, {
      userId: admin.id,
      type: 'temporary',
      start: new Date(Date.now() + 3 * hour),
      end: new Date(Date.now() + 5 * hour),
    });
    const sooner = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(sooner.id, {
      userId: admin.id,
      type: 'temporary',
      start: new Date(Date.now() + hour),
      end: new Date(Date.now() + 2 * hour),
    });
    const now = await h.createBarrier({ ownerId: admin.id });
    await h.addPhone(now.id, { userId: admin.id });
    expect((await h.commands(later.id)).map((row) => row.kind)).toContain('add_window');
    const order = (await barriersNeedingAttention(t.deps.db)).filter((id) =>
      [later.id, sooner.id, now.id].includes(id),
    );
    expect(order).toEqual([now.id, sooner.id, later.id]);
    for (const barrier of [later, sooner, now])
      expect(await h.run(barrier.id)).toMatchObject({ state: 'idle' });
  });

  it('keeps a barrier’s dependent commands in order: the old number leaves before the new one is written', async () => {
    // Telemetrica holds numbers, not slots: giving slot 1 to a new number is a delete, then an add.
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'Telemetrica', password: null });
    const first = await h.addPhone(barrier.id, { userId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });

    // Adds queued for slots 3 and 4, then slot 1 freed and at once given to a new number.
    const third = await h.addPhone(barrier.id, { userId: admin.id });
    const fourth = await h.addPhone(barrier.id, { userId: admin.id });
    await h.removePhone(barrier.id, first.id);
    const replacing = await h.addPhone(barrier.id, { userId: admin.id });
    expect(replacing.slot).toBe(1);
    const before = h.smsTo(barrier.devicePhone).length;
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(h.smsTo(barrier.devicePhone).slice(before)).toEqual([
      `#15#${first.number}#`,
      `#06#${replacing.number}#`,
      `#06#${third.number}#`,
      `#06#${fourth.number}#`,
    ]);
    expect(h.simulators.device(barrier.id)?.whitelist(new Date())).not.toContain(first.number);
  });

  it('sends the revocation of a slot before the adds queued ahead of it on the same barrier', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const leaving = await h.addPhone(barrier.id, { userId: admin.id });
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    const second = await h.addPhone(barrier.id, { userId: admin.id });
    const third = await h.addPhone(barrier.id, { userId: admin.id });
    await h.removePhone(barrier.id, leaving.id);
    const before = h.smsTo(barrier.devicePhone).length;
    expect((await processBarrier(t.deps, barrier.id)).state).toBe('sent');
    expect(h.smsTo(barrier.devicePhone).slice(before)).toEqual(['1234A001##']);
    await h.deliverReplies();
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(h.smsTo(barrier.devicePhone).slice(before)).toEqual([
      '1234A001##',
      `1234A002#${digits(second.number)}#`,
      `1234A003#${digits(third.number)}#`,
    ]);
  });
});
