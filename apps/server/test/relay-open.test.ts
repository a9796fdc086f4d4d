/**
 * Issue 16 part 3: a user with access (or the administrator) opens the gate from the app. The simulated RTU5025
 * hears `{pwd}CC` (its relay closes), then `{pwd}DD` a few seconds after the device's answer when the server does
 * not know the relay time is a timed one; each opening is in both logs with its outcome; the rate limit, the
 * weekly SMS limit, the relay dialect and a running hold refuse it; an opening never leaves late.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { actions, barrierLimits, deviceCommands } from '../src/db/schema.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('opening the gate from the app', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    owner = await createAdmin(t, { fullName: 'Владелец Реле' });
    barrier = await createBarrier(t, owner, { device_password: '2580' });
    resident = await createUserWithAccess(t, barrier, 'Жилец Открывающий');
    await h.run(barrier.id);
  });

  const open = (token: string, id = barrier.id, side: 'user' | 'admin' = 'user') =>
    t.request({
      method: 'POST',
      url: side === 'user' ? `/api/barriers/${id}/open/` : `/api/admin/barriers/${id}/open/`,
      token,
    });
  const relay = () => h.simulators.device(barrier.id)?.relay(t.clock.now());

  it('sends CC, the relay closes; DD follows 5 s after the answer and it opens; both logs show it', async () => {
    const before = h.smsTo(barrier.device_phone).length;
    const response = await open(resident.token);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ status: 'sent', via: 'app', user: resident.id });
    expect(h.notified).toContain(barrier.id);

    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).slice(before)).toEqual(['2580CC']);
    expect(relay()?.on).toBe(true);
    const own = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/openings/`,
      token: resident.token,
    });
    expect(own.json().openings[0]).toMatchObject({
      id: response.json().id,
      status: 'confirmed',
      confirmed_at: expect.any(String),
    });

    // The DD waits for its time.
    expect(await h.run(barrier.id)).toMatchObject({ state: 'waiting' });
    t.clock.advance(5_000);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).slice(before)).toEqual(['2580CC', '2580DD']);
    expect(relay()?.on).toBe(false);

    const log = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/openings/?status=confirmed&phone=${resident.phone.slice(2)}`,
      token: owner.token,
    });
    expect(log.statusCode).toBe(200);
    expect(log.json()).toMatchObject({ total_count: 1 });
    expect(log.json().openings[0]).toMatchObject({
      user: resident.id,
      user_name: 'Жилец Открывающий',
      user_phone: resident.phone,
      via: 'app',
    });
    const history = await t.deps.db.select().from(actions).where(eq(actions.barrierId, barrier.id));
    expect(history.filter((row) => (row.newValue as { setting?: string })?.setting === 'gate_open')).toEqual([
      expect.objectContaining({ author: 'user', authorUserId: resident.id }),
    ]);
    const card = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/actions/`,
      token: owner.token,
    });
    expect(card.json().actions[0]).toMatchObject({
      setting_name: 'Открытие шлагбаума',
      author_name: 'Жилец Открывающий',
    });
  });

  it('limits a user to one opening per 30 s per barrier (429 with the wait), the admin side too', async () => {
    t.clock.advance(31_000);
    expect((await open(resident.token)).statusCode).toBe(201);
    const again = await open(resident.token);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ code: 'too_many_openings', retry_after: expect.any(Number) });
    const admin = await open(owner.token, barrier.id, 'admin');
    expect(admin.statusCode, admin.body).toBe(201);
    expect(admin.json()).toMatchObject({ via: 'admin' });
    expect((await open(owner.token, barrier.id, 'admin')).statusCode).toBe(429);
    await h.run(barrier.id);
    t.clock.advance(5_000);
    await h.run(barrier.id);
    expect(relay()?.on).toBe(false);
  });

  it('never sends an opening late: one not handed over within 2 minutes is failed, its DD cancelled', async () => {
    t.clock.advance(31_000);
    const before = h.smsTo(barrier.device_phone).length;
    const response = await open(resident.token);
    expect(response.statusCode).toBe(201);
    t.clock.advance(2 * 60_000 + 1_000);
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(h.smsTo(barrier.device_phone).length).toBe(before);
    const own = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/openings/?status=failed`,
      token: resident.token,
    });
    expect(own.json().openings[0]).toMatchObject({ id: response.json().id, failure: 'expired' });
    const commands = await h.commands(barrier.id);
    expect(commands.filter((row) => row.kind === 'relay_open_off').at(-1)?.status).toBe('cancelled');
  });

  it('refuses a tap that reaches the server more than 10 s late (410), logs it as not sent, sends nothing', async () => {
    t.clock.advance(31_000);
    const before = h.smsTo(barrier.device_phone).length;
    const commandsBefore = (await h.commands(barrier.id)).length;
    const tapped = new Date(t.clock.now().getTime() - 35_000).toISOString();
    const late = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/open/`,
      token: resident.token,
      payload: { tapped_at: tapped },
    });
    expect(late.statusCode, late.body).toBe(410);
    expect(late.json()).toMatchObject({ code: 'opening_too_late' });
    expect(await h.run(barrier.id)).toEqual({ state: 'idle' });
    expect(h.smsTo(barrier.device_phone).length).toBe(before);
    expect((await h.commands(barrier.id)).length).toBe(commandsBefore);
    const log = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/openings/?status=failed`,
      token: owner.token,
    });
    expect(log.json().openings[0]).toMatchObject({ user: resident.id, status: 'failed', failure: 'late' });

    // A fresh tap (2 s ago) goes out; a malformed time is a 400 that stores nothing.
    const malformed = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/open/`,
      token: resident.token,
      payload: { tapped_at: 'yesterday' },
    });
    expect(malformed.statusCode).toBe(400);
    const fresh = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/open/`,
      token: resident.token,
      payload: { tapped_at: new Date(t.clock.now().getTime() - 2_000).toISOString() },
    });
    expect(fresh.statusCode, fresh.body).toBe(201);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).slice(before)).toEqual(['2580CC']);
    t.clock.advance(5_000);
    await h.run(barrier.id);
  });

  it('sends only CC when the relay time is known to be timed (the unit opens the relay by itself)', async () => {
    const timed = await createBarrier(t, owner, { device_password: '2580' });
    await h.run(timed.id);
    const before = h.smsTo(timed.device_phone).length;
    const sent = await t.request({
      method: 'POST',
      url: `/api/admin/barriers/${timed.id}/settings/`,
      token: owner.token,
      payload: { setting: 'relay_time', params: { seconds: '3' } },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await h.run(timed.id);
    t.clock.advance(31_000);
    expect((await open(owner.token, timed.id, 'admin')).statusCode).toBe(201);
    await h.run(timed.id);
    expect(h.smsTo(timed.device_phone).slice(before)).toEqual(['2580GOT003#', '2580CC']);
    expect(h.simulators.device(timed.id)?.relay(t.clock.now()).on).toBe(true);
    t.clock.advance(3_500);
    expect(h.simulators.device(timed.id)?.relay(t.clock.now()).on).toBe(false);
    expect((await h.commands(timed.id)).map((row) => row.kind)).toEqual(['add', 'setting', 'relay_open']);
  });

  it('refuses without access, an unchecked RTU5024 (relay_dialect_unknown), and over the weekly SMS limit', async () => {
    t.clock.advance(31_000);
    const stranger = await createUser(t);
    expect((await open(stranger.token)).statusCode).toBe(403);

    const ambiguous = await createBarrier(t, owner, { device_model: 'RTU5024' });
    const refused = await open(owner.token, ambiguous.id, 'admin');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('relay_dialect_unknown');

    const limited = await createBarrier(t, owner);
    await t.deps.db
      .update(barrierLimits)
      .set({ smsWeeklyLimit: 1 })
      .where(eq(barrierLimits.barrierId, limited.id));
    const over = await open(owner.token, limited.id, 'admin');
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('sms_weekly_limit');
    const queued = await t.deps.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.barrierId, ambiguous.id));
    expect(queued.filter((row) => row.kind.startsWith('relay'))).toEqual([]);
  });
});
