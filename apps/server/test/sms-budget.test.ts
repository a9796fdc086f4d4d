/**
 * Issue 17 part 1: the weekly SMS budget counts what a timed phone will cost over the coming week before it
 * is accepted, on every path a person adds or edits a phone; the window job never lets the budget keep a
 * number on a gate; what was accepted never takes the device over its budget.
 */
import { ERROR_CODES } from '@propusk/contracts/error-codes';
import { and, eq, gt } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, phones, type WeeklySchedule } from '../src/db/schema.ts';
import { countCommandsThisWeek } from '../src/engine/budget/index.ts';
import { nextReconcileAt, reconcileBarrier } from '../src/engine/send/index.ts';
import { expireEndedPhones } from '../src/modules/phones/expiry.ts';
import { createDeviceHarness, createDeviceScene, type DeviceHarness } from './device-harness.ts';
import { addPhone, createUserWithAccess } from './domain-factories.ts';
import { createAdmin, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const WEEK_MS = 7 * 24 * 60 * 60_000;
const START = new Date('2026-11-21T09:00:00.000Z');

/** 24 one-minute windows a day, every day: the schedule of the attack. */
function everyHour(): WeeklySchedule {
  const day = Array.from({ length: 24 }, (_, hour) => ({
    start_time: `${String(hour).padStart(2, '0')}:00`,
    end_time: `${String(hour).padStart(2, '0')}:01`,
  }));
  return {
    monday: day,
    tuesday: day,
    wednesday: day,
    thursday: day,
    friday: day,
    saturday: day,
    sunday: day,
  };
}
const MODEST: WeeklySchedule = { tuesday: [{ start_time: '08:00', end_time: '12:00' }] };

describe('weekly SMS budget of timed phones (HTTP)', () => {
  const t = useTestApp();

  // The total limit is the subject here: no reserve, and one resident may spend all of it (his timed phones'
  // coming SMS count in his share since issue 29 item 3; sms-shares.test.ts tests that).
  const setLimit = (owner: TestUser, barrierId: number, limit: number | null) =>
    t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrierId}/limits/`,
      token: owner.token,
      payload:
        limit === null
          ? { sms_weekly_limit: null }
          : { sms_weekly_limit: limit, sms_owner_reserve: 0, sms_resident_share: limit },
    });
  const used = (barrierId: number) => countCommandsThisWeek(t.deps.db, barrierId, t.clock.now());
  const storedState = async (barrierId: number) => ({
    phones: (await t.deps.db.select().from(phones).where(eq(phones.barrierId, barrierId))).length,
    commands: (await t.deps.db.select().from(deviceCommands).where(eq(deviceCommands.barrierId, barrierId)))
      .length,
    used: await used(barrierId),
  });

  it('refuses a schedule phone of 24 one-minute windows a day at current use + 2, storing nothing', async () => {
    const { h, owner, barrier, user } = await createDeviceScene(t);
    await setLimit(owner, barrier.id, (await used(barrier.id)) + 2);
    const before = await storedState(barrier.id);

    const asUser = await addPhone(t, user, barrier.id, { type: 'schedule', schedule: everyHour() });
    expect(asUser.statusCode).toBe(409);
    expect(asUser.json()).toMatchObject({
      code: 'sms_weekly_limit',
      detail: ERROR_CODES.sms_weekly_limit,
    });

    const asAdmin = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/phones/`,
      token: owner.token,
      payload: { user: user.id, phone: nextPhone(), name: 'Гость', type: 'schedule', schedule: everyHour() },
    });
    expect(asAdmin.statusCode).toBe(409);
    expect(asAdmin.json().code).toBe('sms_weekly_limit');

    // Nothing stored: no phone, no history, no command; nothing reaches the device.
    expect(await storedState(barrier.id)).toEqual(before);
    const sent = h.smsTo(barrier.device_phone).length;
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone)).toHaveLength(sent);
  });

  it('accepts a modest schedule within the budget, and refuses to edit it into the attack', async () => {
    const { owner, barrier, user } = await createDeviceScene(t);
    // RTU5025: the clock and the first window now, the next Tuesday's window when this one ends = 3.
    await setLimit(owner, barrier.id, (await used(barrier.id)) + 3);
    const accepted = await addPhone(t, user, barrier.id, { type: 'schedule', schedule: MODEST });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const phoneId = accepted.json().id as number;

    const before = await storedState(barrier.id);
    const edit = await t.request({
      method: 'PUT',
      url: `/api/phones/${phoneId}/schedule/`,
      token: user.token,
      payload: everyHour(),
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().code).toBe('sms_weekly_limit');
    const schedule = await t.request({
      method: 'GET',
      url: `/api/phones/${phoneId}/schedule/`,
      token: user.token,
    });
    expect(schedule.json()).toEqual(MODEST);
    expect(await storedState(barrier.id)).toEqual(before);

    // A change that costs nothing more (the name) is not refused by a budget that is used up.
    const renamed = await t.request({
      method: 'PATCH',
      url: `/api/phones/${phoneId}/`,
      token: user.token,
      payload: { name: 'Няня' },
    });
    expect(renamed.statusCode).toBe(200);
  });

  it('counts a schedule phone on a model without windows before it costs anything now', async () => {
    const owner = await createAdmin(t);
    const created = await t.request({
      method: 'POST',
      url: '/api/admin/barriers/',
      token: owner.token,
      payload: {
        address: 'г. Москва, ул. Тестовая, д. 99',
        device_phone: nextPhone(),
        device_model: 'Telemetrica',
        device_phones_amount: 4,
        additional_info: '',
        is_public: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const barrierId = created.json().id as number;
    const user = await createUserWithAccess(t, { ...created.json(), owner });
    // Tuesday 08:00–12:00 is ahead (the clock is on Saturday): nothing is sent now, an add and a delete later.
    await setLimit(owner, barrierId, (await used(barrierId)) + 1);
    const refused = await addPhone(t, user, barrierId, { type: 'schedule', schedule: MODEST });
    expect(refused.statusCode).toBe(409);
    await setLimit(owner, barrierId, (await used(barrierId)) + 2);
    const accepted = await addPhone(t, user, barrierId, { type: 'schedule', schedule: MODEST });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });

  it('keeps settings and other changes from spending what accepted windows will need', async () => {
    const { owner, barrier, user } = await createDeviceScene(t);
    await setLimit(owner, barrier.id, (await used(barrier.id)) + 3);
    expect((await addPhone(t, user, barrier.id, { type: 'schedule', schedule: MODEST })).statusCode).toBe(
      201,
    );
    const setting = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/settings/`,
      token: owner.token,
      payload: { setting: 'open', params: {} },
    });
    expect(setting.statusCode).toBe(409);
    expect((await addPhone(t, user, barrier.id)).statusCode).toBe(409);
  });
});

describe('weekly SMS budget over a simulated week (device queue)', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  /** Runs the window job and the queue at every instant the whitelist changes, until `until`. */
  async function liveUntil(barrierId: number, until: Date): Promise<void> {
    for (;;) {
      const next = await nextReconcileAt(t.deps, barrierId);
      if (!next || next > until) break;
      t.clock.set(next);
      await expireEndedPhones(t.deps, { barrierId });
      await reconcileBarrier(t.deps, barrierId);
      await h.run(barrier(barrierId));
    }
    t.clock.set(until);
  }
  const barrier = (id: number) => id;

  /** The most command SMS created for the barrier in any 7 days (every 7 days ending at one of them). */
  async function busiestWeek(barrierId: number): Promise<number> {
    const rows = await t.deps.db
      .select({ createdAt: deviceCommands.createdAt, attempts: deviceCommands.attempts })
      .from(deviceCommands)
      .where(and(eq(deviceCommands.barrierId, barrierId), gt(deviceCommands.attempts, 0)));
    let most = 0;
    for (const row of rows) {
      const end = row.createdAt.getTime();
      const count = rows
        .filter((other) => other.createdAt.getTime() > end - WEEK_MS && other.createdAt.getTime() <= end)
        .reduce((sum, other) => sum + other.attempts, 0);
      most = Math.max(most, count);
    }
    return most;
  }

  it.each([['RTU5025'], ['Telemetrica']])(
    'on %s, phones added until refused never take the device over its budget over the week',
    async (model) => {
      t.clock.set(START);
      const limit = 40;
      const created = await h.createBarrier({
        ownerId: admin.id,
        model,
        password: model === 'Telemetrica' ? null : '1234',
        smsWeeklyLimit: limit,
      });
      const everyDay = (from: string, to: string): WeeklySchedule =>
        Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
            day,
            [{ start_time: from, end_time: to }],
          ]),
        );
      const candidates = [
        { type: 'permanent' as const },
        { type: 'schedule' as const, schedule: everyDay('08:00', '09:00') },
        {
          type: 'temporary' as const,
          start: new Date(START.getTime() + 2 * 3600_000),
          end: new Date(START.getTime() + 5 * 3600_000),
        },
        { type: 'schedule' as const, schedule: everyHour() },
        { type: 'schedule' as const, schedule: everyDay('18:00', '19:30') },
        { type: 'schedule' as const, schedule: MODEST },
      ];
      let accepted = 0;
      let refused = 0;
      for (let round = 0; round < 3; round += 1) {
        for (const candidate of candidates) {
          try {
            await h.addPhone(created.id, { userId: admin.id, ...candidate });
            accepted += 1;
          } catch (error) {
            expect(error).toMatchObject({ statusCode: 409, code: 'sms_weekly_limit' });
            refused += 1;
          }
          await h.run(created.id);
        }
      }
      expect(accepted).toBeGreaterThan(2);
      expect(refused).toBeGreaterThan(0);
      await liveUntil(created.id, new Date(START.getTime() + WEEK_MS + 24 * 3600_000));
      expect(await busiestWeek(created.id)).toBeLessThanOrEqual(limit);
      // The accepted windows did work: the device was sent more than the first commands.
      expect(h.smsTo(created.devicePhone).length).toBeGreaterThan(accepted);
    },
    120_000,
  );

  it('sends a window close even when the week’s budget is spent', async () => {
    t.clock.set(START);
    const created = await h.createBarrier({
      ownerId: admin.id,
      model: 'Telemetrica',
      password: null,
      smsWeeklyLimit: 3,
    });
    // Saturday 12:00–13:00 local (09:00–10:00 UTC): in now, an add now and a delete at 13:00.
    const phone = await h.addPhone(created.id, {
      userId: admin.id,
      type: 'schedule',
      schedule: { saturday: [{ start_time: '12:00', end_time: '13:00' }] },
    });
    await h.run(created.id);
    expect(h.smsTo(created.devicePhone)).toEqual([`#06#${phone.number}#`]);
    // The budget is now spent to its edge (the limit lowered to what was sent): no person may spend more.
    await t.deps.db.execute(
      (await import('drizzle-orm'))
        .sql`update barrier_limits set sms_weekly_limit = 1 where barrier_id = ${created.id}`,
    );
    await expect(h.addPhone(created.id, { userId: admin.id })).rejects.toMatchObject({
      code: 'sms_weekly_limit',
    });
    await liveUntil(created.id, new Date(START.getTime() + 60 * 60_000));
    expect(h.smsTo(created.devicePhone)).toEqual([`#06#${phone.number}#`, `#15#${phone.number}#`]);
    expect(h.simulators.device(created.id)?.wouldOpenFor(phone.number, t.clock.now())).toBe(false);
  });
});
