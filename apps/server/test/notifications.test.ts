/**
 * Web Push (issue 43, docs/decisions/0035): every event reaches a subscribed device through a push service
 * (a local HTTP server here), encrypted for that device (RFC 8291: decrypted below with the subscription's
 * own keys) and signed with the server's VAPID key; the text names the barrier's address and the screen to
 * open, never a number or a name. Choices per event, quiet hours, roles, dead subscriptions.
 */
import { EVENT_KINDS, type EventKind, type PushPayload } from '@propusk/contracts/notifications';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { barrierStaff, notificationEvents, pushSubscriptions } from '../src/db/schema.ts';
import { startDeviceProcessing } from '../src/jobs/start-device-processing.ts';
import { recordNotification } from '../src/lib/notification-outbox.ts';
import { Secrets } from '../src/lib/secrets.ts';
import { type DeliveryJob, deliver, dispatchNotifications } from '../src/modules/notifications/dispatch.ts';
import { createOwnerWithBarrier, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import {
  type BrowserKeys,
  browserKeys,
  decryptAes128gcm,
  startPushService,
  verifyVapid,
} from './push-helpers.ts';
import { createTestApp, type TestApp } from './test-app.ts';

const EXPECTED: Record<EventKind, { title: string; body: string; path: string }> = {
  unit_silent: {
    title: 'Устройство не отвечает',
    body: 'устройство не отвечает на команды.',
    path: '/device-log-admin?barrier_id=',
  },
  power_lost: {
    title: 'Пропало питание',
    body: 'устройство сообщило, что пропало питание.',
    path: '/device-log-admin?barrier_id=',
  },
  power_restored: {
    title: 'Питание восстановлено',
    body: 'питание устройства восстановлено.',
    path: '/device-log-admin?barrier_id=',
  },
  hold_started: {
    title: 'Шлагбаум удерживается открытым',
    body: 'включено удержание открытым.',
    path: '/emergency-hold',
  },
  hold_ended: { title: 'Удержание снято', body: 'удержание открытым снято.', path: '/emergency-hold' },
  sms_budget_80: {
    title: 'Израсходовано 80 % СМС недели',
    body: 'израсходовано 80 % недельного лимита СМС.',
    path: '/barrier-settings?barrier_id=',
  },
  import_finished: {
    title: 'Импорт завершён',
    body: 'импорт жильцов завершён.',
    path: '/barrier-users?barrier_id=',
  },
  access_request_new: {
    title: 'Новая заявка на доступ',
    body: 'новая заявка на доступ.',
    path: '/admin-requests',
  },
  request_accepted: { title: 'Заявка принята', body: 'доступ открыт.', path: '/mybarrier?barrier_id=' },
  request_rejected: { title: 'Заявка отклонена', body: 'заявка на доступ отклонена.', path: '/requests' },
  invitation: { title: 'Приглашение', body: 'Вас пригласили: ', path: '/requests' },
  access_ending: {
    title: 'Доступ скоро закончится',
    body: 'временный доступ закончится в течение суток.',
    path: '/mybarrier?barrier_id=',
  },
  guest_pass_used: {
    title: 'Гость воспользовался пропуском',
    body: 'гостевой пропуск использован.',
    path: '/mybarrier?barrier_id=',
  },
  sms_share_used: {
    title: 'Ваша доля СМС израсходована',
    body: 'ваша доля СМС на эту неделю израсходована.',
    path: '/mybarrier?barrier_id=',
  },
};
const ADMIN_KINDS = EVENT_KINDS.slice(0, 8);
const RESIDENT_KINDS = EVENT_KINDS.slice(8);

describe('Web Push notifications', { timeout: 60_000 }, () => {
  let t: TestApp;
  let push: Awaited<ReturnType<typeof startPushService>>;
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  let dispatcher: TestUser;
  const devices = new Map<string, BrowserKeys>();
  let queued: { job: DeliveryJob; at: Date }[] = [];

  const subscribe = async (user: TestUser, name: string) => {
    const keys = browserKeys();
    devices.set(`/${name}`, keys);
    const response = await t.request({
      method: 'POST',
      url: '/api/notifications/subscriptions/',
      token: user.token,
      payload: { endpoint: `${push.url}/${name}`, keys: { p256dh: keys.p256dh, auth: keys.authText } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const dispatch = () =>
    dispatchNotifications(
      t.deps,
      async (job, at) => {
        queued.push({ job, at });
      },
      async () => {},
    );
  /** Delivers every queued job and answers what each device received, decrypted with its keys. */
  const deliverAll = async () => {
    const from = push.received.length;
    for (const { job } of queued) await deliver(t.deps, job);
    queued = [];
    const publicKey = (await t.request({ method: 'GET', url: '/api/notifications/vapid-key/' })).json()
      .public_key;
    return push.received.slice(from).map((request) => {
      expect(request.headers['content-encoding']).toBe('aes128gcm');
      const claims = verifyVapid(String(request.headers.authorization), publicKey);
      expect(claims.aud).toBe(push.url);
      const keys = devices.get(request.path);
      if (!keys) throw new Error(`no device ${request.path}`);
      return {
        device: request.path.slice(1),
        payload: JSON.parse(decryptAes128gcm(request.body, keys)) as PushPayload,
      };
    });
  };
  const setPreferences = async (user: TestUser, body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'PATCH',
      url: '/api/notifications/preferences/',
      token: user.token,
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    t = await createTestApp();
    push = await startPushService();
    ({ owner, barrier } = await createOwnerWithBarrier(t));
    resident = await createUser(t, { fullName: 'Иван Жилец' });
    dispatcher = await createAdmin(t, { fullName: 'Диспетчер' });
    await t.deps.db
      .insert(barrierStaff)
      .values({ barrierId: barrier.id, userId: dispatcher.id, role: 'dispatcher' });
    await subscribe(owner, 'owner-phone');
    await subscribe(owner, 'owner-laptop');
    await subscribe(resident, 'resident-phone');
    await subscribe(dispatcher, 'dispatcher-phone');
  });
  afterAll(async () => {
    await push.close();
    await t.close();
  });
  beforeEach(async () => {
    queued = [];
    await dispatch(); // nothing left from another test
    queued = [];
  });

  it('the VAPID key is derived from the server key: the same after a restart, another for another key', async () => {
    const response = await t.request({ method: 'GET', url: '/api/notifications/vapid-key/' });
    expect(response.statusCode).toBe(200);
    const key = response.json().public_key as string;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    // The test app's server key (test-app.ts), in a new process.
    expect(new Secrets('test-secret-key-that-is-long-enough-0123456789').vapidKeys().publicKey).toBe(key);
    expect(new Secrets('another-secret-key-another-secret-key-0').vapidKeys().publicKey).not.toBe(key);
    expect(JSON.stringify(response.json())).not.toContain(t.deps.secrets.vapidKeys().privateKey);
  });

  it('each event reaches its people on every device, decrypted with the device keys: text and screen', async () => {
    for (const kind of ADMIN_KINDS) await recordNotification(t.deps.db, { kind, barrierId: barrier.id });
    for (const kind of RESIDENT_KINDS)
      await recordNotification(t.deps.db, { kind, barrierId: barrier.id, userId: resident.id });
    await dispatch();
    const received = await deliverAll();
    const byDevice = (device: string) =>
      received.filter((item) => item.device === device).map((item) => item.payload);
    expect(byDevice('owner-phone').map((payload) => payload.kind)).toEqual(ADMIN_KINDS);
    expect(byDevice('owner-laptop').map((payload) => payload.kind)).toEqual(ADMIN_KINDS);
    expect(byDevice('resident-phone').map((payload) => payload.kind)).toEqual(RESIDENT_KINDS);
    // A dispatcher hears of the unit and the holds of his barrier, nothing of people, imports or the budget.
    expect(byDevice('dispatcher-phone').map((payload) => payload.kind)).toEqual([
      'unit_silent',
      'power_lost',
      'power_restored',
      'hold_started',
      'hold_ended',
    ]);
    for (const payload of [...byDevice('owner-phone'), ...byDevice('resident-phone')]) {
      const expected = EXPECTED[payload.kind];
      expect(payload.title).toBe(expected.title);
      expect(payload.body).toContain(expected.body);
      expect(payload.body).toContain(barrier.address);
      expect(payload.url.startsWith(expected.path)).toBe(true);
      if (expected.path.endsWith('=')) expect(payload.url).toBe(`${expected.path}${barrier.id}`);
      // Never a number or a person's name.
      expect(payload.body).not.toMatch(/\+7\d{10}/);
      expect(payload.body).not.toContain(barrier.device_phone);
      expect(payload.body).not.toContain('Иван');
    }
    const rows = await t.deps.db.select().from(notificationEvents);
    expect(rows.every((row) => row.dispatchedAt !== null)).toBe(true);
  });

  it('the person who acted is not told of his own act', async () => {
    await recordNotification(t.deps.db, {
      kind: 'hold_started',
      barrierId: barrier.id,
      actorUserId: owner.id,
    });
    await dispatch();
    const received = await deliverAll();
    expect(received.map((item) => item.device)).toEqual(['dispatcher-phone']);
  });

  it('an event turned off is not sent; turned on again, it is', async () => {
    const preferences = await setPreferences(resident, {
      events: [{ kind: 'guest_pass_used', enabled: false }],
    });
    expect(
      preferences.events.find((event: { kind: string }) => event.kind === 'guest_pass_used').enabled,
    ).toBe(false);
    expect(preferences.events.some((event: { kind: string }) => event.kind === 'power_lost')).toBe(false);
    // A resident cannot choose an administrator's event.
    const refused = await t.request({
      method: 'PATCH',
      url: '/api/notifications/preferences/',
      token: resident.token,
      payload: { events: [{ kind: 'power_lost', enabled: false }] },
    });
    expect(refused.statusCode).toBe(400);
    await recordNotification(t.deps.db, {
      kind: 'guest_pass_used',
      barrierId: barrier.id,
      userId: resident.id,
    });
    await dispatch();
    expect(await deliverAll()).toEqual([]);
    await setPreferences(resident, { events: [{ kind: 'guest_pass_used', enabled: true }] });
    await recordNotification(t.deps.db, {
      kind: 'guest_pass_used',
      barrierId: barrier.id,
      userId: resident.id,
    });
    await dispatch();
    expect((await deliverAll()).map((item) => item.payload.kind)).toEqual(['guest_pass_used']);
  });

  it('quiet hours delay what is not urgent to their end; power and silence come at once', async () => {
    // 22:00–07:00 Moscow; now 23:30 Moscow (20:30 UTC).
    await setPreferences(owner, { quiet_hours: { from: 22 * 60, to: 7 * 60 }, time_zone: 'Europe/Moscow' });
    t.clock.set(new Date('2026-06-01T20:30:00Z'));
    await recordNotification(t.deps.db, { kind: 'import_finished', barrierId: barrier.id });
    await recordNotification(t.deps.db, { kind: 'power_lost', barrierId: barrier.id });
    await dispatch();
    const forOwner = queued.filter((item) => item.job.subscriptionId !== undefined && item.job.payload.kind);
    const importJobs = forOwner.filter((item) => item.job.payload.kind === 'import_finished');
    const powerJobs = forOwner.filter((item) => item.job.payload.kind === 'power_lost');
    // The owner's two devices wait until 07:00 Moscow (04:00 UTC) for the import …
    expect(importJobs.map((item) => item.at.toISOString())).toEqual([
      '2026-06-02T04:00:00.000Z',
      '2026-06-02T04:00:00.000Z',
    ]);
    // … and hear of the power at once, as does the dispatcher (no quiet hours).
    expect(powerJobs.map((item) => item.at.toISOString())).toEqual(Array(3).fill('2026-06-01T20:30:00.000Z'));
    expect(powerJobs.every((item) => item.job.urgent)).toBe(true);
    // Outside the quiet hours nothing waits.
    t.clock.set(new Date('2026-06-01T10:00:00Z'));
    queued = [];
    await recordNotification(t.deps.db, { kind: 'import_finished', barrierId: barrier.id });
    await dispatch();
    expect(queued.map((item) => item.at.toISOString())).toEqual(Array(2).fill('2026-06-01T10:00:00.000Z'));
    await setPreferences(owner, { quiet_hours: null });
  });

  it('a subscription the push service calls gone (404/410) is dropped; a failing service is retried', async () => {
    const gone = await subscribe(resident, 'resident-old-phone');
    expect(gone.devices).toBe(2);
    push.answer.set('/resident-old-phone', 410);
    push.answer.set('/resident-phone', 503);
    await recordNotification(t.deps.db, { kind: 'invitation', barrierId: barrier.id, userId: resident.id });
    await dispatch();
    const jobs = queued;
    queued = [];
    const outcomes = await Promise.allSettled(jobs.map(({ job }) => deliver(t.deps, job)));
    const endpoints = await t.deps.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, resident.id));
    expect(endpoints.map((row) => row.endpoint)).toEqual([`${push.url}/resident-phone`]);
    // The 503 throws: the job queue tries it again later.
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    push.answer.delete('/resident-phone');
  });

  it('through the job queue: the worker dispatches the outbox and delivers, never the request', async () => {
    const from = push.received.length;
    const processing = await startDeviceProcessing(t.deps, t.handle, { sweepCron: null, simulate: false });
    try {
      await recordNotification(t.deps.db, {
        kind: 'request_accepted',
        barrierId: barrier.id,
        userId: resident.id,
      });
      await processing.worker.notifications?.dispatchNow();
      await expect.poll(() => push.received.length - from, { timeout: 15_000, interval: 200 }).toBe(1);
      const request = push.received[from]!;
      const payload = JSON.parse(decryptAes128gcm(request.body, devices.get(request.path)!)) as PushPayload;
      expect(payload).toMatchObject({ kind: 'request_accepted', url: `/mybarrier?barrier_id=${barrier.id}` });
    } finally {
      await processing.stop();
    }
  });

  it('a device unsubscribes; a subscription is checked before it is stored', async () => {
    await subscribe(resident, 'resident-tablet');
    const removed = await t.request({
      method: 'POST',
      url: '/api/notifications/subscriptions/delete/',
      token: resident.token,
      payload: { endpoint: `${push.url}/resident-tablet` },
    });
    expect(removed.statusCode).toBe(204);
    const preferences = await t.request({
      method: 'GET',
      url: '/api/notifications/preferences/',
      token: resident.token,
    });
    expect(preferences.json().devices).toBe(1);
    const bad = await t.request({
      method: 'POST',
      url: '/api/notifications/subscriptions/',
      token: resident.token,
      payload: { endpoint: 'javascript:alert(1)', keys: { p256dh: 'a', auth: 'b' } },
    });
    expect(bad.statusCode).toBe(400);
    const long = await t.request({
      method: 'POST',
      url: '/api/notifications/subscriptions/',
      token: resident.token,
      payload: { endpoint: `https://push.example/${'a'.repeat(3000)}`, keys: { p256dh: 'a', auth: 'b' } },
    });
    expect(long.statusCode).toBe(400);
    const anonymous = await t.request({ method: 'GET', url: '/api/notifications/preferences/' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('keeps a person’s ten newest devices: an eleventh drops the oldest, so no event posts to hundreds', async () => {
    const many = await createUser(t);
    for (let index = 1; index <= 12; index += 1) await subscribe(many, `many-${index}`);
    const rows = await t.deps.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, many.id));
    const kept = rows.map((row) => row.endpoint.slice(row.endpoint.lastIndexOf('/') + 1)).sort();
    expect(kept).toHaveLength(10);
    expect(kept).not.toContain('many-1');
    expect(kept).not.toContain('many-2');
    expect(kept).toContain('many-12');
  });
});
