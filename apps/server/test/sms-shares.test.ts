/**
 * Issue 29 item 3: residents spend their own share of the weekly SMS limit. A resident's add and removal used
 * to spend the owner's limit, so that the owner's own add was refused with `sms_weekly_limit`; now the
 * resident spends his share, the owner his reserve. A resident over his share gets a clear refusal, and the
 * screens read what is left of each part (docs/decisions/0023).
 */
import { forecastPhoneSms } from '@propusk/devices/weekly-sms';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, phones } from '../src/db/schema.ts';
import { countCommandsThisWeek } from '../src/engine/budget/index.ts';
import { createDeviceHarness, createDeviceScene, type DeviceHarness } from './device-harness.ts';
import { addPhone, createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, nextPhone, type TestUser } from './factories.ts';
import { type TestApp, useTestApp } from './test-app.ts';

/**
 * Sets the barrier's weekly SMS limit, its owner's reserve and a resident's share, the first two `above` what
 * this week already sent (the setup's commands are the reserve's). Answers what was sent before and the reply.
 */
async function setShares(
  t: TestApp,
  owner: TestUser,
  barrierId: number,
  above: { limit: number; reserve: number; share: number },
) {
  const before = await countCommandsThisWeek(t.deps.db, barrierId, t.clock.now());
  const set = await t.request({
    method: 'PATCH',
    url: `/api/admin/barriers/${barrierId}/limits/`,
    token: owner.token,
    payload: {
      sms_weekly_limit: before + above.limit,
      sms_owner_reserve: before + above.reserve,
      sms_resident_share: above.share,
    },
  });
  expect(set.statusCode, set.body).toBe(200);
  return { before, set };
}

/** What is left of the resident's share, as his limits card reads it. */
async function shareLeftOf(t: TestApp, resident: TestUser, barrierId: number): Promise<number> {
  const response = await t.request({
    method: 'GET',
    url: `/api/barriers/${barrierId}/limits/`,
    token: resident.token,
  });
  return response.json().sms_budget.share_left as number;
}

