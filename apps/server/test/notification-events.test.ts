/**
 * The events of issue 43 from the changes that cause them: each is written by the change's own transaction
 * (the outbox), told to the right people through a push service (a local HTTP server, payloads decrypted
 * with the device's keys), and once: a request and its answer, an invitation, a hold started by another
 * administrator, a power alarm, a unit that stopped answering, temporary access ending within a day.
 */
import type { PushPayload } from '@propusk/contracts/notifications';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barrierStaff, notificationEvents } from '../src/db/schema.ts';
import { handleDeviceReply } from '../src/engine/reply/index.ts';
import { deliver, dispatchNotifications } from '../src/modules/notifications/dispatch.ts';
import { runNotificationChecks } from '../src/modules/notifications/periodic.ts';
import { createDeviceHarness, type DeviceHarness, waitOutReply } from './device-harness.ts';
import { createBarrier, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { type BrowserKeys, browserKeys, decryptAes128gcm, startPushService } from './push-helpers.ts';
import { createTestApp, type TestApp } from './test-app.ts';

describe('notification events from the changes that cause them', { timeout: 90_000 }, () => {
  let t: TestApp;
  let h: DeviceHarness;
  let push: Awaited<ReturnType<typeof startPushService>>;
  let owner: TestUser;
  let dispatcher: TestUser;
  let resident: TestUser;
  let barrier: TestBarrier;
  const devices = new Map<string, BrowserKeys>();

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
  };
  /** Dispatches and delivers what is pending; answers `device: kind` of each push received. */
  const told = async (): Promise<string[]> => {
    const jobs: Parameters<typeof deliver>[1][] = [];
    await dispatchNotifications(
      t.deps,
      async (job) => {
        jobs.push(job);
      },
      async () => {},
    );
    const from = push.received.length;
    for (const job of jobs) await deliver(t.deps, job);
    return push.received.slice(from).map((request) => {
      const payload = JSON.parse(decryptAes128gcm(request.body, devices.get(request.path)!)) as PushPayload;
      return `${request.path.slice(1)}: ${payload.kind}`;
    });
  };
  const call = (user: TestUser, method: 'POST' | 'PATCH', url: string, payload: object) =>
    t.request({ method, url, token: user.token, payload });

  beforeAll(async () => {
    t = await createTestApp();
    h = createDeviceHarness(t);
    push = await startPushService();
    owner = await createAdmin(t, { fullName: 'Владелец' });
    dispatcher = await createAdmin(t, { fullName: 'Диспетчер' });
    resident = await createUser(t, { fullName: 'Жилец' });
    barrier = await createBarrier(t, owner, { device_password: '2580' });
    await h.run(barrier.id);
    await t.deps.db
      .insert(barrierStaff)
      .values({ barrierId: barrier.id, userId: dispatcher.id, role: 'dispatcher' });
    await subscribe(owner, 'owner');
    await subscribe(dispatcher, 'dispatcher');
    await subscribe(resident, 'resident');
    await told();
  });
  afterAll(async () => {
    await push.close();
    await t.close();
  });

  it('a request reaches the staff who manage requests; its answer reaches the resident', async () => {
    const asked = await call(resident, 'POST', '/api/access_requests/', {
      user: resident.id,
      barrier: barrier.id,
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(await told()).toEqual(['owner: access_request_new']);
    const rejected = await call(owner, 'PATCH', `/api/admin/access_requests/${asked.json().id}/`, {
      status: 'rejected',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await told()).toEqual(['resident: request_rejected']);
    const again = await call(resident, 'POST', '/api/access_requests/', {
      user: resident.id,
      barrier: barrier.id,
    });
    await told();
    const accepted = await call(owner, 'PATCH', `/api/admin/access_requests/${again.json().id}/`, {
      status: 'accepted',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await told()).toEqual(['resident: request_accepted']);
  });

  it('an invitation reaches the person invited', async () => {
    const other = await createBarrier(t, owner, { is_public: false });
    const invited = await call(owner, 'POST', '/api/admin/access_requests/', {
      user: resident.id,
      barrier: other.id,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(await told()).toEqual(['resident: invitation']);
  });

  it('a hold started and ended by the owner reaches the dispatcher, not the owner himself', async () => {
    const started = await call(owner, 'POST', '/api/admin/emergency-holds/', {
      barrier_ids: [barrier.id],
      reason: 'Пожарная тревога',
    });
    expect(started.statusCode, started.body).toBe(201);
    expect(await told()).toEqual(['dispatcher: hold_started']);
    const ended = await call(owner, 'POST', `/api/admin/emergency-holds/${started.json().id}/end/`, {});
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await told()).toEqual(['dispatcher: hold_ended']);
    await h.run(barrier.id);
  });

  it('the unit’s power alarm reaches every administrator of the barrier at once', async () => {
    await handleDeviceReply(t.deps, { from: barrier.device_phone, text: 'External Power Goes OFF' });
    expect((await told()).sort()).toEqual(['dispatcher: power_lost', 'owner: power_lost']);
    await handleDeviceReply(t.deps, { from: barrier.device_phone, text: 'External Power Goes ON' });
    expect((await told()).sort()).toEqual(['dispatcher: power_restored', 'owner: power_restored']);
  });

  it('a unit that stops answering is told once, not at each unanswered command', async () => {
    const silent = await h.createBarrier({ ownerId: owner.id });
    await h.run(silent.id);
    for (let index = 0; index < 2; index++) await h.addPhone(silent.id, { userId: owner.id });
    for (let round = 0; round < 8; round++) await waitOutReply(t, h, silent.id, { answer: false });
    const failed = (await h.commands(silent.id)).filter((command) => command.status === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(await told()).toEqual(['owner: unit_silent']);
  });

  it('temporary access ending within a day is told to its resident once', async () => {
    const now = t.clock.now();
    await h.addPhone(barrier.id, {
      userId: resident.id,
      type: 'temporary',
      start: new Date(now.getTime() - 3600_000),
      end: new Date(now.getTime() + 5 * 3600_000),
    });
    await h.addPhone(barrier.id, {
      userId: resident.id,
      type: 'temporary',
      start: new Date(now.getTime() - 3600_000),
      end: new Date(now.getTime() + 3 * 24 * 3600_000),
    });
    expect(await runNotificationChecks(t.deps)).toEqual({ recorded: 1 });
    expect(await told()).toEqual(['resident: access_ending']);
    expect(await runNotificationChecks(t.deps)).toEqual({ recorded: 0 });
    const rows = await t.deps.db
      .select()
      .from(notificationEvents)
      .where(eq(notificationEvents.kind, 'access_ending'));
    expect(rows).toHaveLength(1);
  });
});
