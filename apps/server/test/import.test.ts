/**
 * Bulk import of residents and their numbers (issue 14): the template, the preview with every row's
 * problems, the all-or-nothing commit through the phone rules, new accounts that log in with their number,
 * and the SMS estimate against what the device queue then sends.
 */
import { readSheet } from 'read-excel-file/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginWithCode } from './auth-helpers.ts';
import { createDeviceScene, type DeviceHarness } from './device-harness.ts';
import {
  addPhone,
  createOwnerWithBarrier,
  createUserWithAccess,
  type TestBarrier,
} from './domain-factories.ts';
import { createUser, nextPhone, type TestUser } from './factories.ts';
import { commitImport, csvFile, HEADERS, previewImport, xlsxFile } from './import-helpers.ts';
import { type TestApp, useTestApp } from './test-app.ts';

type PreviewRow = {
  line: number;
  phone: string;
  type: string | null;
  problems: { code: string; text: string }[];
};

const codes = (row: PreviewRow | undefined) => (row?.problems ?? []).map((problem) => problem.code);

async function barrierUsers(t: TestApp, barrier: TestBarrier) {
  const response = await t.request({
    method: 'GET',
    url: `/api/admin/barriers/${barrier.id}/users/?page_size=100`,
    token: barrier.owner.token,
  });
  expect(response.statusCode).toBe(200);
  return response.json().users as {
    id: number;
    phone: string;
    full_name: string | null;
    phones_count: number;
  }[];
}

