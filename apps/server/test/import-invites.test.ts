/**
 * Issue 29 item 5: an import invites, it does not grant. A row whose number already logs in to Propusk (a
 * resident's, another administrator's) gets an invitation: no access and nothing for the device until the
 * person accepts; his extra numbers from the file wait with the invitation and come with the acceptance. A
 * number without an account is granted at once, as before. The preview reads alike for both (issue 28).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createOwnerWithBarrier, queuedCommands, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { commitImport, csvFile, previewImport } from './import-helpers.ts';
import { useTestApp } from './test-app.ts';

describe('an import invites the numbers that have an account', () => {
  let owner: TestUser;
  let barrier: TestBarrier;
  // Two invitations by hand an hour: the import's own invitations must not spend them.
  const t = useTestApp({ env: { PHONE_INVITES_PER_ADMIN_PER_HOUR: '2' } });
  beforeAll(async () => {
    ({ owner, barrier } = await createOwnerWithBarrier(t));
  });

  const queuedFor = async (number: string) =>
    JSON.stringify(await queuedCommands(t, barrier.id)).includes(number.slice(2));

  async function barrierUserPhones() {
    const response = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/users/?page_size=100`,
      token: owner.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().users as { phone: string; phones_count: number }[]).map((user) => [
      user.phone,
      user.phones_count,
    ]);
  }

  async function pendingInvitation(user: TestUser) {
    const response = await t.request({ method: 'GET', url: '/api/access_requests/my/', token: user.token });
    expect(response.statusCode, response.body).toBe(200);
    return (
      response.json().access_requests as { id: number; barrier: number; status: string; type: string }[]
    ).find((request) => request.barrier === barrier.id && request.status === 'pending');
  }

  it('grants the newcomer, invites the administrator and the resident, and accepting brings his numbers', async () => {
    const otherAdmin = await createAdmin(t, { fullName: 'Другой администратор' });
    const resident = await createUser(t, { fullName: 'Житель с аккаунтом' });
    const squatted = await createUser(t, { fullName: 'Сосед с аккаунтом' });
    const newcomer = nextPhone();
    const son = nextPhone();
    const wife = nextPhone();
    const nanny = nextPhone();
    const rows = [
      [newcomer, 'Новиков Николай', 'кв. 1', 'Основной', '', '', ''], // 2
      [son, 'Сын', 'кв. 1', 'Постоянный', '', '', ''], // 3
      [squatted.phone, 'Сосед', 'кв. 1', 'Постоянный', '', '', ''], // 4: an account as someone's extra
      [otherAdmin.phone, 'Администратор', 'кв. 2', 'Основной', '', '', ''], // 5
      [resident.phone, 'Житель', 'кв. 3', 'Основной', '', '', ''], // 6
      [wife, 'Жена', 'кв. 3', 'Постоянный', '', '', ''], // 7
      [nanny, 'Няня', 'кв. 3', 'По расписанию', '', '', 'пн-пт 08:00-20:00'], // 8
    ];
    const file = csvFile(rows);
    const preview = await previewImport(t, barrier.id, owner.token, file);
    expect(preview.statusCode, preview.body).toBe(200);
    const previewRows = preview.json().rows as Record<string, unknown>[];
    // The rows read alike, account or not: the same bytes once line, number, name and note are set aside.
    const bytes = (row: Record<string, unknown> | undefined) => {
      const { line: _line, phone: _phone, name: _name, note: _note, ...rest } = row ?? {};
      return JSON.stringify(rest);
    };
    const [newcomerRow, sonRow, squattedRow, adminRow, residentRow, wifeRow] = previewRows;
    expect(bytes(adminRow)).toBe(bytes(newcomerRow));
    expect(bytes(residentRow)).toBe(bytes(newcomerRow));
    expect(bytes(wifeRow)).toBe(bytes(sonRow));
    expect(bytes(squattedRow)).toBe(bytes(sonRow));
    expect(newcomerRow?.outcome).toEqual({
      code: 'resident',
      text: 'Получит доступ. Если этим номером уже входят в Пропуск, человек получит приглашение и решит сам.',
    });
    expect(preview.json().totals).toMatchObject({ rows: 7, rows_with_problems: 0, residents: 3, phones: 7 });

    const committed = await commitImport(t, barrier.id, owner.token, file, preview.json().digest);
    expect(committed.statusCode, committed.body).toBe(201);
    expect(committed.json()).toMatchObject({ phones: 2, residents: 1, invitations: 3 });

    // Only the newcomer and his son got access and reach the device.
    const users = await barrierUserPhones();
    expect(users).toContainEqual([newcomer, 2]);
    for (const number of [otherAdmin.phone, resident.phone, squatted.phone]) {
      expect(users.map(([phone]) => phone)).not.toContain(number);
    }
    expect(await queuedFor(newcomer)).toBe(true);
    expect(await queuedFor(son)).toBe(true);
    for (const number of [otherAdmin.phone, resident.phone, squatted.phone, wife, nanny]) {
      expect(await queuedFor(number)).toBe(false);
    }

    // The other administrator finds an invitation and does nothing: no access, nothing queued.
    expect(await pendingInvitation(otherAdmin)).toMatchObject({ type: 'incoming' });
    expect(await queuedFor(otherAdmin.phone)).toBe(false);

    // The resident accepts: access, his number and the file's extra numbers, queued for the device.
    const invitation = await pendingInvitation(resident);
    expect(invitation).toMatchObject({ type: 'incoming' });
    const accepted = await t.request({
      method: 'PATCH',
      url: `/api/access_requests/${invitation?.id}/`,
      token: resident.token,
      payload: { status: 'accepted' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await barrierUserPhones()).toContainEqual([resident.phone, 3]);
    for (const number of [resident.phone, wife, nanny]) expect(await queuedFor(number)).toBe(true);
    const mine = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/phones/my/`,
      token: resident.token,
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(
      (mine.json().phones as { phone: string; type: string; name: string }[]).map((phone) => [
        phone.phone,
        phone.type,
        phone.name,
      ]),
    ).toEqual([
      [resident.phone, 'primary', ''],
      [wife, 'permanent', 'Жена, кв. 3'],
      [nanny, 'schedule', 'Няня, кв. 3'],
    ]);

    // The neighbour whose number was someone's extra accepts his own invitation: his own primary.
    const own = await pendingInvitation(squatted);
    const ownAccepted = await t.request({
      method: 'PATCH',
      url: `/api/access_requests/${own?.id}/`,
      token: squatted.token,
      payload: { status: 'accepted' },
    });
    expect(ownAccepted.statusCode, ownAccepted.body).toBe(200);
    expect(await barrierUserPhones()).toContainEqual([squatted.phone, 1]);
    expect(await barrierUserPhones()).toContainEqual([newcomer, 2]);

    // The import's invitations did not spend the administrator's invitations by hand.
    for (const phone of [nextPhone(), nextPhone()]) {
      const invited = await t.request({
        method: 'POST',
        url: '/api/admin/phone_invitations/',
        token: owner.token,
        payload: { barrier: barrier.id, phone },
      });
      expect(invited.statusCode, invited.body).toBe(201);
    }
  });
});
