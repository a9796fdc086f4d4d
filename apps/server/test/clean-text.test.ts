/**
 * Issue 29 part 6: every human text field keeps one rule (contracts' clean-text.ts). Text with a bidi override,
 * an isolate, a zero-width space, a link or an emoji is refused on its field with one message and the stable
 * code `text_not_allowed`, and nothing changes; clean text with runs of spaces is stored collapsed. The
 * invitation SMS carries a short, cleaned address whatever is stored.
 */
import { CLEAN_TEXT_MESSAGE } from '@propusk/contracts/clean-text';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { barriers, users } from '../src/db/schema.ts';
import { addPhone, createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, nextPhone, type TestUser } from './factories.ts';
import { csvFile, previewImport } from './import-helpers.ts';
import { useTestApp } from './test-app.ts';

const ATTACKS: readonly (readonly [string, string])[] = [
  ['a right-to-left override', 'Иван \u202eвонавИ'],
  ['a bidi isolate', 'кв. 5 \u2066Петров\u2069'],
  ['a zero-width space', 'Ива\u200bн'],
  ['a link', 'Сбербанк: войдите на https://sber-bank.online/login'],
  ['a bare domain', 'пишите на sber-bank.ru'],
  ['an emoji', 'Иван 🔑'],
];
/** Clean, with spaces of several kinds around and inside: stored as CLEAN. */
const MESSY = '  Иван\u00a0\u00a0 Петров,\tкв. 5 ';
const CLEAN = 'Иван Петров, кв. 5';

