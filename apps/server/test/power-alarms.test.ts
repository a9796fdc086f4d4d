/**
 * Power alarms reach the server (issue 30 item 5, docs/decisions/0025 "Power alarms"): with the gateway's
 * number configured (DEVICE_GATEWAY_PHONE), a new RTU barrier holds it in slot 1 — where the unit sends its
 * power-failure SMS (RTU5025 manual p. 10, note 3) — and its residents above slots 2–6; the simulated unit
 * loses power and tells slot 1; the health, the barrier list, the device log and /metrics show it, and its
 * restoration. An existing barrier is offered the move in «Проверить устройство», with its exact SMS count.
 */
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { barriers, deviceMessages, phones } from '../src/db/schema.ts';
import { lockBarrier, syncBarrierDevice } from '../src/engine/plan/index.ts';
import { handleDeviceReply } from '../src/engine/reply/index.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { addPhone, createBarrier, createUserWithAccess } from './domain-factories.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const GATEWAY = '+79990009999';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

describe('power alarms reach the server', { timeout: 60_000 }, () => {
  let h: DeviceHarness;
  let owner: TestUser;
  const t = useTestApp({ env: { DEVICE_GATEWAY_PHONE: GATEWAY, METRICS_TOKEN } });
  beforeAll(async () => {
    h = createDeviceHarness(t);
    owner = await createAdmin(t);
  });

  /** Time passes beyond the access token's 15 minutes: the owner logs in again. */
  const advance = async (ms: number) => {
    t.clock.advance(ms);
    owner = { ...owner, token: (await issueSession(t.deps, t.deps.db, owner.id)).access_token };
  };
  const get = async (url: string) => {
    const response = await t.request({ method: 'GET', url, token: owner.token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const power = async (barrierId: number, event: 'lost' | 'restored' | 'alarm') => {
    const response = await t.request({
      method: 'POST',
      url: `/api/demo/devices/${barrierId}/power/`,
      token: owner.token,
      payload: { event },
    });
    expect(response.statusCode, response.body).toBe(200);
    await h.deliverReplies();
    return response.json();
  };
  const inLog = (barrierId: number) =>
    t.deps.db
      .select({ text: deviceMessages.text, outcome: deviceMessages.outcome })
      .from(deviceMessages)
      .where(and(eq(deviceMessages.barrierId, barrierId), eq(deviceMessages.direction, 'in')))
      .orderBy(asc(deviceMessages.id));
  const alarmsCounted = async (kind: string) => {
    const response = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const line = response.body
      .split('\n')
      .find((row) => row.startsWith(`propusk_device_alarms_total{kind="${kind}"}`));
    return Number(line?.split(' ').at(-1) ?? 0);
  };

  it('a new barrier holds the gateway in slot 1 and residents from slot 7; its power failure and return show', async () => {
    const barrier = await createBarrier(t, owner);
    const resident = await createUserWithAccess(t, barrier, 'Жилец');
    expect((await addPhone(t, resident, barrier.id)).statusCode).toBe(201);
    await h.run(barrier.id);
    const held = await t.deps.db
      .select({ slot: phones.slot })
      .from(phones)
      .where(and(eq(phones.barrierId, barrier.id), eq(phones.isActive, true)))
      .orderBy(asc(phones.slot));
    expect(held.map((row) => row.slot)).toEqual([7, 8, 9]);
    const unit = h.simulators.whitelist(barrier.id) ?? [];
    expect(unit.map((entry) => entry.slot)).toEqual([1, 7, 8, 9]);
    expect(unit[0]).toEqual({ slot: 1, number: GATEWAY });
    expect((await get(`/api/admin/barriers/${barrier.id}/`)).device_gateway_number).toBe(GATEWAY);

    const before = await alarmsCounted('power_failure');
    const lostAt = t.clock.now();
    expect(await power(barrier.id, 'lost')).toEqual({ sent: 1, to_gateway: 1 });
    const health = await get(`/api/admin/barriers/${barrier.id}/device-health/`);
    expect(health).toMatchObject({ state: 'ok', power: 'lost' });
    expect(new Date(health.power_since).getTime()).toBe(lostAt.getTime());
    const listed = (await get('/api/admin/barriers/my/?page_size=100')).barriers.find(
      (row: { id: number }) => row.id === barrier.id,
    );
    expect(listed).toMatchObject({ device_power: 'lost' });
    expect((await inLog(barrier.id)).at(-1)).toEqual({ text: 'Power failure', outcome: 'power_failure' });
    expect(await alarmsCounted('power_failure')).toBe(before + 1);
    // The unit's SMS answered no command: nothing was confirmed or failed by it.
    expect(
      (await get(`/api/admin/barriers/${barrier.id}/device-log/?outcome=unrecognised`)).total_count,
    ).toBe(0);

    await advance(60 * 60 * 1000);
    expect(await power(barrier.id, 'restored')).toEqual({ sent: 1, to_gateway: 1 });
    expect(await get(`/api/admin/barriers/${barrier.id}/device-health/`)).toMatchObject({
      power: 'restored',
    });
    expect(
      (await get('/api/admin/barriers/my/?page_size=100')).barriers.find(
        (row: { id: number }) => row.id === barrier.id,
      ),
    ).toMatchObject({ device_power: 'restored' });
    // A day later the restoration is old news.
    await advance(25 * 60 * 60 * 1000);
    expect(await get(`/api/admin/barriers/${barrier.id}/device-health/`)).toMatchObject({ power: null });

    // Another alarm goes to slots 1–6: only the gateway's reaches the server (residents are above 6).
    expect(await power(barrier.id, 'alarm')).toEqual({ sent: 1, to_gateway: 1 });
    expect(await get(`/api/admin/barriers/${barrier.id}/device-health/`)).toMatchObject({ alarms_today: 1 });
    expect(h.simulators.whitelist(barrier.id)).toEqual(unit);
  });

  it('an existing barrier is offered the move: the exact SMS count, then the gateway in slot 1 and residents out of 1–6', async () => {
    // A barrier from before: residents from slot 1, nothing of the gateway.
    const old = await h.createBarrier({ ownerId: owner.id });
    const first = await h.addPhone(old.id, { userId: owner.id });
    const second = await h.addPhone(old.id, { userId: owner.id });
    await h.run(old.id);
    expect(first.slot).toBe(1);
    expect(second.slot).toBe(2);
    // Its unit tells slot 1 — a resident — of its power failure: the server hears nothing.
    expect(await power(old.id, 'lost')).toEqual({ sent: 1, to_gateway: 0 });
    expect(await get(`/api/admin/barriers/${old.id}/device-health/`)).toMatchObject({ power: null });

    const plan = await get(`/api/admin/barriers/${old.id}/device-check/alarm-layout/`);
    expect(plan).toMatchObject({
      available: true,
      reason: null,
      gateway_number: GATEWAY,
      moves: [
        { from: 1, to: 7 },
        { from: 2, to: 8 },
      ],
      staying: [],
      first_resident_slot: 7,
    });
    // Slot 1 overwritten with the gateway, two residents written at 7 and 8, slot 2 emptied.
    expect(plan.sms).toBe(4);
    // The preview wrote nothing.
    expect((await h.phone(first.id)).slot).toBe(1);

    const wrongCount = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${old.id}/device-check/alarm-layout/`,
      token: owner.token,
      payload: { expected_sms: 3 },
    });
    expect(wrongCount.statusCode).toBe(409);
    expect(wrongCount.json().code).toBe('alarm_layout_cost_changed');
    expect((await h.phone(first.id)).slot).toBe(1);

    const applied = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${old.id}/device-check/alarm-layout/`,
      token: owner.token,
      payload: { expected_sms: plan.sms },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toEqual({ queued: 4 });
    await h.run(old.id);
    expect(h.simulators.whitelist(old.id)).toEqual([
      { slot: 1, number: GATEWAY },
      { slot: 7, number: first.number },
      { slot: 8, number: second.number },
    ]);
    expect((await get(`/api/admin/barriers/${old.id}/device-check/alarm-layout/`)).reason).toBe(
      'alarm_layout_done',
    );

    expect(await power(old.id, 'lost')).toEqual({ sent: 1, to_gateway: 1 });
    expect(await get(`/api/admin/barriers/${old.id}/device-health/`)).toMatchObject({ power: 'lost' });
  });

  it('when the gateway number changed, an existing barrier is offered to rewrite slot 1: exact SMS, residents stay (issue 32 item 6)', async () => {
    const OLD_GATEWAY = '+79990001111';
    const barrier = await createBarrier(t, owner);
    const resident = await createUserWithAccess(t, barrier, 'Жилец');
    expect((await addPhone(t, resident, barrier.id)).statusCode).toBe(201);
    // The barrier was moved while the deployment's gateway was another number: its unit holds that one.
    await t.deps.db.transaction(async (tx) => {
      await lockBarrier(tx, barrier.id);
      await tx.update(barriers).set({ deviceGatewayNumber: OLD_GATEWAY }).where(eq(barriers.id, barrier.id));
      await syncBarrierDevice(tx, t.deps, barrier.id);
    });
    await h.run(barrier.id);
    const before = h.simulators.whitelist(barrier.id) ?? [];
    expect(before.find((entry) => entry.slot === 1)?.number).toBe(OLD_GATEWAY);
    // The barrier page shows the number the unit has; its power failure goes to the old number.
    expect((await get(`/api/admin/barriers/${barrier.id}/`)).device_gateway_number).toBe(OLD_GATEWAY);
    expect(await power(barrier.id, 'lost')).toEqual({ sent: 1, to_gateway: 0 });

    const plan = await get(`/api/admin/barriers/${barrier.id}/device-check/alarm-layout/`);
    expect(plan).toMatchObject({
      available: true,
      reason: null,
      rewrite: true,
      gateway_number: GATEWAY,
      current_gateway_number: OLD_GATEWAY,
      moves: [],
      staying: [],
    });
    // One SMS: slot 1 written with the new number, nobody moved.
    expect(plan.sms).toBe(1);
    expect((await get(`/api/admin/barriers/${barrier.id}/`)).device_gateway_number).toBe(OLD_GATEWAY);

    const sentBefore = h.smsTo(barrier.device_phone).length;
    const applied = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrier.id}/device-check/alarm-layout/`,
      token: owner.token,
      payload: { expected_sms: plan.sms },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toEqual({ queued: 1 });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).slice(sentBefore)).toHaveLength(1);
    const after = h.simulators.whitelist(barrier.id) ?? [];
    expect(after.find((entry) => entry.slot === 1)?.number).toBe(GATEWAY);
    // The residents kept their slots.
    expect(after.filter((entry) => entry.slot !== 1)).toEqual(before.filter((entry) => entry.slot !== 1));
    expect((await get(`/api/admin/barriers/${barrier.id}/`)).device_gateway_number).toBe(GATEWAY);
    expect(await get(`/api/admin/barriers/${barrier.id}/device-check/alarm-layout/`)).toMatchObject({
      reason: 'alarm_layout_done',
      rewrite: false,
      current_gateway_number: GATEWAY,
    });
    expect(await power(barrier.id, 'restored')).toEqual({ sent: 1, to_gateway: 1 });
  });

  it('when the deployment no longer has a gateway number, slot 1 is offered to be cleared: exact SMS, residents stay', async () => {
    const barrier = await createBarrier(t, owner);
    const resident = await createUserWithAccess(t, barrier, 'Жилец');
    expect((await addPhone(t, resident, barrier.id)).statusCode).toBe(201);
    await h.run(barrier.id);
    const before = h.simulators.whitelist(barrier.id) ?? [];
    expect(before.find((entry) => entry.slot === 1)?.number).toBe(GATEWAY);
    const config = t.deps.config as { DEVICE_GATEWAY_PHONE?: string };
    config.DEVICE_GATEWAY_PHONE = undefined;
    try {
      // Until the administrator clears it, the unit keeps the old gateway's number (the page shows it).
      const plan = await get(`/api/admin/barriers/${barrier.id}/device-check/alarm-layout/`);
      expect(plan).toMatchObject({
        available: true,
        reason: null,
        rewrite: true,
        gateway_number: null,
        current_gateway_number: GATEWAY,
        moves: [],
        staying: [],
        sms: 1,
      });
      const applied = await t.request({
        method: 'POST',
        url: `/api/admin/barriers/${barrier.id}/device-check/alarm-layout/`,
        token: owner.token,
        payload: { expected_sms: plan.sms },
      });
      expect(applied.statusCode, applied.body).toBe(200);
      expect(applied.json()).toEqual({ queued: 1 });
      await h.run(barrier.id);
      const after = h.simulators.whitelist(barrier.id) ?? [];
      // The old gateway's number can no longer open the gate; the residents kept their slots.
      expect(after.map((entry) => entry.number)).not.toContain(GATEWAY);
      expect(after).toEqual(before.filter((entry) => entry.slot !== 1));
      expect((await get(`/api/admin/barriers/${barrier.id}/`)).device_gateway_number).toBeNull();
      expect(await get(`/api/admin/barriers/${barrier.id}/device-check/alarm-layout/`)).toMatchObject({
        available: false,
        reason: 'alarm_layout_no_gateway',
      });
    } finally {
      config.DEVICE_GATEWAY_PHONE = GATEWAY;
    }
  });

  it('a deleted barrier leaves its unit empty: the gateway goes with the residents', async () => {
    const barrier = await createBarrier(t, owner);
    await h.run(barrier.id);
    expect((h.simulators.whitelist(barrier.id) ?? []).map((entry) => entry.slot)).toEqual([1, 7]);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/admin/barriers/${barrier.id}/`,
      token: owner.token,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await h.run(barrier.id);
    expect(h.simulators.whitelist(barrier.id)).toEqual([]);
  });

  it('a unit its deleted barrier still clears and a new barrier took: its power failure is the new barrier’s alone', async () => {
    const old = await createBarrier(t, owner, { device_password: '4321' });
    await h.run(old.id);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/admin/barriers/${old.id}/`,
      token: owner.token,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    // The clearing is queued, not yet sent; the owner puts a new barrier on the same unit meanwhile.
    const clearing = (await h.commands(old.id)).filter((command) => command.status === 'queued');
    expect(clearing.length).toBeGreaterThan(0);
    const live = await createBarrier(t, owner, { device_phone: old.device_phone, device_password: '4321' });
    const oldLog = await inLog(old.id);

    // The deleted barrier's commands are weighed first (its id is lower); the unit's SMS is no answer to them.
    const heard = await handleDeviceReply(t.deps, {
      from: old.device_phone,
      text: 'External Power Goes OFF',
    });
    expect(heard).toMatchObject({ matched: null, alarm: { barrierId: live.id, kind: 'power_failure' } });
    expect((await inLog(live.id)).at(-1)).toEqual({
      text: 'External Power Goes OFF',
      outcome: 'power_failure',
    });
    expect(await inLog(old.id)).toEqual(oldLog);
    expect(
      (await h.commands(old.id))
        .filter((command) => command.status === 'queued')
        .map((command) => command.id),
    ).toEqual(clearing.map((command) => command.id));
    expect(await get(`/api/admin/barriers/${live.id}/device-health/`)).toMatchObject({ power: 'lost' });
  });

  it('a model that sends no alarms keeps its layout and is not offered the move', async () => {
    const barrier = await createBarrier(t, owner, {
      device_model: 'Telemetrica',
      device_password: undefined,
      device_phones_amount: 4,
    });
    expect((await get(`/api/admin/barriers/${barrier.id}/`)).device_gateway_number).toBeNull();
    expect(await get(`/api/admin/barriers/${barrier.id}/device-check/alarm-layout/`)).toMatchObject({
      available: false,
      reason: 'alarm_layout_unsupported',
    });
  });
});
