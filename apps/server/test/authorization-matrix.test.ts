/**
 * Every call of the barrier domain, as anonymous, another user, another administrator and the rightful
 * caller (the barrier's owner, or the user whose phone or request it is). Strangers get the right status
 * and no foreign data; their attempts change nothing; the rightful caller succeeds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPhone, createBarrier, grantAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { csvFile, multipart } from './import-helpers.ts';
import { createTestApp, type TestApp } from './test-app.ts';

type Caller = 'anonymous' | 'otherUser' | 'otherAdmin' | 'rightful';
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface Entry {
  method: Method;
  url: () => string;
  body?: (caller: TestUser | undefined) => object;
  /** Who the rightful caller is. */
  rightful: 'owner' | 'member' | 'invitee';
  expected: Record<Caller, number>;
  /** The call lawfully shows data about others (search by exact phone, creating one's own barrier). */
  foreignDataAllowed?: boolean;
  /** A body that is not JSON (a file upload): sent as given, with its content type. */
  upload?: () => { payload: Buffer; headers: Record<string, string> };
}

const WEEKDAY = { monday: [{ start_time: '08:00', end_time: '12:00' }] };

describe('authorization matrix', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let invitee: TestUser;
  let secondInvitee: TestUser;
  let blockee: TestUser;
  let removee: TestUser;
  let otherUser: TestUser;
  let otherAdmin: TestUser;
  let barrier: TestBarrier;
  const ids = {
    phone: 0,
    phoneToDelete: 0,
    phoneForAdminToDelete: 0,
    schedulePhone: 0,
    action: 0,
    request: 0,
  };
  let secrets: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAdmin(t, { fullName: 'Хозяин Матрицы' });
    barrier = await createBarrier(t, owner, { address: 'Секретный проезд, 13', is_public: false });
    member = await createUser(t, { fullName: 'Участник Матрицы' });
    await grantAccess(t, barrier, member);
    blockee = await createUser(t);
    await grantAccess(t, barrier, blockee);
    removee = await createUser(t);
    await grantAccess(t, barrier, removee);
    invitee = await createUser(t);
    secondInvitee = await createUser(t);
    otherUser = await createUser(t);
    otherAdmin = await createAdmin(t);
    await createBarrier(t, otherAdmin, { address: 'Чужой проезд' });

    ids.phone = (await addPhone(t, member, barrier.id, { name: 'Секретное имя' })).json().id;
    ids.phoneToDelete = (await addPhone(t, member, barrier.id)).json().id;
    ids.phoneForAdminToDelete = (await addPhone(t, member, barrier.id)).json().id;
    const schedule = await addPhone(t, member, barrier.id, { type: 'schedule', schedule: WEEKDAY });
    ids.schedulePhone = schedule.json().id;
    const actions = await t.request({
      method: 'GET',
      url: `/api/barriers/${barrier.id}/actions/`,
      token: member.token,
    });
    ids.action = actions.json().actions[0].id;
    const invitation = await t.request({
      method: 'POST',
      url: '/api/admin/access_requests/',
      token: owner.token,
      payload: { user: invitee.id, barrier: barrier.id },
    });
    ids.request = invitation.json().id;
    const phones = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/phones/my/?page_size=100`,
      token: owner.token,
    });
    secrets = [
      barrier.address,
      barrier.device_phone,
      member.phone,
      invitee.phone,
      'Секретное имя',
      'Участник Матрицы',
      ...phones.json().phones.map((phone: { phone: string }) => phone.phone),
    ];
  });
  afterAll(() => t.close());

  const deny = (otherUserStatus: number, otherAdminStatus: number) => ({
    anonymous: 401,
    otherUser: otherUserStatus,
    otherAdmin: otherAdminStatus,
  });
  const user = (rightful: number) => ({ ...deny(404, 404), rightful });
  const admin = (rightful: number) => ({ ...deny(403, 404), rightful });

  // In the order the rightful callers run them: reads, then changes, then what removes things.
  const entries: Entry[] = [
    {
      method: 'GET',
      url: () => '/api/barriers/',
      rightful: 'member',
      expected: { ...deny(200, 200), rightful: 200 },
    },
    {
      method: 'GET',
      url: () => '/api/barriers/my/',
      rightful: 'member',
      expected: { ...deny(200, 200), rightful: 200 },
    },
    { method: 'GET', url: () => `/api/barriers/${barrier.id}/`, rightful: 'member', expected: user(200) },
    {
      method: 'GET',
      url: () => `/api/barriers/${barrier.id}/check_access/`,
      rightful: 'member',
      expected: user(200),
    },
    {
      method: 'GET',
      url: () => `/api/barriers/${barrier.id}/limits/`,
      rightful: 'member',
      expected: user(200),
    },
    {
      method: 'GET',
      url: () => `/api/barriers/${barrier.id}/phones/my/`,
      rightful: 'member',
      expected: user(200),
    },
    { method: 'GET', url: () => `/api/phones/${ids.phone}/`, rightful: 'member', expected: user(200) },
    {
      method: 'GET',
      url: () => `/api/phones/${ids.schedulePhone}/schedule/`,
      rightful: 'member',
      expected: user(200),
    },
    {
      method: 'GET',
      url: () => `/api/barriers/${barrier.id}/actions/`,
      rightful: 'member',
      expected: user(200),
    },
    { method: 'GET', url: () => `/api/actions/${ids.action}/`, rightful: 'member', expected: user(200) },
    {
      method: 'GET',
      url: () => '/api/access_requests/my/',
      rightful: 'invitee',
      expected: { ...deny(200, 200), rightful: 200 },
    },
    {
      method: 'POST',
      url: () => `/api/barriers/${barrier.id}/phones/`,
      body: () => ({ phone: nextPhone(), name: 'Новый', type: 'permanent' }),
      rightful: 'member',
      expected: user(201),
    },
    {
      method: 'PATCH',
      url: () => `/api/phones/${ids.phone}/`,
      body: () => ({ name: 'Переименован' }),
      rightful: 'member',
      expected: user(200),
    },
    {
      method: 'PUT',
      url: () => `/api/phones/${ids.schedulePhone}/schedule/`,
      body: () => ({ tuesday: [{ start_time: '09:00', end_time: '10:00' }] }),
      rightful: 'member',
      expected: user(200),
    },
    {
      method: 'POST',
      url: () => '/api/access_requests/',
      body: (caller) => ({ user: caller?.id ?? member.id, barrier: barrier.id }),
      rightful: 'member',
      // Strangers cannot know the private barrier; the member already has access.
      expected: { ...user(409) },
    },
    {
      method: 'PATCH',
      url: () => `/api/access_requests/${ids.request}/`,
      body: () => ({ hidden_for_user: true }),
      rightful: 'invitee',
      expected: user(200),
    },
    {
      method: 'DELETE',
      url: () => `/api/phones/${ids.phoneToDelete}/`,
      rightful: 'member',
      expected: user(204),
    },

    {
      method: 'GET',
      url: () => '/api/admin/access_requests/my/',
      rightful: 'owner',
      expected: { ...deny(403, 200), rightful: 200 },
    },
    {
      method: 'POST',
      url: () => '/api/admin/access_requests/',
      body: () => ({ user: secondInvitee.id, barrier: barrier.id }),
      rightful: 'owner',
      expected: admin(201),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/access_requests/${ids.request}/`,
      body: () => ({ status: 'cancelled' }),
      rightful: 'owner',
      expected: admin(200),
    },
    { method: 'GET', url: () => `/api/admin/users/${member.id}/`, rightful: 'owner', expected: admin(200) },
    {
      method: 'POST',
      url: () => '/api/admin/users/search/',
      body: () => ({ phone: member.phone }),
      rightful: 'owner',
      expected: { ...deny(403, 200), rightful: 200 },
      foreignDataAllowed: true,
    },
    {
      method: 'POST',
      url: () => '/api/admin/barriers/',
      body: () => ({
        address: 'Новый адрес',
        device_phone: nextPhone(),
        device_model: 'RTU5025',
        device_password: '1111',
        device_phones_amount: 10,
        is_public: true,
      }),
      rightful: 'owner',
      expected: { ...deny(403, 201), rightful: 201 },
      foreignDataAllowed: true,
    },
    {
      method: 'GET',
      url: () => '/api/admin/barriers/my/',
      rightful: 'owner',
      expected: { ...deny(403, 200), rightful: 200 },
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/barriers/${barrier.id}/`,
      body: () => ({ additional_info: 'Изменено владельцем' }),
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/limits/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/device-log/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/device-health/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/barriers/${barrier.id}/limits/`,
      body: () => ({ user_phone_limit: 50 }),
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/users/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/import/template/?format=csv`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/import/preview/`,
      upload: () => multipart(csvFile([[nextPhone(), 'Жилец', 'кв. 1', '', '', '', '']])),
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'POST',
      // A digest of another file: the rightful owner is told so (409), nothing is imported.
      url: () => `/api/admin/barriers/${barrier.id}/import/?digest=${'0'.repeat(64)}`,
      upload: () => multipart(csvFile([[nextPhone(), 'Жилец', 'кв. 1', '', '', '', '']])),
      rightful: 'owner',
      expected: admin(409),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/phones/my/?user=${member.id}`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/phones/`,
      body: () => ({ user: member.id, phone: nextPhone(), name: 'От владельца', type: 'permanent' }),
      rightful: 'owner',
      expected: admin(201),
    },
    { method: 'GET', url: () => `/api/admin/phones/${ids.phone}/`, rightful: 'owner', expected: admin(200) },
    {
      method: 'PATCH',
      url: () => `/api/admin/phones/${ids.phone}/`,
      body: () => ({ name: 'Владелец переименовал' }),
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/phones/${ids.schedulePhone}/schedule/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'PUT',
      url: () => `/api/admin/phones/${ids.schedulePhone}/schedule/`,
      body: () => WEEKDAY,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/actions/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/actions/${ids.action}/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/phones/${ids.phoneForAdminToDelete}/`,
      rightful: 'owner',
      expected: admin(204),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/users/${blockee.id}/block/`,
      body: () => ({ reason: 'Матрица' }),
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/users/${blockee.id}/unblock/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/barriers/${barrier.id}/users/${removee.id}/`,
      rightful: 'owner',
      expected: admin(204),
    },
    {
      method: 'DELETE',
      url: () => `/api/barriers/${barrier.id}/leave/`,
      rightful: 'member',
      expected: user(204),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/barriers/${barrier.id}/`,
      rightful: 'owner',
      expected: admin(204),
    },
  ];

  const userOf = (caller: Caller, entry: Entry): TestUser | undefined => {
    if (caller === 'anonymous') return undefined;
    if (caller === 'otherUser') return otherUser;
    if (caller === 'otherAdmin') return otherAdmin;
    return { owner, member, invitee }[entry.rightful];
  };
  const call = (caller: Caller, entry: Entry) => {
    const token = userOf(caller, entry)?.token;
    const body = entry.body?.(userOf(caller, entry));
    return t.request({
      method: entry.method,
      url: entry.url(),
      ...(token ? { token } : {}),
      ...(body ? { payload: body } : {}),
      ...(entry.upload ? entry.upload() : {}),
    });
  };

  /** What the rightful side sees of the barrier; strangers' attempts must leave it as it was. */
  async function snapshot() {
    const read = async (url: string, token: string) => (await t.request({ method: 'GET', url, token })).body;
    return [
      await read(`/api/admin/barriers/${barrier.id}/`, owner.token),
      await read(`/api/admin/barriers/${barrier.id}/limits/`, owner.token),
      await read(`/api/admin/barriers/${barrier.id}/phones/my/?page_size=100`, owner.token),
      await read(`/api/admin/barriers/${barrier.id}/users/?page_size=100`, owner.token),
      await read(`/api/admin/barriers/${barrier.id}/actions/?page_size=100`, owner.token),
      await read('/api/access_requests/my/', invitee.token),
      await read(`/api/admin/users/${blockee.id}/`, owner.token),
    ];
  }

  it('strangers get the right status, see nothing of others and change nothing', async () => {
    const before = await snapshot();
    for (const entry of entries) {
      for (const caller of ['anonymous', 'otherUser', 'otherAdmin'] as const) {
        const response = await call(caller, entry);
        const label = `${caller} ${entry.method} ${entry.url()}`;
        expect(response.statusCode, `${label}: ${response.body}`).toBe(entry.expected[caller]);
        if (!entry.foreignDataAllowed || caller === 'anonymous' || caller === 'otherUser') {
          for (const secret of secrets)
            expect(response.body, `${label} leaks ${secret}`).not.toContain(secret);
        }
        if (response.statusCode >= 400)
          expect(Object.keys(response.json()).sort(), label).toEqual(['code', 'detail']);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('the rightful caller succeeds on every call', async () => {
    for (const entry of entries) {
      const response = await call('rightful', entry);
      expect(response.statusCode, `${entry.rightful} ${entry.method} ${entry.url()}: ${response.body}`).toBe(
        entry.expected.rightful,
      );
    }
  });

  it('covers every route of the barrier domain', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const domainTags = new Set([
      'barriers',
      'admin: barriers',
      'access requests',
      'admin: access requests',
      'admin: users',
      'admin: import',
      'phones',
      'admin: phones',
      'history',
      'admin: history',
    ]);
    const routes = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // The device module's retry of a failed phone is tested with the device queue.
        if (path.endsWith('/retry/')) continue;
        if (operation.tags?.some((tag) => domainTags.has(tag))) {
          routes.add(`${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`);
        }
      }
    }
    const covered = new Set(
      entries.map((entry) => `${entry.method} ${entry.url().split('?')[0]?.replace(/\d+/g, '{}')}`),
    );
    expect([...routes].sort()).toEqual([...covered].sort());
  });
});
