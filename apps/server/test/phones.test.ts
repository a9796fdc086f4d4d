import { errorCodeText } from '@propusk/contracts/error-texts';
import { formatDateTimeOutput } from '@propusk/contracts/phones';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { phones } from '../src/db/schema.ts';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  projectedDevice,
  queuedCommands,
  type TestBarrier,
} from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const WEEKDAY = { monday: [{ start_time: '08:00', end_time: '12:00' }] };

describe('phones', () => {
  const t = useTestApp();

  // As the API answers date-times: with the barrier's offset (Moscow), to the second.
  const inHours = (hours: number) =>
    formatDateTimeOutput(new Date(t.clock.now().getTime() + hours * 3600_000), 180);
  const setLimits = (admin: TestUser, barrierId: number, payload: object) =>
    t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${barrierId}/limits/`,
      token: admin.token,
      payload,
    });
  const adminAdd = (admin: TestUser, barrierId: number, payload: object) =>
    t.request({
      method: 'POST',
      url: `/api/admin/barriers/${barrierId}/phones/`,
      token: admin.token,
      payload: { phone: nextPhone(), name: 'От админа', type: 'permanent', ...payload },
    });
  const slotOf = async (phoneId: number) =>
    (await t.deps.db.select({ slot: phones.slot }).from(phones).where(eq(phones.id, phoneId)))[0]?.slot;

  describe('adding', () => {
    let owner: TestUser;
    let barrier: TestBarrier;
    let member: TestUser;
    beforeAll(async () => {
      ({ owner, barrier } = await createOwnerWithBarrier(t));
      member = await createUserWithAccess(t, barrier);
    });

    it('adds the three types, each on its own slot, and queues them for the device', async () => {
      const permanent = await addPhone(t, member, barrier.id, { name: 'Жена' });
      expect(permanent.statusCode).toBe(201);
      expect(permanent.json()).toMatchObject({
        name: 'Жена',
        type: 'permanent',
        status: 'pending',
        is_active: true,
        barrier: barrier.id,
        user: member.id,
        start_time: null,
        end_time: null,
        schedule: null,
      });
      const start = inHours(1);
      const end = inHours(5);
      const temporary = await addPhone(t, member, barrier.id, {
        type: 'temporary',
        start_time: start,
        end_time: end,
      });
      expect(temporary.statusCode).toBe(201);
      expect(temporary.json()).toMatchObject({ type: 'temporary', start_time: start, end_time: end });
      const schedule = await addPhone(t, member, barrier.id, { type: 'schedule', schedule: WEEKDAY });
      expect(schedule.statusCode).toBe(201);
      expect(schedule.json()).toMatchObject({ type: 'schedule', schedule: WEEKDAY });

      const slots = await Promise.all([permanent, temporary, schedule].map((r) => slotOf(r.json().id)));
      expect(new Set(slots).size).toBe(3);
      const device = await projectedDevice(t, barrier.id);
      expect([...device.values()]).toEqual(
        expect.arrayContaining([permanent.json().phone, temporary.json().phone, schedule.json().phone]),
      );
      const kinds = (await queuedCommands(t, barrier.id)).map((command) => command.kind);
      expect(kinds).toContain('add_window');

      const list = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/phones/my/`,
        token: member.token,
      });
      expect(list.json().total_count).toBe(4);
      expect(list.json().phones[0]).toMatchObject({ type: 'primary', phone: member.phone });
    });

    it('reads a local time without an offset as the barrier’s time zone', async () => {
      const response = await addPhone(t, member, barrier.id, {
        type: 'temporary',
        start_time: '2026-12-01T10:00',
        end_time: '2026-12-01T18:00',
      });
      expect(response.statusCode).toBe(201);
      // The first 16 characters are what was entered (a client pre-fills its inputs with them).
      expect(response.json().start_time).toBe('2026-12-01T10:00:00+03:00');
      expect(response.json().end_time.slice(0, 16)).toBe('2026-12-01T18:00');
    });

    it('takes the smallest free slot, and reuses a freed one', async () => {
      const { barrier: fresh } = await createOwnerWithBarrier(t);
      const user = await createUserWithAccess(t, fresh);
      const a = (await addPhone(t, user, fresh.id)).json();
      const b = (await addPhone(t, user, fresh.id)).json();
      expect([await slotOf(a.id), await slotOf(b.id)]).toEqual([3, 4]);
      expect(
        (await t.request({ method: 'DELETE', url: `/api/phones/${a.id}/`, token: user.token })).statusCode,
      ).toBe(204);
      expect(await slotOf(a.id)).toBeNull();
      const c = (await addPhone(t, user, fresh.id)).json();
      expect(await slotOf(c.id)).toBe(3);
    });

    it.each([
      ['phone', { phone: undefined }],
      ['phone', { phone: '' }],
      ['phone', { phone: '+7999' }],
      ['phone', { phone: '79991234567' }],
      ['name', { name: '' }],
      ['name', { name: '   ' }],
      ['name', { name: undefined }],
      ['name', { name: 'x'.repeat(101) }],
      ['type', { type: 'primary' }],
      ['type', { type: 'forever' }],
      ['start_time', { type: 'temporary' }],
      ['end_time', { type: 'temporary', start_time: '2026-12-01T10:00:00Z' }],
      [
        'start_time',
        { type: 'temporary', start_time: '2026-12-01T10:00:00Z', end_time: '2026-12-01T09:00:00Z' },
      ],
      ['start_time', { type: 'temporary', start_time: 'tomorrow', end_time: '2026-12-01T09:00:00Z' }],
      [
        'end_time',
        { type: 'temporary', start_time: '2020-01-01T10:00:00Z', end_time: '2020-01-02T10:00:00Z' },
      ],
      ['schedule', { type: 'schedule' }],
      ['schedule', { type: 'schedule', schedule: {} }],
      ['schedule', { type: 'schedule', schedule: { monday: [{ start_time: '12:00', end_time: '08:00' }] } }],
      ['schedule', { type: 'schedule', schedule: { monday: [{ start_time: '22:00', end_time: '02:00' }] } }],
      ['schedule', { type: 'schedule', schedule: { monday: [{ start_time: '25:00', end_time: '26:00' }] } }],
      [
        'schedule',
        {
          type: 'schedule',
          schedule: {
            friday: [
              { start_time: '08:00', end_time: '12:00' },
              { start_time: '11:00', end_time: '13:00' },
            ],
          },
        },
      ],
      ['schedule', { type: 'schedule', schedule: { monday: 'always' } }],
    ])('answers 400 for a bad %s (%j)', async (field, override) => {
      const response = await addPhone(t, member, barrier.id, override);
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json()).some((key) => key === field || key.startsWith(`${field}.`))).toBe(
        true,
      );
    });

    it('accepts an interval ending at 24:00 and several intervals a day', async () => {
      const response = await addPhone(t, member, barrier.id, {
        type: 'schedule',
        schedule: {
          sunday: [
            { start_time: '20:00', end_time: '24:00' },
            { start_time: '06:00', end_time: '07:00' },
          ],
        },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().schedule.sunday[0].start_time).toBe('06:00');
    });

    it('puts a number on a barrier at most once (409), primary numbers included', async () => {
      const number = nextPhone();
      expect((await addPhone(t, member, barrier.id, { phone: number })).statusCode).toBe(201);
      const again = await addPhone(t, member, barrier.id, { phone: number });
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe('This number is already on this barrier.');
      expect((await addPhone(t, member, barrier.id, { phone: owner.phone })).statusCode).toBe(409);
    });

    it('needs access to the barrier', async () => {
      const stranger = await createUser(t);
      expect((await addPhone(t, stranger, barrier.id)).statusCode).toBe(403);
      const { barrier: privateBarrier } = await createOwnerWithBarrier(t, { is_public: false });
      expect((await addPhone(t, stranger, privateBarrier.id)).statusCode).toBe(404);
    });
  });

  describe('limits on every path that adds a phone', () => {
    it('user_phone_limit counts the primary phone, for the user and the administrator alike', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const member = await createUserWithAccess(t, barrier);
      await setLimits(owner, barrier.id, { user_phone_limit: 2 });
      expect((await addPhone(t, member, barrier.id)).statusCode).toBe(201);
      const userPath = await addPhone(t, member, barrier.id);
      expect(userPath.statusCode).toBe(409);
      expect(userPath.json().detail).toBe('The limit of phones per user on this barrier has been reached.');
      const adminPath = await adminAdd(owner, barrier.id, { user: member.id });
      expect(adminPath.statusCode).toBe(409);
    });

    it('temporary limits per user and per barrier', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const first = await createUserWithAccess(t, barrier);
      const second = await createUserWithAccess(t, barrier);
      await setLimits(owner, barrier.id, { user_temp_phone_limit: 1, global_temp_phone_limit: 2 });
      const temporary = { type: 'temporary', start_time: inHours(1), end_time: inHours(2) };
      expect((await addPhone(t, first, barrier.id, temporary)).statusCode).toBe(201);
      const perUser = await addPhone(t, first, barrier.id, temporary);
      expect(perUser.json().detail).toBe(
        'The limit of temporary phones per user on this barrier has been reached.',
      );
      expect((await addPhone(t, first, barrier.id)).statusCode).toBe(201);
      expect((await addPhone(t, second, barrier.id, temporary)).statusCode).toBe(201);
      const third = await createUserWithAccess(t, barrier);
      const global = await adminAdd(owner, barrier.id, { ...temporary, user: third.id });
      expect(global.statusCode).toBe(409);
      expect(global.json().detail).toBe('The limit of temporary phones on this barrier has been reached.');
    });

    it('schedule limits per user and per barrier, and the shortest interval', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const first = await createUserWithAccess(t, barrier);
      const second = await createUserWithAccess(t, barrier);
      await setLimits(owner, barrier.id, {
        user_schedule_phone_limit: 1,
        global_schedule_phone_limit: 2,
        schedule_interval_limit: 60,
      });
      const short = await addPhone(t, first, barrier.id, {
        type: 'schedule',
        schedule: { monday: [{ start_time: '08:00', end_time: '08:30' }] },
      });
      expect(short.statusCode).toBe(409);
      expect(short.json()).toMatchObject({ code: 'schedule_interval_too_short', minimum_minutes: 60 });
      expect(errorCodeText(short.json())).toContain('60');
      const schedule = { type: 'schedule', schedule: WEEKDAY };
      expect((await addPhone(t, first, barrier.id, schedule)).statusCode).toBe(201);
      expect((await addPhone(t, first, barrier.id, schedule)).json().detail).toBe(
        'The limit of schedule phones per user on this barrier has been reached.',
      );
      expect((await addPhone(t, second, barrier.id, schedule)).statusCode).toBe(201);
      const third = await createUserWithAccess(t, barrier);
      expect((await addPhone(t, third, barrier.id, schedule)).json().detail).toBe(
        'The limit of schedule phones on this barrier has been reached.',
      );
    });

    it('the weekly SMS limit refuses the change before anything is stored', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const member = await createUserWithAccess(t, barrier);
      // Owner's primary + member's primary have used 2 SMS.
      await setLimits(owner, barrier.id, { sms_weekly_limit: 3 });
      expect((await addPhone(t, member, barrier.id)).statusCode).toBe(201);
      const refused = await addPhone(t, member, barrier.id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().detail).toBe('The weekly SMS limit of this barrier would be exceeded.');
      const list = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/phones/my/`,
        token: member.token,
      });
      expect(list.json().total_count).toBe(2);
      const history = await t.request({
        method: 'GET',
        url: `/api/admin/barriers/${barrier.id}/actions/`,
        token: owner.token,
      });
      expect(history.json().total_count).toBe(3);
    });

    it('the device slot count is a limit too', async () => {
      const { barrier } = await createOwnerWithBarrier(t, { device_phones_amount: 2 });
      const member = await createUserWithAccess(t, barrier);
      const full = await addPhone(t, member, barrier.id);
      expect(full.statusCode).toBe(409);
      expect(full.json().detail).toBe('The device of this barrier has no free slot.');
    });
  });

  describe('administrator adds for a user of his barrier', () => {
    it('adds, lists by user, and refuses users without access and foreign barriers', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const member = await createUserWithAccess(t, barrier);
      const added = await adminAdd(owner, barrier.id, { user: member.id, name: 'Водитель' });
      expect(added.statusCode).toBe(201);
      expect(added.json()).toMatchObject({ user: member.id, name: 'Водитель' });
      const list = await t.request({
        method: 'GET',
        url: `/api/admin/barriers/${barrier.id}/phones/my/?user=${member.id}&page_size=10`,
        token: owner.token,
      });
      expect(list.json()).toMatchObject({ total_count: 2, page_size: 10 });
      const all = await t.request({
        method: 'GET',
        url: `/api/admin/barriers/${barrier.id}/phones/my/`,
        token: owner.token,
      });
      expect(all.json().total_count).toBe(3);
      // A later page keeps the total; a page past the end has no row to carry it and still tells it.
      for (const [page, items] of [
        [2, 1],
        [4, 0],
      ] as const) {
        const paged = await t.request({
          method: 'GET',
          url: `/api/admin/barriers/${barrier.id}/phones/my/?page=${page}&page_size=2`,
          token: owner.token,
        });
        expect(paged.json()).toMatchObject({ total_count: 3, current_page: page });
        expect(paged.json().phones).toHaveLength(items);
      }
      const mine = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/phones/my/`,
        token: member.token,
      });
      expect(mine.json().phones.map((phone: { id: number }) => phone.id)).toContain(added.json().id);

      const stranger = await createUser(t);
      const noAccess = await adminAdd(owner, barrier.id, { user: stranger.id });
      expect(noAccess.statusCode).toBe(400);
      expect(noAccess.json()).toHaveProperty('user');
      expect((await adminAdd(owner, barrier.id, {})).statusCode).toBe(400);
      const other = await createAdmin(t);
      expect((await adminAdd(other, barrier.id, { user: member.id })).statusCode).toBe(404);
      expect((await adminAdd(member, barrier.id, { user: member.id })).statusCode).toBe(403);
    });
  });

  describe('changing and deleting', () => {
    let owner: TestUser;
    let barrier: TestBarrier;
    let member: TestUser;
    beforeAll(async () => {
      ({ owner, barrier } = await createOwnerWithBarrier(t));
      member = await createUserWithAccess(t, barrier);
    });

    it('renames a phone and moves a temporary window, with history', async () => {
      const temporary = (
        await addPhone(t, member, barrier.id, {
          type: 'temporary',
          start_time: inHours(1),
          end_time: inHours(2),
        })
      ).json();
      const renamed = await t.request({
        method: 'PATCH',
        url: `/api/phones/${temporary.id}/`,
        token: member.token,
        payload: { name: 'Курьер', end_time: inHours(3) },
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'Курьер', end_time: inHours(3), barrier: barrier.id });
      const history = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/actions/?action_type=update_phone`,
        token: member.token,
      });
      expect(history.json().total_count).toBe(1);
      const detail = await t.request({
        method: 'GET',
        url: `/api/actions/${history.json().actions[0].id}/`,
        token: member.token,
      });
      expect(detail.json()).toMatchObject({
        action_type: 'update_phone',
        author: 'user',
        reason: 'manual',
        phone: temporary.id,
        old_value: { name: 'Гость', end_time: inHours(2) },
        new_value: { name: 'Курьер', end_time: inHours(3) },
      });
    });

    it('validates a patch', async () => {
      const permanent = (await addPhone(t, member, barrier.id)).json();
      const patch = (payload: object) =>
        t.request({ method: 'PATCH', url: `/api/phones/${permanent.id}/`, token: member.token, payload });
      expect((await patch({})).statusCode).toBe(400);
      expect((await patch({ name: '' })).json()).toHaveProperty('name');
      expect((await patch({ start_time: inHours(1), end_time: inHours(2) })).json()).toHaveProperty(
        'start_time',
      );
      const temporary = (
        await addPhone(t, member, barrier.id, {
          type: 'temporary',
          start_time: inHours(1),
          end_time: inHours(2),
        })
      ).json();
      const reversed = await t.request({
        method: 'PATCH',
        url: `/api/phones/${temporary.id}/`,
        token: member.token,
        payload: { start_time: inHours(3) },
      });
      expect(reversed.statusCode).toBe(400);
      expect(reversed.json()).toHaveProperty('start_time');
    });

    it('renames the primary phone but never deletes it', async () => {
      const mine = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/phones/my/`,
        token: member.token,
      });
      const primary = mine.json().phones.find((phone: { type: string }) => phone.type === 'primary');
      const renamed = await t.request({
        method: 'PATCH',
        url: `/api/phones/${primary.id}/`,
        token: member.token,
        payload: { name: 'Мой' },
      });
      expect(renamed.json()).toMatchObject({ name: 'Мой', type: 'primary' });
      expect(
        (await t.request({ method: 'DELETE', url: `/api/phones/${primary.id}/`, token: member.token }))
          .statusCode,
      ).toBe(403);
      expect(
        (await t.request({ method: 'DELETE', url: `/api/admin/phones/${primary.id}/`, token: owner.token }))
          .statusCode,
      ).toBe(403);
    });

    it('deletes an extra phone: off the device, kept for history, not deletable twice', async () => {
      const phone = (await addPhone(t, member, barrier.id)).json();
      const deleted = await t.request({
        method: 'DELETE',
        url: `/api/phones/${phone.id}/`,
        token: member.token,
      });
      expect(deleted.statusCode).toBe(204);
      expect([...(await projectedDevice(t, barrier.id)).values()]).not.toContain(phone.phone);
      const detail = await t.request({ method: 'GET', url: `/api/phones/${phone.id}/`, token: member.token });
      expect(detail.json()).toMatchObject({ id: phone.id, phone: phone.phone, is_active: false });
      const again = await t.request({
        method: 'DELETE',
        url: `/api/phones/${phone.id}/`,
        token: member.token,
      });
      expect(again.statusCode).toBe(409);
      const patch = await t.request({
        method: 'PATCH',
        url: `/api/phones/${phone.id}/`,
        token: member.token,
        payload: { name: 'x' },
      });
      expect(patch.statusCode).toBe(409);
      // The number can be added again once deleted.
      expect((await addPhone(t, member, barrier.id, { phone: phone.phone })).statusCode).toBe(201);
    });

    it('lets the administrator change and delete phones of his barrier’s users only', async () => {
      const phone = (await addPhone(t, member, barrier.id)).json();
      const patched = await t.request({
        method: 'PATCH',
        url: `/api/admin/phones/${phone.id}/`,
        token: owner.token,
        payload: { user: member.id, name: 'Изменено' },
      });
      expect(patched.json()).toMatchObject({ name: 'Изменено' });
      const other = await createAdmin(t);
      expect(
        (await t.request({ method: 'GET', url: `/api/admin/phones/${phone.id}/`, token: other.token }))
          .statusCode,
      ).toBe(404);
      expect(
        (
          await t.request({
            method: 'PATCH',
            url: `/api/admin/phones/${phone.id}/`,
            token: other.token,
            payload: { name: 'x' },
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await t.request({ method: 'DELETE', url: `/api/admin/phones/${phone.id}/`, token: other.token }))
          .statusCode,
      ).toBe(404);
      const stranger = await createUser(t);
      expect(
        (await t.request({ method: 'GET', url: `/api/phones/${phone.id}/`, token: stranger.token }))
          .statusCode,
      ).toBe(404);
      expect(
        (await t.request({ method: 'DELETE', url: `/api/phones/${phone.id}/`, token: stranger.token }))
          .statusCode,
      ).toBe(404);
      const deleted = await t.request({
        method: 'DELETE',
        url: `/api/admin/phones/${phone.id}/`,
        token: owner.token,
      });
      expect(deleted.statusCode).toBe(204);
      const history = await t.request({
        method: 'GET',
        url: `/api/admin/barriers/${barrier.id}/actions/?action_type=delete_phone`,
        token: owner.token,
      });
      expect(history.json().actions[0]).toMatchObject({ author: 'admin', reason: 'manual', phone: phone.id });
    });
  });

  describe('schedule', () => {
    it('reads and replaces the weekly map, with the same checks and the interval limit', async () => {
      const { owner, barrier } = await createOwnerWithBarrier(t);
      const member = await createUserWithAccess(t, barrier);
      const phone = (await addPhone(t, member, barrier.id, { type: 'schedule', schedule: WEEKDAY })).json();
      const url = `/api/phones/${phone.id}/schedule/`;
      expect((await t.request({ method: 'GET', url, token: member.token })).json()).toEqual(WEEKDAY);
      const next = { tuesday: [{ start_time: '09:00', end_time: '18:00' }], saturday: [] };
      const put = await t.request({ method: 'PUT', url, token: member.token, payload: next });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toEqual({ tuesday: [{ start_time: '09:00', end_time: '18:00' }] });
      expect(
        (
          await t.request({
            method: 'GET',
            url: `/api/admin/phones/${phone.id}/schedule/`,
            token: owner.token,
          })
        ).json(),
      ).toEqual(put.json());
      const bad = await t.request({
        method: 'PUT',
        url,
        token: member.token,
        payload: { monday: [{ start_time: '10:00', end_time: '09:00' }] },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toHaveProperty('schedule');
      await setLimits(owner, barrier.id, { schedule_interval_limit: 120 });
      const short = await t.request({
        method: 'PUT',
        url: `/api/admin/phones/${phone.id}/schedule/`,
        token: owner.token,
        payload: { monday: [{ start_time: '10:00', end_time: '11:00' }] },
      });
      expect(short.statusCode).toBe(409);
      const history = await t.request({
        method: 'GET',
        url: `/api/barriers/${barrier.id}/actions/?action_type=update_phone`,
        token: member.token,
      });
      expect(history.json().actions[0]).toMatchObject({ reason: 'schedule_update' });

      const permanent = (await addPhone(t, member, barrier.id)).json();
      expect(
        (
          await t.request({
            method: 'GET',
            url: `/api/phones/${permanent.id}/schedule/`,
            token: member.token,
          })
        ).statusCode,
      ).toBe(409);
      expect(
        (
          await t.request({
            method: 'PUT',
            url: `/api/phones/${permanent.id}/schedule/`,
            token: member.token,
            payload: WEEKDAY,
          })
        ).statusCode,
      ).toBe(409);
      const stranger = await createUser(t);
      expect((await t.request({ method: 'GET', url, token: stranger.token })).statusCode).toBe(404);
    });
  });
});
