/**
 * Co-administrators and dispatchers (issues 14 and 16): the owner adds administrator accounts by phone with a
 * role; each role does what its permissions allow and nothing else; a change of role or a removal takes
 * effect on the next request; the history names the administrator who acted, and the staff changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BARRIER_PERMISSIONS, ROLE_PERMISSIONS } from '../src/modules/barrier-policy/policy.ts';
import { createBarrier, grantAccess, makeKnownTo, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('roles on a barrier', () => {
  it('each role holds its permissions: the manager all but deletion and staff, the dispatcher only the gate and health', () => {
    expect([...ROLE_PERMISSIONS.owner].sort()).toEqual([...BARRIER_PERMISSIONS].sort());
    expect(ROLE_PERMISSIONS.manager).not.toContain('barrier.delete');
    expect(ROLE_PERMISSIONS.manager).not.toContain('staff.manage');
    expect(ROLE_PERMISSIONS.manager.length).toBe(BARRIER_PERMISSIONS.length - 2);
    expect([...ROLE_PERMISSIONS.operator].sort()).toEqual(
      [
        'barrier.view',
        'device.health',
        'history.view',
        'phones.manage',
        'requests.manage',
        'users.manage',
      ].sort(),
    );
    expect([...ROLE_PERMISSIONS.dispatcher].sort()).toEqual(
      ['barrier.view', 'device.health', 'relay.hold', 'relay.open'].sort(),
    );
  });
});

describe('barrier staff', () => {
  let owner: TestUser;
  let colleague: TestUser;
  let dispatcher: TestUser;
  let member: TestUser;
  let plainUser: TestUser;
  let barrier: TestBarrier;
  let ownBarrierOfColleague: TestBarrier;

  const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url, token, ...(payload ? { payload } : {}) });
  const staffUrl = () => `/api/admin/barriers/${barrier.id}/staff/`;

  const t = useTestApp();
  beforeAll(async () => {
    owner = await createAdmin(t, { fullName: 'Хозяин Двора' });
    barrier = await createBarrier(t, owner, { address: 'Ролевая улица, 1' });
    colleague = await createAdmin(t, { fullName: 'Ольга Операторова' });
    ownBarrierOfColleague = await createBarrier(t, colleague, { address: 'Своя улица, 2' });
    dispatcher = await createAdmin(t, { fullName: 'Дмитрий Диспетчеров' });
    member = await createUser(t, { fullName: 'Жилец Первый' });
    await grantAccess(t, barrier, member);
    plainUser = await createUser(t);
    // Staff by phone finds only administrators the owner knows (issue 28 part 2).
    await makeKnownTo(t, barrier, colleague);
    await makeKnownTo(t, barrier, dispatcher);
  });

  it('adds only administrator accounts, once, never the owner, and only by the owner', async () => {
    const unknown = await call(owner.token, 'POST', staffUrl(), { phone: nextPhone(), role: 'operator' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('staff_not_admin');
    const user = await call(owner.token, 'POST', staffUrl(), { phone: plainUser.phone, role: 'operator' });
    expect(user.statusCode).toBe(404);
    expect(user.json().code).toBe('staff_not_admin');
    const self = await call(owner.token, 'POST', staffUrl(), { phone: owner.phone, role: 'manager' });
    expect(self.statusCode).toBe(409);
    expect(self.json().code).toBe('staff_is_owner');
    const badRole = await call(owner.token, 'POST', staffUrl(), { phone: colleague.phone, role: 'owner' });
    expect(badRole.statusCode).toBe(400);
    expect(Object.keys(badRole.json())).toEqual(['role']);

    const added = await call(owner.token, 'POST', staffUrl(), {
      phone: colleague.phone.slice(1), // 7XXXXXXXXXX is accepted too
      role: 'operator',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      id: colleague.id,
      full_name: 'Ольга Операторова',
      role: 'operator',
    });
    const again = await call(owner.token, 'POST', staffUrl(), { phone: colleague.phone, role: 'manager' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('staff_already_added');

    // Staff cannot manage staff: 403 with the new code; the list is the owner's.
    const byStaff = await call(colleague.token, 'POST', staffUrl(), {
      phone: dispatcher.phone,
      role: 'dispatcher',
    });
    expect(byStaff.statusCode).toBe(403);
    expect(byStaff.json().code).toBe('barrier_permission_denied');
    expect((await call(colleague.token, 'GET', staffUrl())).statusCode).toBe(403);

    expect(
      (await call(owner.token, 'POST', staffUrl(), { phone: dispatcher.phone, role: 'dispatcher' }))
        .statusCode,
    ).toBe(201);
    const list = await call(owner.token, 'GET', staffUrl());
    expect(list.json().staff.map((row: { id: number; role: string }) => [row.id, row.role])).toEqual([
      [colleague.id, 'operator'],
      [dispatcher.id, 'dispatcher'],
    ]);
  });

  it('the administrator list shows his own barriers and those he is staff on, each with his role', async () => {
    const list = await call(colleague.token, 'GET', '/api/admin/barriers/my/?ordering=id');
    expect(list.statusCode).toBe(200);
    const items = list.json().barriers as { id: number; my_role: string; owner: { id: number } }[];
    expect(items.map((item) => [item.id, item.my_role])).toEqual([
      [barrier.id, 'operator'],
      [ownBarrierOfColleague.id, 'owner'],
    ]);
    expect(list.json().total_count).toBe(2);
    expect(items[0]?.owner.id).toBe(owner.id);
    const detail = await call(colleague.token, 'GET', `/api/admin/barriers/${barrier.id}/`);
    expect(detail.json().my_role).toBe('operator');
    expect((await call(owner.token, 'GET', `/api/admin/barriers/${barrier.id}/`)).json().my_role).toBe(
      'owner',
    );
    // The owner's list does not grow with his staff's barriers.
    const ownerList = await call(owner.token, 'GET', '/api/admin/barriers/my/');
    expect(ownerList.json().barriers.map((item: { id: number }) => item.id)).toEqual([barrier.id]);
  });

  it('an operator manages phones, users and requests, and is refused settings, edits and deletion', async () => {
    const phone = nextPhone();
    const added = await call(colleague.token, 'POST', `/api/admin/barriers/${barrier.id}/phones/`, {
      user: member.id,
      phone,
      name: 'Дача',
      type: 'permanent',
    });
    expect(added.statusCode, added.body).toBe(201);
    expect((await call(colleague.token, 'GET', `/api/admin/barriers/${barrier.id}/users/`)).statusCode).toBe(
      200,
    );
    expect((await call(colleague.token, 'GET', `/api/admin/users/${member.id}/`)).statusCode).toBe(200);
    expect(
      (await call(colleague.token, 'GET', `/api/admin/barriers/${barrier.id}/device-health/`)).statusCode,
    ).toBe(200);

    for (const [method, url, payload] of [
      ['GET', `/api/admin/barriers/${barrier.id}/settings/`, undefined],
      ['PATCH', `/api/admin/barriers/${barrier.id}/`, { additional_info: 'Чужая правка' }],
      ['PATCH', `/api/admin/barriers/${barrier.id}/limits/`, { user_phone_limit: 1 }],
      ['DELETE', `/api/admin/barriers/${barrier.id}/`, undefined],
      ['PATCH', `/api/admin/users/${member.id}/block/`, { reason: 'Нельзя' }],
    ] as const) {
      const response = await call(colleague.token, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().code).toBe('barrier_permission_denied');
    }
    const still = await call(owner.token, 'GET', `/api/admin/barriers/${barrier.id}/`);
    expect(still.json().additional_info).toBe('');

    // The history names the operator, not the owner.
    const history = await call(
      owner.token,
      'GET',
      `/api/admin/barriers/${barrier.id}/actions/?action_type=add_phone`,
    );
    const entry = history
      .json()
      .actions.find((action: { phone_number: string }) => action.phone_number === phone);
    expect(entry).toMatchObject({ author: 'admin', author_name: 'Ольга Операторова' });
  });

  it('a dispatcher sees the barrier and its device, and nothing of its people', async () => {
    expect((await call(dispatcher.token, 'GET', `/api/admin/barriers/${barrier.id}/`)).json().my_role).toBe(
      'dispatcher',
    );
    expect(
      (await call(dispatcher.token, 'GET', `/api/admin/barriers/${barrier.id}/device-health/`)).statusCode,
    ).toBe(200);
    expect(
      (await call(dispatcher.token, 'GET', `/api/admin/barriers/${barrier.id}/device-log/`)).statusCode,
    ).toBe(200);
    for (const url of [
      `/api/admin/barriers/${barrier.id}/users/`,
      `/api/admin/barriers/${barrier.id}/phones/my/`,
      `/api/admin/barriers/${barrier.id}/actions/`,
      `/api/admin/barriers/${barrier.id}/settings/`,
    ]) {
      const response = await call(dispatcher.token, 'GET', url);
      expect(response.statusCode, url).toBe(403);
      expect(response.body).not.toContain(member.phone);
    }
    // Requests of the barrier are not his: his list is empty.
    const invite = await call(owner.token, 'POST', '/api/admin/access_requests/', {
      user: plainUser.id,
      barrier: barrier.id,
    });
    expect(invite.statusCode).toBe(201);
    expect((await call(dispatcher.token, 'GET', '/api/admin/access_requests/my/')).json().total_count).toBe(
      0,
    );
    const operatorRequests = await call(colleague.token, 'GET', '/api/admin/access_requests/my/');
    expect(operatorRequests.json().access_requests.map((row: { id: number }) => row.id)).toContain(
      invite.json().id,
    );
  });

  it('a change of role and a removal take effect on the next request, and both are in the history', async () => {
    const url = `/api/admin/barriers/${barrier.id}/phones/my/`;
    expect((await call(colleague.token, 'GET', url)).statusCode).toBe(200);
    const changed = await call(owner.token, 'PATCH', `${staffUrl()}${colleague.id}/`, { role: 'dispatcher' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().role).toBe('dispatcher');
    expect((await call(colleague.token, 'GET', url)).statusCode).toBe(403);

    const promoted = await call(owner.token, 'PATCH', `${staffUrl()}${colleague.id}/`, { role: 'manager' });
    expect(promoted.statusCode).toBe(200);
    const edit = await call(colleague.token, 'PATCH', `/api/admin/barriers/${barrier.id}/`, {
      additional_info: 'Шлагбаум у ворот',
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().my_role).toBe('manager');

    const removed = await call(owner.token, 'DELETE', `${staffUrl()}${colleague.id}/`);
    expect(removed.statusCode).toBe(204);
    const after = await call(colleague.token, 'GET', `/api/admin/barriers/${barrier.id}/`);
    expect(after.statusCode).toBe(404);
    expect(after.json().code).toBe('barrier_not_found');
    const list = await call(colleague.token, 'GET', '/api/admin/barriers/my/');
    expect(list.json().barriers.map((item: { id: number }) => item.id)).toEqual([ownBarrierOfColleague.id]);
    expect((await call(owner.token, 'DELETE', `${staffUrl()}${colleague.id}/`)).json().code).toBe(
      'staff_not_found',
    );

    const history = await call(
      owner.token,
      'GET',
      `/api/admin/barriers/${barrier.id}/actions/?action_type=barrier_setting&page_size=100`,
    );
    const names = history
      .json()
      .actions.map((action: { setting_name: string; author_name: string }) => [
        action.setting_name,
        action.author_name,
      ]);
    expect(names).toEqual(
      expect.arrayContaining([
        ['Добавлен администратор Ольга Операторова (оператор)', 'Хозяин Двора'],
        ['Добавлен администратор Дмитрий Диспетчеров (диспетчер)', 'Хозяин Двора'],
        ['Изменена роль администратора Ольга Операторова (диспетчер)', 'Хозяин Двора'],
        ['Изменена роль администратора Ольга Операторова (управляющий)', 'Хозяин Двора'],
        ['Удалён администратор Ольга Операторова (управляющий)', 'Хозяин Двора'],
      ]),
    );
  });

  it('users never see staff changes in their history', async () => {
    const mine = await call(member.token, 'GET', `/api/barriers/${barrier.id}/actions/?page_size=100`);
    expect(mine.statusCode).toBe(200);
    expect(mine.body).not.toContain('администратор');
  });
});