async function barrierPhones(t: TestApp, barrier: TestBarrier) {
  const response = await t.request({
    method: 'GET',
    url: `/api/admin/barriers/${barrier.id}/phones/my/?page_size=100`,
    token: barrier.owner.token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().phones as { phone: string; name: string; type: string; user: number }[];
}

describe('import of residents', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  // The send-time estimate reads the gateway's rate: 20 SMS a minute (the burst stays out of the way).
  const t = useTestApp({ env: { SMS_RATE_PER_MINUTE: '20' } });
  beforeAll(async () => {
    ({ owner, barrier } = await createOwnerWithBarrier(t));
  });

  it('gives templates with the Russian headers, in CSV and XLSX, that come back through the preview', async () => {
    const csv = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/import/template/?format=csv`,
      token: owner.token,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.replace(/^\uFEFF/, '').split(/\r?\n/);
    expect(lines[0]).toBe(HEADERS.join(';'));
    expect(lines[1]).toContain('пн-пт 08:00-20:00; сб 10:00-14:00');

    const xlsx = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/import/template/?format=xlsx`,
      token: owner.token,
    });
    expect(xlsx.statusCode).toBe(200);
    const sheet = await readSheet(xlsx.rawPayload);
    expect(sheet[0]).toEqual(HEADERS);

    // The template as downloaded has only comments: nothing to import.
    const asIs = await previewImport(t, barrier.id, owner.token, xlsx.rawPayload, 'шаблон.xlsx');
    expect(asIs.statusCode).toBe(400);
    expect(asIs.json().code).toBe('import_empty');

    // Filled in: its rows are read back, the comment lines skipped.
    const resident = nextPhone();
    const filledCsv = Buffer.concat([
      csv.rawPayload,
      Buffer.from(`${resident};Жилец Шаблонов;кв. 3;Основной;;;\r\n`),
    ]);
    const fromCsv = await previewImport(t, barrier.id, owner.token, filledCsv);
    expect(fromCsv.statusCode, fromCsv.body).toBe(200);
    expect(fromCsv.json().rows).toHaveLength(1);
    expect(fromCsv.json().rows[0]).toMatchObject({ phone: resident, problems: [] });

    const filledXlsx = await xlsxFile(
      [
        ...sheet.slice(1).map((row) => row.map((cell) => (cell === null ? '' : String(cell)))),
        [resident, 'Жилец', 'кв. 3', 'Основной', '', '', ''],
      ],
      HEADERS,
    );
    const fromXlsx = await previewImport(t, barrier.id, owner.token, filledXlsx, 'жители.xlsx');
    expect(fromXlsx.statusCode, fromXlsx.body).toBe(200);
    expect(fromXlsx.json().rows.map((row: PreviewRow) => row.phone)).toEqual([resident]);
  });

  it('names every problem of every row in Russian, and the commit then refuses the whole file', async () => {
    const { owner: admin, barrier: small } = await createOwnerWithBarrier(t, { device_phones_amount: 7 });
    const member = await createUserWithAccess(t, small, 'Уже жилец');
    const extra = await addPhone(t, member, small.id, { type: 'permanent' });
    expect(extra.statusCode).toBe(201);
    const blocked = await createUser(t, { fullName: 'Заблокированный' });
    await createUserWithAccess(t, small, 'Временно').then(async (user) => {
      const block = await t.request({
        method: 'PATCH',
        url: `/api/admin/users/${user.id}/block/`,
        token: admin.token,
        payload: { reason: 'Нарушение' },
      });
      expect(block.statusCode, block.body).toBe(200);
      blocked.phone = user.phone;
    });
    const limits = await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${small.id}/limits/`,
      token: admin.token,
      payload: { user_phone_limit: 2 },
    });
    expect(limits.statusCode, limits.body).toBe(200);

    const usersBefore = await barrierUsers(t, small);
    const phonesBefore = await barrierPhones(t, small);
    const [a, b, c, d] = [nextPhone(), nextPhone(), nextPhone(), nextPhone()];
    const rows = [
      ['12345', 'Ошибка', '', 'Основной', '', '', ''], // 2 phone_invalid
      [a, 'Иван', 'кв. 1', '', '', '', ''], // 3 ok (empty type = primary)
      [a, 'Иван снова', 'кв. 1', 'Постоянный', '', '', ''], // 4 duplicate in file
      [extra.json().phone, 'Занятый', '', 'Постоянный', '', '', ''], // 5 duplicate on barrier
      [nextPhone(), 'Кто', '', 'Странный', '', '', ''], // 6 type_invalid
      [member.phone, 'Уже жилец', '', 'Основной', '', '', ''], // 7 already_has_access
      [blocked.phone, 'Заблокированный', '', 'Основной', '', '', ''], // 8 blocked by this admin
      [b, 'Пётр', 'кв. 2', 'Основной', '', '', ''], // 9 ok
      [nextPhone(), 'Дочь', '', 'Постоянный', '', '', ''], // 10 ok: Пётр's second phone
      [nextPhone(), 'Гость', '', 'Временный', '', '', ''], // 11 window_required
      [nextPhone(), 'Гость', '', 'Временный', '32.12.2026 10:00', '05.12.2026 10:00', ''], // 12 window_format
      [nextPhone(), 'Гость', '', 'Временный', '05.12.2026 10:00', '01.12.2026 10:00', ''], // 13 window_order
      [nextPhone(), 'Гость', '', 'Временный', '01.01.2020 10:00', '02.01.2020 10:00', ''], // 14 window_past
      [nextPhone(), 'Няня', '', 'По расписанию', '', '', 'когда-нибудь'], // 15 schedule_format
      [nextPhone(), 'Няня', '', 'По расписанию', '', '', 'пн 20:00-08:00'], // 16 schedule_invalid
      [nextPhone(), 'Жена', '', 'Постоянный', '', '', ''], // 17 over user_phone_limit of 2: Пётр's third phone
      [c, 'Семён', 'кв. 3', 'Основной', '', '', ''], // 18 ok
      [d, 'Фёдор', 'кв. 4', 'Основной', '', '', ''], // 19 no free slot (7 slots)
      [nextPhone(), 'Сын', '', 'Постоянный', '', '', ''], // 20 resident has problems
    ];
    const file = csvFile(rows);
    const preview = await previewImport(t, small.id, admin.token, file);
    expect(preview.statusCode, preview.body).toBe(200);
    const byLine = new Map<number, PreviewRow>(preview.json().rows.map((row: PreviewRow) => [row.line, row]));
    expect(codes(byLine.get(2))).toEqual(['phone_invalid']);
    expect(codes(byLine.get(3))).toEqual([]);
    expect(codes(byLine.get(4))).toEqual(['phone_duplicate_file']);
    expect(codes(byLine.get(5))).toEqual(['phone_duplicate']);
    expect(codes(byLine.get(6))).toEqual(['type_invalid']);
    expect(codes(byLine.get(7))).toEqual(['already_has_access']);
    expect(codes(byLine.get(8))).toEqual(['user_blocked_by_admin']);
    expect(codes(byLine.get(9))).toEqual([]);
    expect(codes(byLine.get(10))).toEqual([]);
    expect(codes(byLine.get(11))).toEqual(['window_required']);
    expect(codes(byLine.get(12))).toEqual(['window_format']);
    expect(codes(byLine.get(13))).toEqual(['window_order']);
    expect(codes(byLine.get(14))).toEqual(['window_past']);
    expect(codes(byLine.get(15))).toEqual(['schedule_format']);
    expect(codes(byLine.get(16))).toEqual(['schedule_invalid']);
    expect(codes(byLine.get(17))).toEqual(['limit_user_phones']);
    // 7 slots: the owner, the member and his extra hold three (the blocked user's was freed); 3, 9, 10, 18 take the rest.
    expect(codes(byLine.get(18))).toEqual([]);
    expect(codes(byLine.get(19))).toEqual(['no_free_slot']);
    expect(codes(byLine.get(20))).toEqual(['resident_has_problems']);
    expect(byLine.get(19)?.problems[0]?.text).toBe('Не хватает места в памяти устройства.');
    for (const row of preview.json().rows as PreviewRow[]) {
      for (const problem of row.problems) expect(problem.text).toMatch(/^[^a-zA-Z]+$/);
    }
    expect(preview.json().totals).toMatchObject({
      rows: 19,
      rows_with_problems: 15,
      residents: 3,
      phones: 4,
    });

    const refused = await commitImport(t, small.id, admin.token, file, preview.json().digest);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('import_has_problems');
    expect(await barrierUsers(t, small)).toEqual(usersBefore);
    expect(await barrierPhones(t, small)).toEqual(phonesBefore);
    const nobody = await t.request({
      method: 'POST',
      url: '/api/admin/users/search/',
      token: admin.token,
      payload: { phone: a },
    });
    expect(nobody.statusCode).toBe(404);
  });

  it('marks the rows over the weekly SMS limit; a deactivated account reads like any row', async () => {
    const { owner: admin, barrier: limited } = await createOwnerWithBarrier(t);
    const limits = await t.request({
      method: 'PATCH',
      url: `/api/admin/barriers/${limited.id}/limits/`,
      token: admin.token,
      payload: { sms_weekly_limit: 4 },
    });
    expect(limits.statusCode, limits.body).toBe(200);
    const inactive = await createUser(t, { fullName: 'Отключённый' });
    const { users } = await import('../src/db/schema.ts');
    const { eq } = await import('drizzle-orm');
    await t.deps.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    const rows = [
      [inactive.phone, 'Отключённый', '', 'Основной', '', '', ''],
      ...Array.from({ length: 6 }, (_, index) => [nextPhone(), `Жилец ${index}`, '', 'Основной', '', '', '']),
    ];
    const preview = await previewImport(t, limited.id, admin.token, csvFile(rows));
    expect(preview.statusCode, preview.body).toBe(200);
    const result = preview.json().rows as PreviewRow[];
    // No account oracle: the deactivated account is counted like any row (the commit would invite it).
    // The owner's own number was one SMS: three more fit in the limit of four.
    expect(result.map(codes)).toEqual([
      [],
      [],
      [],
      ['sms_weekly_limit'],
      ['sms_weekly_limit'],
      ['sms_weekly_limit'],
      ['sms_weekly_limit'],
    ]);
    expect(preview.json().totals.sms).toBe(3);
  });

  it('imports a file in one transaction: accounts, access, phones, history; a new resident logs in by his number', async () => {
    const resident = nextPhone();
    const wife = nextPhone();
    const nanny = nextPhone();
    const guest = nextPhone();
    const existing = await createUser(t, { fullName: 'Старый аккаунт' });
    const file = await xlsxFile([
      [`8${resident.slice(2)}`, 'Новиков Николай', 'кв. 7', 'Основной', '', '', ''],
      [wife, 'Новикова Анна', 'кв. 7', 'Постоянный', '', '', ''],
      [nanny, 'Няня', 'кв. 7', 'По расписанию', '', '', 'пн-пт 08:00-20:00; сб 10:00-14:00'],
      [guest, 'Гость', 'кв. 7', 'Временный', new Date('2026-12-01T10:00:00Z'), '05.12.2026 22:00', ''],
      [existing.phone, 'Другое имя', 'кв. 8', '', '', '', ''],
    ]);
    const preview = await previewImport(t, barrier.id, owner.token, file, 'жители.xlsx');
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().rows.flatMap((row: PreviewRow) => row.problems)).toEqual([]);
    expect(preview.json().totals).toMatchObject({ rows: 5, rows_with_problems: 0, residents: 2, phones: 5 });
    // No account oracle (issue 28): the row of a number with an account reads like the row of one without.
    const shape = (row: Record<string, unknown>) => {
      const { line: _line, phone: _phone, name: _name, note: _note, ...rest } = row;
      return rest;
    };
    const [newcomerRow, , , , existingRow] = preview.json().rows;
    expect(shape(existingRow)).toEqual(shape(newcomerRow));
    expect(Object.keys(existingRow).sort()).toEqual([
      'line',
      'name',
      'note',
      'outcome',
      'phone',
      'problems',
      'type',
    ]);
    expect(preview.json().totals.sms).toBeGreaterThan(0);
    expect(preview.json().totals.send_minutes).toBe(Math.ceil(preview.json().totals.sms / 20));
    // The preview changed nothing.
    expect((await barrierUsers(t, barrier)).map((user) => user.phone)).not.toContain(resident);

    const wrongDigest = await commitImport(t, barrier.id, owner.token, file, '0'.repeat(64));
    expect(wrongDigest.statusCode).toBe(409);
    expect(wrongDigest.json().code).toBe('import_file_changed');

    const committed = await commitImport(t, barrier.id, owner.token, file, preview.json().digest);
    expect(committed.statusCode, committed.body).toBe(201);
    // The existing account is invited (issue 29 item 5): his number costs nothing until he accepts.
    expect(committed.json()).toMatchObject({ phones: 4, residents: 1, invitations: 1 });
    expect(committed.json().sms).toBeLessThan(preview.json().totals.sms);

    const listed = await barrierUsers(t, barrier);
    const newcomer = listed.find((user) => user.phone === resident);
    expect(newcomer).toMatchObject({ full_name: 'Новиков Николай', phones_count: 4 });
    expect(listed.find((user) => user.phone === existing.phone)).toBeUndefined();
    const phones = await barrierPhones(t, barrier);
    expect(
      phones
        .filter((phone) => phone.user === newcomer?.id)
        .map((phone) => [phone.phone, phone.type, phone.name]),
    ).toEqual([
      [resident, 'primary', 'кв. 7'],
      [wife, 'permanent', 'Новикова Анна, кв. 7'],
      [nanny, 'schedule', 'Няня, кв. 7'],
      [guest, 'temporary', 'Гость, кв. 7'],
    ]);

    const history = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/actions/`,
      token: owner.token,
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().total_count).toBeGreaterThanOrEqual(5);

    const session = await loginWithCode(t, resident);
    const mine = await t.request({ method: 'GET', url: '/api/users/me/', token: session.access });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ phone: resident, full_name: 'Новиков Николай' });
    const myPhones = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/phones/my/`,
      token: session.access,
    });
    expect(myPhones.statusCode).toBe(200);
    expect(myPhones.json().total_count).toBe(4);

    // The same file again: everything is already there, nothing is added twice.
    const again = await previewImport(t, barrier.id, owner.token, file, 'жители.xlsx');
    expect(codes(again.json().rows[0])).toEqual(['already_has_access']);
    expect(codes(again.json().rows[1])).toEqual(['resident_has_problems']);
  });

  it('refuses what is not a table, wrong headers, too many rows, too large a file, no file, another administrator', async () => {
    const expectCode = async (
      response: Promise<{ statusCode: number; json: () => { code?: string } }>,
      status: number,
      code: string,
    ) => {
      const answered = await response;
      expect(answered.statusCode).toBe(status);
      expect(answered.json().code).toBe(code);
    };
    await expectCode(
      previewImport(t, barrier.id, owner.token, Buffer.from([0, 1, 2, 3, 0, 5])),
      400,
      'import_file_invalid',
    );
    await expectCode(
      previewImport(t, barrier.id, owner.token, Buffer.from('PK\u0003\u0004garbage')),
      400,
      'import_file_invalid',
    );
    await expectCode(
      previewImport(t, barrier.id, owner.token, csvFile([['+79001112233']], ['Phone'])),
      400,
      'import_headers_invalid',
    );
    await expectCode(
      previewImport(
        t,
        barrier.id,
        owner.token,
        csvFile([['+79001112233', 'x']], ['Имя', 'Квартира или примечание']),
      ),
      400,
      'import_headers_invalid',
    );
    await expectCode(previewImport(t, barrier.id, owner.token, csvFile([], HEADERS)), 400, 'import_empty');
    const many = csvFile(
      Array.from({ length: 5001 }, (_, index) => [
        `+7911${String(index).padStart(7, '0')}`,
        'Ж',
        '',
        '',
        '',
        '',
        '',
      ]),
    );
    await expectCode(previewImport(t, barrier.id, owner.token, many), 400, 'import_too_many_rows');
    await expectCode(
      previewImport(t, barrier.id, owner.token, Buffer.alloc(2 * 1024 * 1024 + 10, 'a')),
      413,
      'import_file_too_large',
    );
    await expectCode(
      t.request({
        method: 'POST',
        url: `/api/admin/barriers/${barrier.id}/import/preview/`,
        token: owner.token,
        payload: {},
      }),
      400,
      'import_file_missing',
    );
    const { owner: stranger } = await createOwnerWithBarrier(t);
    await expectCode(
      previewImport(t, barrier.id, stranger.token, csvFile([[nextPhone(), 'Ж', '', '', '', '', '']])),
      404,
      'barrier_not_found',
    );
    const template = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/import/template/`,
      token: stranger.token,
    });
    expect(template.statusCode).toBe(404);
  });

  it('reads a Windows-1251 CSV with commas, as Excel saves it', async () => {
    const phone = nextPhone();
    const text = `Телефон,Имя,Тип\r\n${phone},Сидоров,Основной\r\n`;
    const encoded = Buffer.from(
      new Uint8Array(
        [...text].map((char) => {
          const code = char.charCodeAt(0);
          if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
          return code;
        }),
      ),
    );
    const preview = await previewImport(t, barrier.id, owner.token, encoded);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().rows[0]).toMatchObject({ phone, name: 'Сидоров', type: 'primary', problems: [] });
  });
});

