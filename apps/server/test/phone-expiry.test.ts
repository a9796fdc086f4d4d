/**
 * Temporary phones end by themselves: past its end a temporary phone leaves the barrier (inactive, slot and
 * limits freed, history `end_time` by `system`), and the simulated device does not let the number in. On
 * RTU5025 the device closed the window itself, so ending costs no SMS; on Telemetrica (no windows) the
 * number is deleted from the device. The device worker ends them when it wakes at a window's end.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { phones } from '../src/db/schema.ts';
import { startDeviceProcessing } from '../src/jobs/start-device-processing.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import { expireEndedPhones } from '../src/modules/phones/expiry.ts';
import { createDeviceScene, type DeviceHarness } from './device-harness.ts';
import {
  addPhone,
  createBarrier,
  createUserWithAccess,
  queuedCommands,
  type TestBarrier,
} from './domain-factories.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { type TestApp, useTestApp } from './test-app.ts';

const HOUR = 3600_000;

/**
 * Moves the manual clock and gives the users fresh access tokens (15 minutes), as the client's refresh
 * would: the subject here is time passing for the phones, not for the sessions.
 */
async function setClock(t: TestApp, when: Date, users: TestUser[]) {
  t.clock.set(when);
  for (const user of users) user.token = (await issueSession(t.deps, t.deps.db, user.id)).access_token;
}

