/**
 * "Проверить устройство" and the device profile (issue 10, parts 2 and 4), over HTTP with the simulated
 * units: the check reads the whitelist back in the fewest SMS, shows the differences and the repair's cost,
 * and the repair brings a unit that drifted (a number written by hand, a wiped slot) back to the database;
 * a profile changes the number form and the accepted reply forms without a code change.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { actions, barriers } from '../src/db/schema.ts';
import { startDueAudits } from '../src/modules/device-checks/service.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('device check and repair', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  let stranger: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
    stranger = await createAdmin(t);
  });

  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, user = admin) =>
    t.request({
      method,
      url,
      token: user.token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const desiredNumbers = async (barrierId: number) =>
    (
      await t.deps.db.query.phones.findMany({
        where: (p, { and, eq }) => and(eq(p.barrierId, barrierId), eq(p.isActive, true)),
      })
    )
      .map((phone) => ({ slot: phone.slot, number: phone.phone }))
      .sort((a, b) => (a.slot ?? 0) - (b.slot ?? 0));

  it('finds a number written by hand and a wiped slot, shows the cost, and repairs the unit', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const first = await h.addPhone(barrier.id, { userId: admin.id });
    const second = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    const device = h.simulators.device(barrier.id);
    if (!device) throw new Error('the simulator did not hear from the server');
    device.drift({ kind: 'manual_add', slot: 3, number: '+79990000003' });
    device.drift({ kind: 'wipe_slot', slot: 1 });

    const started = await call('POST', `/api/admin/barriers/${barrier.id}/device-check/`, {});
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().check).toMatchObject({ status: 'reading', queries_total: 1, queries_answered: 0 });
    const again = await call('POST', `/api/admin/barriers/${barrier.id}/device-check/`, {});
    expect(again.statusCode).toBe(409);
    const early = await call('POST', `/api/admin/barriers/${barrier.id}/device-check/repair/`);
    expect(early.statusCode).toBe(409);

    const sentBefore = h.smsTo(barrier.devicePhone).length;
    await h.run(barrier.id);
    // One range query of the manual's form answers the ten slots.
    expect(h.smsTo(barrier.devicePhone).slice(sentBefore)).toEqual(['1234AL001#010#']);
    const ready = (await call('GET', `/api/admin/barriers/${barrier.id}/device-check/`)).json().check;
    expect(ready).toMatchObject({
      status: 'ready',
      queries_answered: 1,
      slots_read: 10,
      // Issue 41: it says which slots it read (1–10) of how many, so «совпадают» is not claimed beyond them.
      slots_read_to: 10,
      slot_count: 999,
      repair_sms: 2,
      repair_numbers_sms: 2,
      repair_clock_sms: 0,
    });
    expect(ready.differences).toEqual([
      { slot: 1, device: null, expected: first.number, action: 'write' },
      { slot: 3, device: '+79990000003', expected: null, action: 'remove' },
    ]);
    expect(device.wouldOpenFor('+79990000003', t.clock.now())).toBe(true);

    const repaired = await call('POST', `/api/admin/barriers/${barrier.id}/device-check/repair/`);
    expect(repaired.statusCode, repaired.body).toBe(200);
    expect(repaired.json()).toMatchObject({ queued: 2, check: { status: 'repaired' } });
    const repairStart = h.smsTo(barrier.devicePhone).length;
    await h.run(barrier.id);
    // Removal first, then the missing number.
    expect(h.smsTo(barrier.devicePhone).slice(repairStart)).toEqual([
      '1234A003##',
      `1234A001#0007${first.number.slice(2)}#`,
    ]);
    expect(device.whitelist(t.clock.now())).toEqual(await desiredNumbers(barrier.id));
    expect(device.wouldOpenFor('+79990000003', t.clock.now())).toBe(false);
    expect(device.wouldOpenFor(second.number, t.clock.now())).toBe(true);
    expect((await h.phone(first.id)).status).toBe('ok');

    const history = await t.deps.db.select().from(actions).where(eq(actions.barrierId, barrier.id));
    expect(history.map((row) => (row.newValue as { setting?: string } | null)?.setting)).toEqual(
      expect.arrayContaining(['device_check', 'device_repair']),
    );
  });

  it('counts the repair’s SMS per kind: numbers apart from the clock, each as the unit then receives (issue 32 item 5)', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const now = t.clock.now();
    // A number with a time window: the unit needs its clock, which a check trusts no more.
    await h.addPhone(barrier.id, {
      userId: admin.id,
      type: 'temporary',
      start: new Date(now.getTime() + 2 * 60 * 60 * 1000),
      end: new Date(now.getTime() + 5 * 60 * 60 * 1000),
    });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    const device = h.simulators.device(barrier.id);
    if (!device) throw new Error('the simulator did not hear from the server');
    device.drift({ kind: 'manual_add', slot: 4, number: '+79990000044' });
    device.drift({ kind: 'manual_add', slot: 5, number: '+79990000055' });

    expect((await call('POST', `/api/admin/barriers/${barrier.id}/device-check/`, {})).statusCode).toBe(201);
    await h.run(barrier.id);
    const ready = (await call('GET', `/api/admin/barriers/${barrier.id}/device-check/`)).json().check;
    expect(ready.differences).toHaveLength(2);
    expect(ready).toMatchObject({
      status: 'ready',
      repair_sms: 3,
      repair_numbers_sms: 2,
      repair_clock_sms: 1,
    });

    const repairStart = h.smsTo(barrier.devicePhone).length;
    expect(
      (await call('POST', `/api/admin/barriers/${barrier.id}/device-check/repair/`)).json(),
    ).toMatchObject({
      queued: 3,
    });
    await h.run(barrier.id);
    const sent = h.smsTo(barrier.devicePhone).slice(repairStart);
    // What the screen counted is what went: two deletes and one clock SMS.
    expect(sent.filter((text) => /^1234T\d{10}#?$/.test(text))).toHaveLength(1);
    expect(sent.filter((text) => /^1234A00[45]##$/.test(text)).sort()).toEqual(['1234A004##', '1234A005##']);
    expect(sent).toHaveLength(3);
  });

  it('fails a check the device refuses, and is for the owner only', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, password: '1111' });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    await t.deps.db
      .update(barriers)
      .set({ devicePasswordEncrypted: t.deps.secrets.encrypt('2222') })
      .where(eq(barriers.id, barrier.id));
    expect(
      (await call('POST', `/api/admin/barriers/${barrier.id}/device-check/`, {}, stranger)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `/api/admin/barriers/${barrier.id}/device-check/`, undefined, stranger)).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/api/admin/barriers/${barrier.id}/device-check/`, { full: 'yes' })).statusCode,
    ).toBe(400);
    expect((await call('POST', `/api/admin/barriers/${barrier.id}/device-check/`, {})).statusCode).toBe(201);
    await h.run(barrier.id);
    const check = (await call('GET', `/api/admin/barriers/${barrier.id}/device-check/`)).json().check;
    expect(check).toMatchObject({
      status: 'failed',
      failure: 'refused',
      differences: [],
      repair_sms: 0,
      repair_numbers_sms: 0,
      repair_clock_sms: 0,
    });
  });

  it('reads a Telemetrica unit by its list and removes a number it should not hold', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, model: 'Telemetrica', password: null });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    const device = h.simulators.device(barrier.id);
    if (!device) throw new Error('the simulator did not hear from the server');
    device.drift({ kind: 'manual_add', slot: 1, number: '+79990000077' });
    expect((await call('POST', `/api/admin/barriers/${barrier.id}/device-check/`, {})).statusCode).toBe(201);
    const before = h.smsTo(barrier.devicePhone).length;
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone).slice(before)).toEqual(['#06#']);
    const check = (await call('GET', `/api/admin/barriers/${barrier.id}/device-check/`)).json().check;
    expect(check).toMatchObject({
      status: 'ready',
      repair_sms: 1,
      differences: [{ slot: null, device: '+79990000077', expected: null, action: 'remove' }],
    });
    await call('POST', `/api/admin/barriers/${barrier.id}/device-check/repair/`);
    const repairStart = h.smsTo(barrier.devicePhone).length;
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone).slice(repairStart)).toEqual(['#15#+79990000077#']);
    expect(device.whitelist(t.clock.now()).map((entry) => entry.number)).toEqual([phone.number]);
  });
});

describe('periodic device audit', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  it('reads a unit back by itself when due, repairs what drifted, and waits for its period', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    const url = `/api/admin/barriers/${barrier.id}/device-check/audit/`;
    for (const every_days of [0, 91, 1.5, 'weekly']) {
      const bad = await t.request({ method: 'PUT', url, token: admin.token, payload: { every_days } });
      expect(bad.statusCode, String(every_days)).toBe(400);
    }
    expect(await startDueAudits(t.deps)).not.toContain(barrier.id);
    const saved = await t.request({ method: 'PUT', url, token: admin.token, payload: { every_days: 7 } });
    expect(saved.json()).toEqual({ audit_every_days: 7 });

    const device = h.simulators.device(barrier.id);
    if (!device) throw new Error('the simulator did not hear from the server');
    device.drift({ kind: 'manual_add', slot: 2, number: '+79990000022' });
    expect(await startDueAudits(t.deps)).toContain(barrier.id);
    const before = h.smsTo(barrier.devicePhone).length;
    await h.run(barrier.id);
    // The read, then the removal, with nobody asking.
    expect(h.smsTo(barrier.devicePhone).slice(before)).toEqual(['1234AL001#010#', '1234A002##']);
    expect(device.whitelist(t.clock.now())).toEqual([{ slot: 1, number: phone.number }]);
    const shown = (
      await t.request({
        method: 'GET',
        url: `/api/admin/barriers/${barrier.id}/device-check/`,
        token: admin.token,
      })
    ).json();
    expect(shown).toMatchObject({ audit_every_days: 7, check: { status: 'repaired', automatic: true } });
    const history = await t.deps.db.select().from(actions).where(eq(actions.barrierId, barrier.id));
    expect(
      history
        .filter((row) => row.author === 'system')
        .map((row) => (row.newValue as { setting: string }).setting),
    ).toEqual(['device_audit_check', 'device_audit_repair']);

    // Not again before its period; again after it (in step: read, nothing to repair).
    expect(await startDueAudits(t.deps)).not.toContain(barrier.id);
    const start = t.clock.now();
    t.clock.set(new Date(start.getTime() + 8 * 24 * 60 * 60 * 1000));
    try {
      expect(await startDueAudits(t.deps)).toContain(barrier.id);
      const second = h.smsTo(barrier.devicePhone).length;
      await h.run(barrier.id);
      expect(h.smsTo(barrier.devicePhone).slice(second)).toEqual(['1234AL001#010#']);
    } finally {
      t.clock.set(start);
    }
  });

  it('does not start an audit the weekly SMS limit has no room for', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id, smsWeeklyLimit: 1 });
    await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    await t.deps.db.update(barriers).set({ deviceAuditDays: 1 }).where(eq(barriers.id, barrier.id));
    expect(await startDueAudits(t.deps)).not.toContain(barrier.id);
  });
});

describe('device profile', () => {
  let h: DeviceHarness;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
    admin = await createAdmin(t);
  });

  it('shows the documented forms with their sources, refuses a bad override field by field', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const url = `/api/admin/barriers/${barrier.id}/device-profile/`;
    const shown = await t.request({ method: 'GET', url, token: admin.token });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ model: 'RTU5025', profile: null, number_format: '0007' });
    expect(shown.json().documented.replies.add[0]).toEqual({
      template: '{slot}:{number}',
      source: expect.stringContaining('production'),
    });
    const bad = await t.request({
      method: 'PUT',
      url,
      token: admin.token,
      payload: { number_format: '9', replies: { add: ['{pwd}'] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      number_format: ['Неизвестный формат номера.'],
      'replies.add.0': ['Недопустимая подстановка: «пароль». Допустимы: «ячейка», «номер».'],
    });
    const [row] = await t.deps.db.select().from(barriers).where(eq(barriers.id, barrier.id));
    expect(row?.deviceProfile).toBeNull();
  });

  it('writes numbers in the chosen form and accepts the unit’s own replies, which the simulator plays', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const url = `/api/admin/barriers/${barrier.id}/device-profile/`;
    const saved = await t.request({
      method: 'PUT',
      url,
      token: admin.token,
      payload: { number_format: '007', replies: { add: ['Serial:{slot} Number:{number} Set Success!'] } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      number_format: '007',
      profile: { number_format: '007', replies: { add: ['Serial:{slot} Number:{number} Set Success!'] } },
    });
    const phone = await h.addPhone(barrier.id, { userId: admin.id });
    await h.run(barrier.id);
    expect(h.smsTo(barrier.devicePhone)).toEqual([`1234A001#007${phone.number.slice(2)}#`]);
    const [command] = await h.commands(barrier.id);
    expect(command?.reply).toBe(`Serial:001 Number:007${phone.number.slice(2)} Set Success!`);
    expect((await h.phone(phone.id)).status).toBe('ok');
    const history = await t.deps.db.select().from(actions).where(eq(actions.barrierId, barrier.id));
    expect(
      history.some((entry) => (entry.newValue as { setting?: string }).setting === 'device_profile'),
    ).toBe(true);

    const cleared = await t.request({ method: 'PUT', url, token: admin.token, payload: {} });
    expect(cleared.json()).toMatchObject({ profile: null, number_format: '0007' });
  });

  it('sends the clock in the digit order the profile chose, and the unit of that firmware keeps the right time (issue 30)', async () => {
    const barrier = await h.createBarrier({ ownerId: admin.id });
    const url = `/api/admin/barriers/${barrier.id}/device-profile/`;
    const bad = await t.request({ method: 'PUT', url, token: admin.token, payload: { clock_order: 'MMyy' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ clock_order: ['Неизвестный порядок цифр времени.'] });
    const saved = await t.request({
      method: 'PUT',
      url,
      token: admin.token,
      payload: { clock_order: 'ddMMyyHHmm' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().profile).toEqual({ clock_order: 'ddMMyyHHmm' });

    const now = t.clock.now();
    const start = new Date(now.getTime() + 2 * 60 * 60 * 1000);
    const end = new Date(now.getTime() + 5 * 60 * 60 * 1000);
    await h.addPhone(barrier.id, { userId: admin.id, type: 'temporary', start, end });
    await h.run(barrier.id);
    const clock = h.smsTo(barrier.devicePhone).find((text) => /^1234T\d{10}$/.test(text));
    // Day, month, year, hour, minute of Moscow time, without the '#' of the default form.
    const wall = new Date(now.getTime() + 3 * 60 * 60 * 1000);
    const two = (value: number) => String(value).padStart(2, '0');
    expect(clock?.slice(5, 11)).toBe(
      two(wall.getUTCDate()) + two(wall.getUTCMonth() + 1) + two(wall.getUTCFullYear() % 100),
    );
    const device = h.simulators.device(barrier.id);
    expect(device?.clockReading(now).slice(0, 6)).toBe(
      two(wall.getUTCFullYear() % 100) + two(wall.getUTCMonth() + 1) + two(wall.getUTCDate()),
    );
  });
});
