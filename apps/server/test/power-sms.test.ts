/**
 * «СМС при отключении питания» (issue 43, docs/decisions/0035): an administrator who chose it and whom no push
 * would reach gets an SMS to his own number when a unit of his barrier loses power; counted in the barrier's
 * weekly SMS limit; not sent when the limit is spent or the day's notices are used (the device log says so);
 * one per outage; never held back by quiet hours.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barrierLimits, barrierStaff, deviceMessages, powerSmsNotices } from '../src/db/schema.ts';
import { countCommandsThisWeek } from '../src/engine/budget/index.ts';
import { handleDeviceReply } from '../src/engine/reply/index.ts';
import { type DeliveryJob, dispatchNotifications } from '../src/modules/notifications/dispatch.ts';
import { sendPowerSms } from '../src/modules/notifications/power-sms.ts';
import { createBarrier, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { browserKeys } from './push-helpers.ts';
import { createTestApp, type TestApp } from './test-app.ts';

describe('SMS on power loss to an administrator without push', { timeout: 90_000 }, () => {
  let t: TestApp;
  let owner: TestUser;
  let dispatcher: TestUser;
  let resident: TestUser;

  const preferences = (user: TestUser, payload: object) =>
    t.request({ method: 'PATCH', url: '/api/notifications/preferences/', token: user.token, payload });
  const subscribe = async (user: TestUser, name: string) => {
    const keys = browserKeys();
    const response = await t.request({
      method: 'POST',
      url: '/api/notifications/subscriptions/',
      token: user.token,
      payload: {
        endpoint: `https://push.example.org/${name}`,
        keys: { p256dh: keys.p256dh, auth: keys.authText },
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  const alarm = async (barrier: TestBarrier, text: 'External Power Goes OFF' | 'External Power Goes ON') => {
    await handleDeviceReply(t.deps, { from: barrier.device_phone, text });
  };
  /** Dispatches and sends what is pending; answers the SMS sent (to: text) and the pushes queued (user ids). */
  const dispatch = async () => {
    const pushes: DeliveryJob[] = [];
    const notices: number[] = [];
    await dispatchNotifications(
      t.deps,
      async (job) => {
        pushes.push(job);
      },
      async (id) => {
        notices.push(id);
      },
    );
    const from = t.sentSms().length;
    for (const id of notices) await sendPowerSms(t.deps, id);
    return {
      sms: t
        .sentSms()
        .slice(from)
        .map((line) => `${line.to}: ${line.text}`),
      pushes: pushes.filter((job) => job.payload.kind === 'power_lost').length,
    };
  };
  /** The device log's notices of the barrier, oldest first. */
  const noticesInLog = async (barrier: TestBarrier) =>
    (
      await t.deps.db
        .select({ outcome: deviceMessages.outcome })
        .from(deviceMessages)
        .where(and(eq(deviceMessages.barrierId, barrier.id), eq(deviceMessages.direction, 'notice')))
        .orderBy(asc(deviceMessages.id))
    ).map((row) => row.outcome);
  const setWeeklyLimit = async (barrierId: number, limit: number) => {
    await t.deps.db
      .insert(barrierLimits)
      .values({ barrierId, smsWeeklyLimit: limit })
      .onConflictDoUpdate({ target: barrierLimits.barrierId, set: { smsWeeklyLimit: limit } });
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAdmin(t, { fullName: 'Владелец' });
    dispatcher = await createAdmin(t, { fullName: 'Диспетчер' });
    resident = await createUser(t, { fullName: 'Жилец' });
    await dispatch();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is an administrator’s choice, off by default; a resident has none', async () => {
    const get = (user: TestUser) =>
      t.request({ method: 'GET', url: '/api/notifications/preferences/', token: user.token });
    expect((await get(owner)).json().power_sms).toBe(false);
    expect((await get(resident)).json().power_sms).toBeNull();
    const chosen = await preferences(owner, { power_sms: true });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().power_sms).toBe(true);
    expect((await get(owner)).json().power_sms).toBe(true);
    expect((await preferences(resident, { power_sms: true })).statusCode).toBe(400);
  });

  it('goes to the administrator whom no push reaches, not to one with push; counted in the week’s SMS', async () => {
    const barrier = await createBarrier(t, owner);
    await t.deps.db
      .insert(barrierStaff)
      .values({ barrierId: barrier.id, userId: dispatcher.id, role: 'dispatcher' });
    await preferences(owner, { power_sms: true });
    await preferences(dispatcher, { power_sms: true });
    await subscribe(dispatcher, 'dispatcher');
    const before = await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now());

    await alarm(barrier, 'External Power Goes OFF');
    const told = await dispatch();
    expect(told.sms).toEqual([`${owner.phone}: Пропало питание шлагбаума: ${barrier.address}`]);
    expect(told.pushes).toBe(1); // the dispatcher's device
    expect(await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now())).toBe(before + 1);
    expect(await noticesInLog(barrier)).toEqual(['notice_sent']);
    const log = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/device-log/`,
      token: owner.token,
    });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().messages[0]).toMatchObject({
      direction: 'notice',
      outcome: 'notice_sent',
      text: `Пропало питание шлагбаума: ${barrier.address}`,
    });

    // Its restoration is pushed, never texted.
    await alarm(barrier, 'External Power Goes ON');
    expect((await dispatch()).sms).toEqual([]);
  });

  it('goes to an administrator with push who turned the push of power loss off', async () => {
    const barrier = await createBarrier(t, dispatcher);
    await preferences(dispatcher, { power_sms: true, events: [{ kind: 'power_lost', enabled: false }] });
    await alarm(barrier, 'External Power Goes OFF');
    expect((await dispatch()).sms).toEqual([
      `${dispatcher.phone}: Пропало питание шлагбаума: ${barrier.address}`,
    ]);
    await preferences(dispatcher, { power_sms: false, events: [{ kind: 'power_lost', enabled: true }] });
    await alarm(barrier, 'External Power Goes ON');
    await alarm(barrier, 'External Power Goes OFF');
    expect((await dispatch()).sms).toEqual([]);
  });

  it('is sent at once inside quiet hours: power is urgent', async () => {
    const barrier = await createBarrier(t, owner);
    const minutes = (t.clock.now().getUTCHours() * 60 + t.clock.now().getUTCMinutes()) % 1440;
    const quiet = await preferences(owner, {
      time_zone: 'UTC',
      quiet_hours: { from: (minutes + 1380) % 1440, to: (minutes + 60) % 1440 },
    });
    expect(quiet.statusCode, quiet.body).toBe(200);
    await alarm(barrier, 'External Power Goes OFF');
    expect((await dispatch()).sms).toEqual([`${owner.phone}: Пропало питание шлагбаума: ${barrier.address}`]);
    await preferences(owner, { quiet_hours: null });
  });

  it('is not sent when the weekly SMS limit is spent; the device log says so', async () => {
    const barrier = await createBarrier(t, owner);
    await setWeeklyLimit(barrier.id, await countCommandsThisWeek(t.deps.db, barrier.id, t.clock.now()));
    await alarm(barrier, 'External Power Goes OFF');
    expect((await dispatch()).sms).toEqual([]);
    expect(await noticesInLog(barrier)).toEqual(['notice_over_limit']);
    const [notice] = await t.deps.db
      .select()
      .from(powerSmsNotices)
      .where(eq(powerSmsNotices.barrierId, barrier.id));
    expect(notice).toMatchObject({ status: 'skipped', reason: 'over_weekly_limit' });
  });

  it('flapping power: one SMS per outage, at most three a day, then the device log says the day’s are used', async () => {
    const barrier = await createBarrier(t, owner);
    const sent: string[] = [];
    for (let outage = 0; outage < 4; outage++) {
      // The unit repeats its alarm within one outage: still one SMS.
      await alarm(barrier, 'External Power Goes OFF');
      await alarm(barrier, 'External Power Goes OFF');
      sent.push(...(await dispatch()).sms);
      await alarm(barrier, 'External Power Goes ON');
      await dispatch();
      t.clock.advance(10 * 60_000);
    }
    expect(sent).toHaveLength(3);
    expect(await noticesInLog(barrier)).toEqual([
      'notice_sent',
      'notice_sent',
      'notice_sent',
      'notice_daily_limit',
    ]);
    // A day after the first, an outage is texted again.
    t.clock.advance(24 * 60 * 60_000);
    await alarm(barrier, 'External Power Goes OFF');
    expect((await dispatch()).sms).toHaveLength(1);
    const rows = await t.deps.db
      .select()
      .from(powerSmsNotices)
      .where(and(eq(powerSmsNotices.barrierId, barrier.id), eq(powerSmsNotices.status, 'sent')));
    expect(rows).toHaveLength(4);
  });
});