describe('temporary phones end at their end time', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let user: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, owner, barrier, user } = await createDeviceScene(t));
    const limits = await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrier.id}/limits/`,
      token: owner.token,
      payload: { user_temp_phone_limit: 1, global_temp_phone_limit: 1 },
    });
    expect(limits.statusCode, limits.body).toBe(200);
  });

  const at = (ms: number) => new Date(t.clock.now().getTime() + ms);
  const device = () => {
    const simulated = h.simulators.device(barrier.id);
    if (!simulated) throw new Error('the device has not heard from the server');
    return simulated;
  };
  const getPhone = (id: number) => t.request({ method: 'GET', url: `/api/phones/${id}/`, token: user.token });
  const slotOf = async (id: number) =>
    (await t.deps.db.select({ slot: phones.slot }).from(phones).where(eq(phones.id, id)))[0]?.slot;

  it('ends the phone, frees its slot and its limit, writes end_time, and sends no SMS on RTU5025', async () => {
    const start = at(HOUR);
    const end = at(3 * HOUR);
    const added = await addPhone(t, user, barrier.id, {
      type: 'temporary',
      start_time: start.toISOString(),
      end_time: end.toISOString(),
    });
    expect(added.statusCode, added.body).toBe(201);
    const guest = added.json() as { id: number; phone: string };
    await h.run(barrier.id);
    const slot = await slotOf(guest.id);
    expect(device().wouldOpenFor(guest.phone, at(2 * HOUR))).toBe(true);
    // The limit of one temporary phone is taken.
    const refused = await addPhone(t, user, barrier.id, {
      type: 'temporary',
      start_time: start.toISOString(),
      end_time: end.toISOString(),
    });
    expect(refused.statusCode).toBe(409);

    // Before the end nothing happens.
    await setClock(t, new Date(end.getTime() - 60_001), [owner, user]);
    expect((await expireEndedPhones(t.deps)).phoneIds).toEqual([]);
    expect((await getPhone(guest.id)).json().is_active).toBe(true);

    await setClock(t, new Date(end.getTime() + 20_000), [owner, user]);
    const smsBefore = h.smsTo(barrier.device_phone).length;
    const result = await expireEndedPhones(t.deps);
    expect(result).toEqual({ barrierIds: [barrier.id], commandBarrierIds: [], phoneIds: [guest.id] });
    // The device closed the window by itself: nothing to send.
    expect(await queuedCommands(t, barrier.id)).toEqual([]);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).length).toBe(smsBefore);
    expect(device().wouldOpenFor(guest.phone, t.clock.now())).toBe(false);

    const shown = (await getPhone(guest.id)).json();
    expect(shown).toMatchObject({ id: guest.id, is_active: false, type: 'temporary' });
    const mine = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/phones/my/`,
      token: user.token,
    });
    expect(mine.json().phones.map((phone: { id: number }) => phone.id)).not.toContain(guest.id);
    expect(await slotOf(guest.id)).toBeNull();

    // History, as the user reads it.
    const history = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/actions/?action_type=delete_phone`,
      token: user.token,
    });
    expect(history.statusCode).toBe(200);
    expect(history.json().actions).toEqual([
      expect.objectContaining({ phone: guest.id, author: 'system', reason: 'end_time' }),
    ]);
    const detail = await t.request({
      method: 'GET',
      url: `/api/actions/${history.json().actions[0].id}/`,
      token: user.token,
    });
    expect(detail.json()).toMatchObject({
      old_value: { phone: guest.phone, is_active: true },
      new_value: { phone: guest.phone, is_active: false },
    });

    // Running again changes nothing.
    expect((await expireEndedPhones(t.deps)).phoneIds).toEqual([]);

    // The limit and the slot are free again: a new temporary phone takes the freed slot.
    const next = await addPhone(t, user, barrier.id, {
      type: 'temporary',
      start_time: at(HOUR).toISOString(),
      end_time: at(2 * HOUR).toISOString(),
    });
    expect(next.statusCode, next.body).toBe(201);
    expect(await slotOf(next.json().id)).toBe(slot);
    await h.run(barrier.id);
    expect(device().wouldOpenFor(guest.phone, at(90 * 60_000))).toBe(false);
    expect(device().wouldOpenFor(next.json().phone, at(90 * 60_000))).toBe(true);
  });

  it('ends a phone at the minute its window closes on the device', async () => {
    // Make room: the previous test's phone holds the one temporary place.
    await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrier.id}/limits/`,
      token: owner.token,
      payload: { user_temp_phone_limit: null, global_temp_phone_limit: null },
    });
    const minute = Math.floor(at(2 * HOUR).getTime() / 60_000) * 60_000;
    const added = await addPhone(t, user, barrier.id, {
      type: 'temporary',
      start_time: at(-60_000).toISOString(),
      end_time: new Date(minute + 40_000).toISOString(),
    });
    expect(added.statusCode, added.body).toBe(201);
    await h.run(barrier.id);
    await setClock(t, new Date(minute - 1), [owner, user]);
    expect((await expireEndedPhones(t.deps)).phoneIds).not.toContain(added.json().id);
    expect(device().wouldOpenFor(added.json().phone, t.clock.now())).toBe(true);
    // From the minute of its end the device no longer opens for it, and the phone has ended.
    await setClock(t, new Date(minute + 5_000), [owner, user]);
    expect(device().wouldOpenFor(added.json().phone, t.clock.now())).toBe(false);
    expect((await expireEndedPhones(t.deps)).phoneIds).toContain(added.json().id);
  });

  it('deletes the number from a device without windows (Telemetrica) at the end', async () => {
    const telemetrica = await createBarrier(t, owner, {
      device_model: 'Telemetrica',
      device_phones_amount: 4,
    });
    const member = await createUserWithAccess(t, telemetrica);
    const added = await addPhone(t, member, telemetrica.id, {
      type: 'temporary',
      start_time: at(-60_000).toISOString(),
      end_time: at(HOUR).toISOString(),
    });
    expect(added.statusCode, added.body).toBe(201);
    await h.run(telemetrica.id);
    const simulated = h.simulators.device(telemetrica.id);
    expect(simulated?.wouldOpenFor(added.json().phone, t.clock.now())).toBe(true);

    await setClock(t, at(HOUR), [owner, user, member]);
    const result = await expireEndedPhones(t.deps, { barrierId: telemetrica.id });
    expect(result).toEqual({
      barrierIds: [telemetrica.id],
      commandBarrierIds: [telemetrica.id],
      phoneIds: [added.json().id],
    });
    expect((await queuedCommands(t, telemetrica.id)).map((command) => command.kind)).toEqual(['delete']);
    await h.run(telemetrica.id);
    expect(simulated?.wouldOpenFor(added.json().phone, t.clock.now())).toBe(false);
    expect(simulated?.wouldOpenFor(member.phone, t.clock.now())).toBe(true);
  });

  it('leaves phones of deleted barriers and other phone types alone', async () => {
    const other = await createBarrier(t, owner);
    const member = await createUserWithAccess(t, other);
    const permanent = await addPhone(t, member, other.id, { type: 'permanent' });
    const temporary = await addPhone(t, member, other.id, {
      type: 'temporary',
      start_time: at(-60_000).toISOString(),
      end_time: at(HOUR).toISOString(),
    });
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/admin/barriers/${other.id}/`,
      token: owner.token,
    });
    expect(deleted.statusCode).toBe(204);
    await setClock(t, at(2 * HOUR), [owner, user]);
    const result = await expireEndedPhones(t.deps);
    expect(result.barrierIds).not.toContain(other.id);
    expect(result.phoneIds).not.toContain(temporary.json().id);
    expect(result.phoneIds).not.toContain(permanent.json().id);
  });
});

describe('the device worker ends temporary phones when it wakes', () => {
  const t = useTestApp();

  it('a sweep (as at start-up or every minute) ends what ended while nobody looked', async () => {
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner);
    const user = await createUserWithAccess(t, barrier);
    const added = await addPhone(t, user, barrier.id, {
      type: 'temporary',
      start_time: new Date(t.clock.now().getTime() + HOUR).toISOString(),
      end_time: new Date(t.clock.now().getTime() + 2 * HOUR).toISOString(),
    });
    expect(added.statusCode, added.body).toBe(201);
    await setClock(t, new Date(t.clock.now().getTime() + 3 * HOUR), [owner, user]);
    const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: false });
    try {
      await processing.worker.sweep();
      await processing.worker.idle();
    } finally {
      await processing.stop();
    }
    const shown = await t.request({
      method: 'GET',
      url: `/api/phones/${added.json().id}/`,
      token: user.token,
    });
    expect(shown.json().is_active).toBe(false);
    const history = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/actions/?action_type=delete_phone`,
      token: owner.token,
    });
    expect(history.json().actions).toEqual([
      expect.objectContaining({ phone: added.json().id, author: 'system', reason: 'end_time' }),
    ]);
  });
});