describe('residents spend their own share of the weekly SMS limit', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, owner, barrier, user: resident } = await createDeviceScene(t));
  });

  const limits = (who: TestUser, side: 'user' | 'admin') =>
    t.request({
      method: 'GET',
      url: `/api${side === 'admin' ? '/admin' : ''}/barriers/${barrier.id}/limits/`,
      token: who.token,
    });

  it('keeps the owner’s reserve when a resident adds and removes a phone', async () => {
    // What the setup already sent (the owner's and the resident's primary phones, the clock) is the reserve's.
    const { before, set } = await setShares(t, owner, barrier.id, { limit: 2, reserve: 1, share: 1 });
    expect(set.json()).toMatchObject({ sms_resident_share: 1, sms_owner_reserve: before + 1 });

    const added = await addPhone(t, resident, barrier.id);
    expect(added.statusCode, added.body).toBe(201);
    await h.run(barrier.id);
    expect((await limits(resident, 'user')).json().sms_budget).toMatchObject({ share: 1, share_left: 0 });

    const removed = await t.request({
      method: 'DELETE',
      url: `/api/phones/${added.json().id}/`,
      token: resident.token,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    await h.run(barrier.id);

    // Over his share: a clear refusal, with what is left.
    const again = await addPhone(t, resident, barrier.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'sms_resident_share_used', share: 1, left: 0 });

    // The owner's own add spends his reserve: no `sms_weekly_limit` because the resident spent his.
    const ownerAdd = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/phones/`,
      token: owner.token,
      payload: { phone: '+79990001122', name: 'Охрана', type: 'permanent' },
    });
    expect(ownerAdd.statusCode, ownerAdd.body).toBe(201);
    await h.run(barrier.id);

    const admin = (await limits(owner, 'admin')).json().sms_budget;
    expect(admin).toMatchObject({
      limit: before + 2,
      reserve: before + 1,
      residents_left: 0,
      reserve_left: 0,
    });
  });
});

describe('a resident’s timed phones count their coming SMS in his share', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, owner, barrier, user: resident } = await createDeviceScene(t));
  });

  // Every day 08:00–09:00: a window the worker writes ahead each day, sent later, caused now.
  const daily = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
      day,
      [{ start_time: '08:00', end_time: '09:00' }],
    ]),
  );
  const addSchedule = (who: TestUser, phone: string) =>
    t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/phones/`,
      token: who.token,
      payload: { phone, name: 'Няня', type: 'schedule', schedule: daily },
    });
  const shareLeft = () => shareLeftOf(t, resident, barrier.id);

  it('counts the week’s windows of his schedule when he adds it, and refuses the next one over his share', async () => {
    await setShares(t, owner, barrier.id, { limit: 40, reserve: 10, share: 10 });

    // The owner's schedule for the resident is the reserve's: his share stays whole.
    const byOwner = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/phones/`,
      token: owner.token,
      payload: {
        user: resident.id,
        phone: '+79990002201',
        name: 'Водитель',
        type: 'schedule',
        schedule: daily,
      },
    });
    expect(byOwner.statusCode, byOwner.body).toBe(201);
    expect(await shareLeft()).toBe(10);

    const first = await addSchedule(resident, '+79990002202');
    expect(first.statusCode, first.body).toBe(201);
    const spentNow = await t.deps.db
      .select({ id: deviceCommands.id })
      .from(deviceCommands)
      .where(and(eq(deviceCommands.barrierId, barrier.id), eq(deviceCommands.spentBy, resident.id)));
    const coming = forecastPhoneSms(
      'RTU5025',
      { slot: 1, number: '+79990002202', kind: 'schedule', schedule: daily },
      t.clock.now(),
      t.deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
    );
    expect(coming).toBeGreaterThan(2);
    expect(await shareLeft()).toBe(10 - spentNow.length - coming);

    // A second such schedule queues one SMS now, which alone would fit; with its week it does not.
    const second = await addSchedule(resident, '+79990002203');
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json()).toMatchObject({ code: 'sms_resident_share_used', share: 10 });
    await h.run(barrier.id);
  });
});

describe('a guest pass’s number counts in the share of the resident who made it (issue 29)', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    // A model without time windows: the guest's number goes on at the window's start and off at its end, two
    // SMS the worker sends later; a model with windows writes it once, at the redeem.
    h = createDeviceHarness(t);
    owner = await createAdmin(t, { fullName: 'Владелец' });
    barrier = await createBarrier(t, owner, {
      device_model: 'Telemetrica',
      device_password: undefined,
      device_phones_amount: 4,
    });
    resident = await createUserWithAccess(t, barrier);
    await h.run(barrier.id);
  });

  const HOUR = 3_600_000;
  let ip = 0;
  const shareLeft = () => shareLeftOf(t, resident, barrier.id);
  /** A pass for 2–5 hours from now, made by `who` (on his side), used by a new guest number. */
  async function passUsedByGuest(who: TestUser, side: 'user' | 'admin') {
    const start = new Date(t.clock.now().getTime() + 2 * HOUR);
    const end = new Date(start.getTime() + 3 * HOUR);
    const made = await t.request({
      method: 'POST',
      url: `/api${side === 'admin' ? '/admin' : ''}/barriers/${barrier.id}/guest-passes/`,
      token: who.token,
      payload: {
        start: start.toISOString(),
        end: end.toISOString(),
        ...(side === 'admin' ? { user: resident.id } : {}),
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const token = made.json().token as string;
    const guest = nextPhone();
    const remoteAddress = `10.29.3.${++ip}`;
    const code = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${token}/code/`,
      payload: { phone: guest },
      remoteAddress,
    });
    expect(code.statusCode, code.body).toBe(201);
    const used = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${token}/redeem/`,
      payload: { phone: guest, code: t.lastCode(guest), verification_token: code.json().verification_token },
      remoteAddress,
    });
    expect(used.statusCode, used.body).toBe(200);
    const [phone] = await t.deps.db.select().from(phones).where(eq(phones.phone, guest));
    if (!phone) throw new Error('the guest’s number was not added');
    return { phone, start, end };
  }

  it('records who pays the guest number’s SMS like any temporary number, and counts its window in his share', async () => {
    await setShares(t, owner, barrier.id, { limit: 40, reserve: 10, share: 10 });

    // The owner's pass for the resident is the reserve's: nothing in the resident's share.
    const byOwner = await passUsedByGuest(owner, 'admin');
    expect(byOwner.phone.smsPaidBy).toBeNull();
    expect(await shareLeft()).toBe(10);
    await h.run(barrier.id);

    // The resident's own pass: his number, his share, as a temporary number he adds himself.
    const own = await passUsedByGuest(resident, 'user');
    expect(own.phone.smsPaidBy).toBe(resident.id);
    const spentNow = await t.deps.db
      .select({ id: deviceCommands.id })
      .from(deviceCommands)
      .where(and(eq(deviceCommands.barrierId, barrier.id), eq(deviceCommands.spentBy, resident.id)));
    const coming = forecastPhoneSms(
      'Telemetrica',
      {
        slot: own.phone.slot ?? 0,
        number: own.phone.phone,
        kind: 'temporary',
        start: own.start,
        end: own.end,
      },
      t.clock.now(),
      t.deps.config.DEVICE_TIMEZONE_OFFSET_MINUTES,
    );
    expect(coming).toBe(2);
    expect(await shareLeft()).toBe(10 - spentNow.length - coming);
    await h.run(barrier.id);
  });
});
