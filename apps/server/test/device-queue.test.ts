/**
 * The device queue end to end with the demo provider and simulated devices, step by step (no pg-boss):
 * the exact SMS reaching the device phone, the simulator's reply, the phone's status; removal; windows;
 * timed access on a model without windows; settings; the weekly SMS limit.
 */

import { ERROR_CODES } from '@propusk/contracts/error-codes';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { barriers, deviceSlots } from '../src/db/schema.ts';
import { reconcileBarrier } from '../src/engine/send/index.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

/** A number as the RTU sheet writes it (the production form `0007` + ten digits). */
const digits = (phone: string) => `0007${phone.slice(2)}`;

describe('device queue with the demo provider', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  it('adds a permanent phone: the exact command reaches the device, its reply makes the phone ok', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '4821' });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    expect(phone.queued).toBe(1);
    expect((await h.phone(phone.id)).status).toBe('pending');

    await h.run(barrier.id);

    expect(h.smsTo(barrier.devicePhone)).toEqual([`4821A001#${digits(phone.number)}#`]);
    expect((await h.phone(phone.id)).status).toBe('ok');
    const [command] = await h.commands(barrier.id);
    expect(command).toMatchObject({ status: 'confirmed', attempts: 1 });
    expect(command?.reply).toBe(`001:${digits(phone.number)}`);
    expect(h.simulators.device(barrier.id)?.wouldOpenFor(phone.number, t.clock.now())).toBe(true);
    const slots = await t.deps.db.select().from(deviceSlots).where(eq(deviceSlots.barrierId, barrier.id));
    expect(slots).toMatchObject([{ slot: 1, number: phone.number }]);
  });

  it('takes a removed number off the device', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const kept = await h.addPhone(barrier.id, { userId: admin.id });
    const leaving = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    const device = h.simulators.device(barrier.id);
    expect(device?.wouldOpenFor(leaving.number, t.clock.now())).toBe(true);

    expect(await h.removePhone(barrier.id, leaving.id)).toBe(1);
    await h.run(barrier.id);

    expect(h.smsTo(barrier.devicePhone).at(-1)).toBe('1234A002##');
    expect(device?.wouldOpenFor(leaving.number, t.clock.now())).toBe(false);
    expect(device?.wouldOpenFor(kept.number, t.clock.now())).toBe(true);
    const slots = await t.deps.db.select().from(deviceSlots).where(eq(deviceSlots.barrierId, barrier.id));
    expect(slots.map((row) => row.slot)).toEqual([1]);
  });

  it('costs nothing when a phone is removed before its command left', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.removePhone(barrier.id, phone.id);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual([]);
  });

  it('sends a temporary phone on RTU5025 as one SMS carrying its window (the clock once before)', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    // 2026-11-21 12:00 Moscow now; access from 14:00 to 18:30 Moscow.
    const start = new Date('2026-11-21T11:00:00Z');
    const end = new Date('2026-11-21T15:30:00Z');
    const first = await h.addPhone(barrier.id, { userId: admin.id, type: 'temporary', start, end });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual([
      '1234T2611211200#',
      `1234A001#${digits(first.number)}#2611211400#2611211830#`,
    ]);
    expect((await h.phone(first.id)).status).toBe('ok');

    const second = await h.addPhone(barrier.id, { userId: admin.id, type: 'temporary', start, end });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone).slice(2)).toEqual([
      `1234A002#${digits(second.number)}#2611211400#2611211830#`,
    ]);
    const device = h.simulators.device(barrier.id);
    expect(device?.wouldOpenFor(second.number, t.clock.now())).toBe(false);
    expect(device?.wouldOpenFor(second.number, new Date('2026-11-21T12:00:00Z'))).toBe(true);
    expect(device?.wouldOpenFor(second.number, new Date('2026-11-21T15:30:00Z'))).toBe(false);
  });

  it('adds at the start and deletes at the end on a model without windows', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'Telemetrica', password: null });
    const start = new Date(t.clock.now().getTime() + 60 * 60_000);
    const end = new Date(start.getTime() + 2 * 60 * 60_000);
    const phone = await h.addPhone(barrier.id, { userId: admin.id, type: 'temporary', start, end });
    expect(phone.queued).toBe(0);
    // Nothing to send before its start: the device is as it should be, so the phone is not waiting.
    expect((await h.phone(phone.id)).status).toBe('ok');
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual([]);

    t.clock.set(start);
    expect(await reconcileBarrier(t.deps, barrier.id)).toBe(1);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual([`#06#${phone.number}#`]);
    expect(h.simulators.device(barrier.id)?.wouldOpenFor(phone.number, t.clock.now())).toBe(true);
    expect((await h.phone(phone.id)).status).toBe('ok');

    t.clock.set(end);
    expect(await reconcileBarrier(t.deps, barrier.id)).toBe(1);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual([`#06#${phone.number}#`, `#15#${phone.number}#`]);
    expect(h.simulators.device(barrier.id)?.wouldOpenFor(phone.number, t.clock.now())).toBe(false);
    t.clock.set(new Date('2026-11-21T09:00:00.000Z'));
  });

  it('refuses a change whose commands would exceed the weekly SMS limit, storing nothing', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, smsWeeklyLimit: 2 });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.addPhone(barrier.id, { userId: admin.id });
    await expect(h.addPhone(barrier.id, { userId: admin.id })).rejects.toMatchObject({
      statusCode: 409,
      detail: ERROR_CODES.sms_weekly_limit,
      code: 'sms_weekly_limit',
    });
    const commands = await h.commands(barrier.id);
    expect(commands.filter((command) => command.status !== 'cancelled')).toHaveLength(2);
  });

  it('fails the command at once when the device refuses the password, and marks the phone error', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '1111' });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    // The stored password is "corrected" to a wrong value: the device keeps its own.
    await t.deps.db
      .update(barriers)
      .set({ devicePasswordEncrypted: t.deps.secrets.encrypt('2222') })
      .where(eq(barriers.id, barrier.id));
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual([
      expect.stringMatching(/^1111A001#/),
      `2222A002#${digits(phone.number)}#`,
    ]);
    expect((await h.phone(phone.id)).status).toBe('error');
    const commands = await h.commands(barrier.id);
    expect(commands.at(-1)).toMatchObject({
      status: 'failed',
      lastError: 'The device refused the password.',
    });
    // Nothing is sent again by itself.
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(h.smsTo(barrier.devicePhone)).toHaveLength(2);
  });
});
