/**
 * «Мои данные» (issue 28 part 6): a resident downloads everything stored about him as JSON or CSV. The file
 * holds his numbers on every barrier with their schedules, his requests, the history of his phones, his
 * openings, his guest passes and his consents — and nothing of another user on the same barrier.
 */

import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addPhone,
  auth,
  createBarrier,
  createOwnerWithBarrier,
  createUserWithAccess,
  grantAccess,
  type TestBarrier,
} from './domain-factories.ts';
import { createUser, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

const SCHEDULE = { monday: [{ start_time: '08:00', end_time: '12:00' }] };

describe('«Мои данные»', () => {
  let barrier: TestBarrier;
  let second: TestBarrier;
  let resident: TestUser;
  let neighbour: TestUser;
  const familyNumber = nextPhone();
  const nannyNumber = nextPhone();
  const neighbourGuest = nextPhone();

  const t = useTestApp();
  beforeAll(async () => {
    ({ barrier } = await createOwnerWithBarrier(t));
    second = await createBarrier(t, barrier.owner);
    resident = await createUserWithAccess(t, barrier, 'Жилец Выгружающий');
    await grantAccess(t, second, resident);
    neighbour = await createUserWithAccess(t, barrier, 'Сосед Чужой');
    expect((await addPhone(t, resident, barrier.id, { phone: familyNumber, name: 'Жена' })).statusCode).toBe(
      201,
    );
    const scheduled = await addPhone(t, resident, second.id, {
      phone: nannyNumber,
      name: 'Няня',
      type: 'schedule',
      schedule: SCHEDULE,
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    expect(
      (await addPhone(t, neighbour, barrier.id, { phone: neighbourGuest, name: 'Гость соседа' })).statusCode,
    ).toBe(201);
    const opened = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/open/`,
      token: resident.token,
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const neighbourOpened = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/open/`,
      token: neighbour.token,
    });
    expect(neighbourOpened.statusCode, neighbourOpened.body).toBe(201);
    const consent = await t.request({
      method: 'POST',
      url: '/api/users/me/consent/',
      token: resident.token,
      payload: { policy_version: t.config.privacyPolicy.version },
    });
    expect(consent.statusCode).toBe(201);
  });

  const download = (user: TestUser, format?: string) =>
    t.request({
      method: 'GET',
      url: `/api/users/me/data/${format ? `?format=${format}` : ''}`,
      headers: auth(user),
    });

  it('JSON: an attachment, never cached, with his numbers, schedules, requests, history, openings and consent', async () => {
    const response = await download(resident);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="propusk-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const data = response.json();
    expect(data.profile).toMatchObject({
      id: resident.id,
      phone: resident.phone,
      full_name: 'Жилец Выгружающий',
    });
    const numbers = data.phones.map((row: { phone: string }) => row.phone);
    expect(numbers).toEqual(expect.arrayContaining([resident.phone, familyNumber, nannyNumber]));
    expect(data.phones.find((row: { phone: string }) => row.phone === nannyNumber)).toMatchObject({
      barrier_id: second.id,
      barrier_address: second.address,
      type: 'schedule',
      schedule: SCHEDULE,
      name: 'Няня',
    });
    expect(data.access_requests.map((row: { barrier_id: number }) => row.barrier_id).sort()).toEqual(
      [barrier.id, second.id].sort(),
    );
    // The history of his phones: at least the adds of the family number and of the nanny's.
    const added = data.history
      .filter((row: { action_type: string }) => row.action_type === 'add_phone')
      .map((row: { new_value: { phone?: string } }) => row.new_value?.phone);
    expect(added).toEqual(expect.arrayContaining([familyNumber, nannyNumber]));
    expect(data.openings).toHaveLength(1);
    expect(data.openings[0]).toMatchObject({ barrier_id: barrier.id, via: 'app' });
    expect(data.consents).toEqual([
      expect.objectContaining({ policy_version: t.config.privacyPolicy.version }),
    ]);
    expect(data.sessions.length).toBeGreaterThan(0);

    // Nothing of the neighbour: not his number, his guest's, his name, his opening.
    const text = response.body;
    for (const foreign of [neighbour.phone, neighbourGuest, 'Сосед Чужой', 'Гость соседа']) {
      expect(text).not.toContain(foreign);
    }
  });

  it('CSV: the same data in Russian sections, Excel-ready, nothing of another user', async () => {
    const response = await download(resident, 'csv');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/\.csv"$/);
    expect(response.headers['cache-control']).toBe('no-store');
    const rows = parse(response.body, { delimiter: ';', bom: true }) as string[][];
    expect(rows[0]).toEqual(['Раздел', 'Запись', 'Поле', 'Значение']);
    const phoneValues = rows
      .filter((row) => row[0] === 'Номера' && row[2] === 'Телефон')
      .map((row) => row[3]);
    expect(phoneValues).toEqual(expect.arrayContaining([resident.phone, familyNumber, nannyNumber]));
    expect(rows.some((row) => row[0] === 'История номеров' && row[3]?.includes(familyNumber))).toBe(true);
    expect(rows.some((row) => row[0] === 'Открытия шлагбаума')).toBe(true);
    expect(rows.some((row) => row[0] === 'Согласия с политикой')).toBe(true);
    for (const foreign of [neighbour.phone, neighbourGuest, 'Сосед Чужой']) {
      expect(response.body).not.toContain(foreign);
    }
    // Issue 41: codes in Russian words, times local and readable, not `user`, `primary` and ISO.
    const value = (section: string, field: string) =>
      rows.filter((row) => row[0] === section && row[2] === field).map((row) => row[3]);
    expect(value('Профиль', 'Роль')).toEqual(['Пользователь']);
    expect(value('Номера', 'Тип')).toContain('Основной');
    const codes = new Set(['user', 'admin', 'primary', 'permanent', 'schedule', 'ok', 'pending', 'accepted']);
    expect(rows.slice(1).filter((row) => codes.has(row[3] ?? ''))).toEqual([]);
    const times = rows.filter((row) => ['Создано', 'Сформирован', 'Принято'].includes(row[2] ?? ''));
    expect(times.length).toBeGreaterThan(2);
    for (const row of times) expect(row[3]).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:\d\d$/);
    expect(response.body).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
  });

  it('a user with nothing yet gets a file with his profile and empty parts', async () => {
    const newcomer = await createUser(t);
    const data = (await download(newcomer)).json();
    expect(data.profile.phone).toBe(newcomer.phone);
    expect(data.phones).toEqual([]);
    expect(data.history).toEqual([]);
    expect(data.consents).toEqual([]);
  });

  it('needs a login, and refuses an unknown format', async () => {
    expect((await t.request({ method: 'GET', url: '/api/users/me/data/' })).statusCode).toBe(401);
    const bad = await download(resident, 'xml');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('format');
  });
});