// One test app for the whole file: creating one is the slow part on a loaded machine.
describe('the clean-text rule on every human text field, and the invitation SMS', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  let resident: TestUser;
  let phoneId: number;
  const t = useTestApp({ env: { SITE_URL: 'https://propusk.example' } });
  beforeAll(async () => {
    owner = await createAdmin(t, { fullName: 'Владелец' });
    barrier = await createBarrier(t, owner);
    resident = await createUserWithAccess(t, barrier, 'Житель');
    const added = await addPhone(t, resident, barrier.id, { name: 'Няня' });
    expect(added.statusCode, added.body).toBe(201);
    phoneId = added.json().id;
  });

  const hourFromNow = (hours: number) => new Date(t.clock.now().getTime() + hours * 3_600_000).toISOString();

  interface Field {
    family: string;
    field: string;
    send: (
      value: string,
    ) => Promise<{ statusCode: number; body: string; json: () => Record<string, unknown> }>;
    /** The stored value as the API shows it afterwards. */
    read: () => Promise<unknown>;
  }
  const get = async (url: string, token: string) => (await t.request({ method: 'GET', url, token })).json();
  const fields = (): Field[] => [
    {
      family: 'barrier address (new barrier)',
      field: 'address',
      send: (address) =>
        t.request({
          method: 'POST',
          url: '/api/admin/barriers/',
          token: owner.token,
          payload: {
            address,
            device_phone: nextPhone(),
            device_model: 'RTU5025',
            device_password: '1234',
            device_phones_amount: 100,
          },
        }),
      read: async () =>
        (await get('/api/admin/barriers/my/?page_size=100', owner.token)).barriers
          .map((row: { address: string }) => row.address)
          .filter((address: string) => address !== barrier.address),
    },
    {
      family: 'barrier note',
      field: 'additional_info',
      send: (value) =>
        t.request({
          method: 'PATCH',
          url: `/api/admin/barriers/${barrier.id}/`,
          token: owner.token,
          payload: { additional_info: value },
        }),
      read: async () => (await get(`/api/admin/barriers/${barrier.id}/`, owner.token)).additional_info,
    },
    {
      family: 'full name',
      field: 'full_name',
      send: (value) =>
        t.request({
          method: 'PATCH',
          url: '/api/users/me/',
          token: resident.token,
          payload: { full_name: value },
        }),
      read: async () => (await get('/api/users/me/', resident.token)).full_name,
    },
    {
      family: 'phone name (resident adds)',
      field: 'name',
      send: (name) => addPhone(t, resident, barrier.id, { name }),
      read: async () =>
        (await get(`/api/barriers/${barrier.id}/phones/my/`, resident.token)).phones
          .map((row: { name: string }) => row.name)
          .filter((name: string) => name !== 'Няня'),
    },
    {
      family: 'phone name (administrator adds)',
      field: 'name',
      send: (name) =>
        t.request({
          method: 'POST',
          url: `/api/admin/barriers/${barrier.id}/phones/`,
          token: owner.token,
          payload: { phone: nextPhone(), name, type: 'permanent', user: resident.id },
        }),
      read: async () =>
        (await get(`/api/barriers/${barrier.id}/phones/my/`, resident.token)).phones
          .map((row: { name: string }) => row.name)
          .filter((name: string) => name !== 'Няня'),
    },
    {
      family: 'phone name (renamed)',
      field: 'name',
      send: (name) =>
        t.request({
          method: 'PATCH',
          url: `/api/phones/${phoneId}/`,
          token: resident.token,
          payload: { name },
        }),
      read: async () =>
        (await get(`/api/barriers/${barrier.id}/phones/my/`, resident.token)).phones.find(
          (row: { id: number }) => row.id === phoneId,
        )?.name,
    },
    {
      family: 'guest-pass note',
      field: 'note',
      send: (note) =>
        t.request({
          method: 'POST',
          url: `/api/barriers/${barrier.id}/guest-passes/`,
          token: resident.token,
          payload: { start: hourFromNow(0), end: hourFromNow(3), note },
        }),
      read: async () =>
        (await get(`/api/barriers/${barrier.id}/guest-passes/`, resident.token)).guest_passes.map(
          (row: { note: string }) => row.note,
        ),
    },
    {
      family: 'block reason',
      field: 'reason',
      send: (reason) =>
        t.request({
          method: 'PATCH',
          url: `/api/admin/users/${resident.id}/block/`,
          token: owner.token,
          payload: { reason },
        }),
      read: async () => (await get(`/api/admin/users/${resident.id}/`, owner.token)).block_reason,
    },
    {
      family: 'emergency hold reason',
      field: 'reason',
      send: (reason) =>
        t.request({
          method: 'POST',
          url: '/api/admin/emergency-holds/',
          token: owner.token,
          payload: { barrier_ids: [barrier.id], reason },
        }),
      read: async () =>
        (await t.request({ method: 'GET', url: '/api/admin/emergency-holds/', token: owner.token })).json(),
    },
  ];

  it.each(ATTACKS)(
    'refuses %s in every field with one message and its code, and changes nothing',
    async (_what, attack) => {
      for (const field of fields()) {
        const before = await field.read();
        const response = await field.send(attack);
        expect(response.statusCode, `${field.family}: ${response.body}`).toBe(400);
        const body = response.json();
        expect(body[field.field], field.family).toEqual([CLEAN_TEXT_MESSAGE]);
        expect(body.code, field.family).toBe('text_not_allowed');
        expect(await field.read(), field.family).toEqual(before);
      }
    },
  );

  it('stores clean text with its spaces collapsed', async () => {
    // The hold is left out: a clean reason starts a real hold, which emergency-hold.test.ts covers.
    for (const field of fields().filter((each) => each.family !== 'emergency hold reason')) {
      const response = await field.send(MESSY);
      expect(response.statusCode, `${field.family}: ${response.body}`).toBeLessThan(300);
      const stored = await field.read();
      expect(Array.isArray(stored) ? stored : [stored], field.family).toContain(CLEAN);
    }
  });

  it('marks import rows whose name or note breaks the rule, and imports nothing', async () => {
    const file = csvFile([
      [nextPhone(), 'Иван\u202eвонавИ', 'кв. 1', 'Основной', '', '', ''],
      [nextPhone(), 'Мария', 'кв. 2 https://evil.ru', 'Основной', '', '', ''],
      [nextPhone(), 'Пётр  Петров', '  кв.\u00a03 ', 'Основной', '', '', ''],
    ]);
    const preview = await previewImport(t, barrier.id, owner.token, file);
    expect(preview.statusCode, preview.body).toBe(200);
    const rows = preview.json().rows as {
      name: string;
      note: string;
      problems: { code: string; text: string }[];
    }[];
    expect(rows.map((row) => row.problems.map((problem) => problem.code))).toEqual([
      ['text_not_allowed'],
      ['text_not_allowed'],
      [],
    ]);
    expect(rows[0]?.problems[0]?.text).toMatch(/^В имени или примечании только буквы/);
    expect(rows[2]).toMatchObject({ name: 'Пётр Петров', note: 'кв. 3' });
  });

  it('carries a short, cleaned address even when the stored one is an attack', async () => {
    const owner = await createAdmin(t, { fullName: 'Владелец\u202e 🔑' });
    const barrier = await createBarrier(t, owner);
    // Written straight to the database: text stored before the rule, or by hand, as the review found it.
    const attack =
      'ул. Ленина, 1. Сбербанк: ваш счёт заблокирован, срочно войдите на https://sberbank-online.ru/login \u202eи подтвердите';
    await t.deps.db.update(barriers).set({ address: attack }).where(eq(barriers.id, barrier.id));

    const phone = nextPhone();
    const invited = await t.request({
      method: 'POST',
      url: '/api/admin/phone_invitations/',
      token: owner.token,
      payload: { barrier: barrier.id, phone },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const sms = t.sentSms().filter((line) => line.to === phone);
    expect(sms).toHaveLength(1);
    expect(sms[0]?.text).toBe(
      'Вас приглашают к шлагбауму «ул. Ленина, 1. Сбербанк: ваш счёт заблокирован, срочно…». ' +
        'Войдите по этому номеру на https://propusk.example, чтобы принять приглашение.',
    );
    expect(sms[0]?.text).not.toMatch(/sberbank-online|\u202e|🔑/);
  });

  it('carries no name the administrator typed, and no link of any top-level domain or script (issue 40 item 2)', async () => {
    const owner = await createAdmin(t, { fullName: 'Владелец' });
    const barrier = await createBarrier(t, owner);
    // Written straight to the database, as text stored before the rule: the review's SMS came from such a name.
    await t.deps.db.update(users).set({ fullName: 'Госуслуги rb.gy/gosu1' }).where(eq(users.id, owner.id));
    await t.deps.db
      .update(barriers)
      .set({
        address:
          'ул. Мира, 3 госуслуги.онлайн/вход sber.\u0441\u043em https:/\u034f/sber.r\u034fu мос.москва',
      })
      .where(eq(barriers.id, barrier.id));
    const phone = nextPhone();
    const invited = await t.request({
      method: 'POST',
      url: '/api/admin/phone_invitations/',
      token: owner.token,
      payload: { barrier: barrier.id, phone },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const sms = t.sentSms().filter((line) => line.to === phone);
    expect(sms.map((line) => line.text)).toEqual([
      'Вас приглашают к шлагбауму «ул. Мира, 3». Войдите по этому номеру на https://propusk.example, чтобы принять приглашение.',
    ]);
  });

  it.each([
    ['a short link', 'Госуслуги rb.gy/gosu1'],
    ['a Cyrillic domain', 'госуслуги.онлайн/вход'],
    ['a domain of .москва', 'мос.москва'],
    ['a link split by U+034F', 'https:/\u034f/sber.r\u034fu'],
    ['a look-alike Cyrillic «с» and «о»', 'sber.\u0441\u043em'],
  ])('refuses %s as a full name and an address (issue 40 item 2)', async (_what, attack) => {
    const name = await t.request({
      method: 'PATCH',
      url: '/api/users/me/',
      token: resident.token,
      payload: { full_name: attack },
    });
    expect(name.statusCode, name.body).toBe(400);
    expect(name.json().code).toBe('text_not_allowed');
    const address = await t.request({
      method: 'POST',
      url: '/api/admin/barriers/',
      token: owner.token,
      payload: {
        address: attack,
        device_phone: nextPhone(),
        device_model: 'RTU5025',
        device_password: '1234',
        device_phones_amount: 100,
      },
    });
    expect(address.statusCode, address.body).toBe(400);
    expect(address.json().code).toBe('text_not_allowed');
  });

  it.each(['г.Москва, ул.Ленина, д.5/2', 'пр.Мира, д.1к2, кв.12', 'А.С. Пушкин'])(
    'accepts «%s» (issue 40 item 2)',
    async (text) => {
      const name = await t.request({
        method: 'PATCH',
        url: '/api/users/me/',
        token: resident.token,
        payload: { full_name: text },
      });
      expect(name.statusCode, name.body).toBe(200);
      expect(name.json().full_name).toBe(text);
    },
  );
});