describe('the SMS estimate of an import is what the device queue sends', () => {
  let h: DeviceHarness;
  let barrier: TestBarrier;
  const t = useTestApp();
  beforeAll(async () => {
    ({ h, barrier } = await createDeviceScene(t));
  });

  it('imports, drains the simulated device, and counts the SMS sent to it', async () => {
    const rows: string[][] = [];
    for (let index = 0; index < 6; index++) {
      rows.push([nextPhone(), `Жилец ${index}`, `кв. ${index}`, 'Основной', '', '', '']);
      rows.push([nextPhone(), `Гость ${index}`, '', 'Временный', '01.12.2026 10:00', '05.12.2026 22:00', '']);
    }
    rows.push([nextPhone(), 'Няня', '', 'По расписанию', '', '', 'пн-пт 08:00-20:00']);
    const file = csvFile(rows);
    const preview = await previewImport(t, barrier.id, barrier.owner.token, file);
    expect(preview.statusCode, preview.body).toBe(200);
    const estimate = preview.json().totals.sms as number;
    expect(estimate).toBeGreaterThanOrEqual(13);

    const before = h.smsTo(barrier.device_phone).length;
    const committed = await commitImport(t, barrier.id, barrier.owner.token, file, preview.json().digest);
    expect(committed.statusCode, committed.body).toBe(201);
    expect(committed.json().sms).toBe(estimate);
    await h.run(barrier.id);
    const sent = h.smsTo(barrier.device_phone).slice(before);
    expect(sent).toHaveLength(estimate);
    const device = h.simulators.device(barrier.id);
    // Guests from 1 December; the nanny on Monday 23 November at 10:00 (local); the rest now.
    const at = (type: string | undefined) =>
      type === 'Временный'
        ? new Date('2026-12-02T10:00:00Z')
        : type === 'По расписанию'
          ? new Date('2026-11-23T07:00:00Z')
          : t.clock.now();
    const closed = rows.filter((row) => !device?.wouldOpenFor(row[0] as string, at(row[3])));
    expect(closed.map((row) => row[3])).toEqual([]);
  });
});
