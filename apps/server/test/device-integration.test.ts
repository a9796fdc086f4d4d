/**
 * The whole path through the product's HTTP API with the demo provider and simulated devices: a phone
 * added by a user reaches the device as the exact command and becomes `ok` on the device's reply; leaving
 * and an administrator's block take the numbers off the device, and so does account deletion; a temporary
 * phone on RTU5025 costs one SMS carrying its window.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { verifiedToken } from './auth-helpers.ts';
import { createDeviceScene, type DeviceHarness } from './device-harness.ts';
import { addPhone, createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import type { TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

/** A number as the RTU sheet writes it (the production form `0007` + ten digits). */
const digits = (phone: string) => `0007${phone.slice(2)}`;

describe('devices follow the product API (demo provider)', () => {
  let h: DeviceHarness;
  let owner: TestUser;
  let barrier: TestBarrier;
  let user: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, owner, barrier, user } = await createDeviceScene(t));
  });

  const device = () => {
    const simulated = h.simulators.device(barrier.id);
    if (!simulated) throw new Error('the device has not heard from the server');
    return simulated;
  };
  const myPhones = async () => {
    const response = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/phones/my/`,
      token: user.token,
    });
    expect(response.statusCode).toBe(200);
    return response.json().phones as { id: number; phone: string; status: string }[];
  };

  it("puts the owner's and the new user's own numbers on the device", () => {
    expect(h.smsTo(barrier.device_phone)).toEqual([
      `2580A001#${digits(owner.phone)}#`,
      `2580A002#${digits(user.phone)}#`,
    ]);
    expect(device().wouldOpenFor(user.phone, t.clock.now())).toBe(true);
  });

  it('adds a permanent phone: exact command, the reply, status ok', async () => {
    const added = await addPhone(t, user, barrier.id, { type: 'permanent' });
    expect(added.statusCode, added.body).toBe(201);
    const number = added.json().phone as string;
    expect((await myPhones()).find((phone) => phone.phone === number)?.status).toBe('pending');
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).at(-1)).toBe(`2580A003#${digits(number)}#`);
    expect((await myPhones()).find((phone) => phone.phone === number)?.status).toBe('ok');
    expect(device().wouldOpenFor(number, t.clock.now())).toBe(true);
  });

  it('sends a temporary phone on RTU5025 as one SMS carrying its window', async () => {
    const before = h.smsTo(barrier.device_phone).length;
    const added = await addPhone(t, user, barrier.id, {
      type: 'temporary',
      start_time: '2026-11-22T07:00:00.000Z',
      end_time: '2026-11-22T15:00:00.000Z',
    });
    expect(added.statusCode, added.body).toBe(201);
    await h.run(barrier.id);
    const sent = h.smsTo(barrier.device_phone).slice(before);
    // The device's clock is set the first time a window matters; then the phone itself is one SMS.
    expect(sent.filter((text) => text.includes(digits(added.json().phone)))).toEqual([
      `2580A004#${digits(added.json().phone)}#2611221000#2611221800#`,
    ]);
    expect(sent.filter((text) => !text.includes(digits(added.json().phone)))).toEqual(['2580T2611211200#']);
    expect(device().wouldOpenFor(added.json().phone, new Date('2026-11-22T08:00:00.000Z'))).toBe(true);
    expect(device().wouldOpenFor(added.json().phone, new Date('2026-11-22T15:00:00.000Z'))).toBe(false);

    const second = await addPhone(t, user, barrier.id, {
      type: 'temporary',
      start_time: '2026-11-23T07:00:00.000Z',
      end_time: '2026-11-23T09:30:00.000Z',
    });
    const count = h.smsTo(barrier.device_phone).length;
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).slice(count)).toEqual([
      `2580A005#${digits(second.json().phone)}#2611231000#2611231230#`,
    ]);
  });

  it('takes every number of a user who leaves off the device', async () => {
    const numbers = (await myPhones()).map((phone) => phone.phone);
    expect(numbers).toHaveLength(4);
    const left = await t.request({
      method: 'DELETE',
      url: `/api/barriers/${barrier.id}/leave/`,
      token: user.token,
    });
    expect(left.statusCode, left.body).toBe(204);
    const count = h.smsTo(barrier.device_phone).length;
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).slice(count)).toEqual([
      '2580A002##',
      '2580A003##',
      '2580A004##',
      '2580A005##',
    ]);
    for (const number of numbers) {
      expect(device().wouldOpenFor(number, new Date('2026-11-22T08:00:00.000Z'))).toBe(false);
    }
    expect(device().whitelist(t.clock.now())).toEqual([{ slot: 1, number: owner.phone }]);
  });

  it('answers an added phone with nothing to send yet as ok at once (a model without windows, before its start)', async () => {
    const plain = await createBarrier(t, owner, {
      device_model: 'Telemetrica',
      device_password: '',
      device_phones_amount: 4,
    });
    const resident = await createUserWithAccess(t, plain, 'Жилец');
    const start = new Date(t.clock.now().getTime() + 60 * 60_000);
    const end = new Date(start.getTime() + 2 * 60 * 60_000);
    const timed = await addPhone(t, resident, plain.id, {
      type: 'temporary',
      start_time: start.toISOString(),
      end_time: end.toISOString(),
    });
    expect(timed.statusCode, timed.body).toBe(201);
    expect(timed.json().status).toBe('ok');
    const permanent = await addPhone(t, resident, plain.id, { type: 'permanent' });
    expect(permanent.statusCode, permanent.body).toBe(201);
    expect(permanent.json().status).toBe('pending');
  });

  it('takes a user blocked by the administrator off the device', async () => {
    const blocked = await createUserWithAccess(t, barrier, 'Нарушитель');
    await h.run(barrier.id);
    expect(device().wouldOpenFor(blocked.phone, t.clock.now())).toBe(true);
    const response = await t.request({
      method: 'PATCH',
      url: `/api/admin/users/${blocked.id}/block/`,
      token: owner.token,
      payload: { reason: 'Нарушение правил' },
    });
    expect(response.statusCode, response.body).toBe(200);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).at(-1)).toBe('2580A002##');
    expect(device().wouldOpenFor(blocked.phone, t.clock.now())).toBe(false);
  });

  it('takes the numbers of a user who deletes his account off the device', async () => {
    const leaving = await createUserWithAccess(t, barrier, 'Уходящий');
    const extra = await addPhone(t, leaving, barrier.id, { type: 'permanent' });
    expect(extra.statusCode, extra.body).toBe(201);
    const guest = extra.json().phone as string;
    await h.run(barrier.id);
    expect(device().wouldOpenFor(leaving.phone, t.clock.now())).toBe(true);
    expect(device().wouldOpenFor(guest, t.clock.now())).toBe(true);

    const token = await verifiedToken(t, leaving.phone, 'delete_account', leaving.token);
    const deleted = await t.request({
      method: 'DELETE',
      url: '/api/users/me/',
      token: leaving.token,
      payload: { verification_token: token },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const count = h.smsTo(barrier.device_phone).length;
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).slice(count)).toEqual(['2580A002##', '2580A003##']);
    expect(device().wouldOpenFor(leaving.phone, t.clock.now())).toBe(false);
    expect(device().wouldOpenFor(guest, t.clock.now())).toBe(false);
    expect(device().whitelist(t.clock.now())).toEqual([{ slot: 1, number: owner.phone }]);
  });

  it('empties the device when the barrier is deleted', async () => {
    const response = await t.request({
      method: 'DELETE',
      url: `/api/admin/barriers/${barrier.id}/`,
      token: owner.token,
    });
    expect(response.statusCode, response.body).toBe(204);
    await h.run(barrier.id);
    expect(h.smsTo(barrier.device_phone).at(-1)).toBe('2580A001##');
    expect(device().whitelist(t.clock.now())).toEqual([]);
  });
});
