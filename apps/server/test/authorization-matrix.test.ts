import { readFileSync } from 'node:fs';
/**
 * Every call of the barrier domain and every administrator route, as anonymous, another user, another
 * administrator, the barrier's staff (manager, operator, dispatcher: issues 14 and 16) and the rightful caller
 * (the user whose phone or request it is; on the administrator side the weakest role that holds the route's
 * permission, so each permission is shown to work for the least of its holders). Strangers get the right
 * status and no foreign data; a role without the permission gets 403; their attempts change nothing; the
 * rightful caller succeeds. A route of the OpenAPI document missing here fails the last test.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type BarrierPermission,
  type BarrierRole,
  roleHolds,
  type StaffRole,
} from '../src/modules/barrier-policy/policy.ts';
import { addPhone, createBarrier, grantAccess, makeKnownTo, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { csvFile, multipart } from './import-helpers.ts';
import { useTestApp } from './test-app.ts';

const exampleDefinition = JSON.parse(
  readFileSync(new URL('../../../docs/devices/examples/defined-model.json', import.meta.url), 'utf8'),
).definition;

type Caller = 'anonymous' | 'otherUser' | 'otherAdmin' | StaffRole | 'rightful';
const STAFF: StaffRole[] = ['manager', 'operator', 'dispatcher'];
/** The rightful caller of an administrator route: the first of these that holds its permission. */
const WEAKEST_FIRST: BarrierRole[] = ['dispatcher', 'operator', 'manager', 'owner'];
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface Entry {
  method: Method;
  url: () => string;
  body?: (caller: TestUser | undefined) => object;
  /** Who the rightful caller is (administrator routes with a permission: see `permission`). */
  rightful: 'owner' | 'member' | 'invitee';
  expected: Record<'anonymous' | 'otherUser' | 'otherAdmin' | 'rightful', number>;
  /**
   * The permission an administrator route needs on the barrier: staff without it get 403 (or `staff`), the
   * rightful caller is the weakest role that holds it, and reads are also made by every other holder.
   */
  permission?: BarrierPermission;
  /** The rightful caller when it is not the weakest holder of `permission`. */
  rightfulRole?: BarrierRole;
  /** Statuses of staff roles that differ from the rule above (these are called even if they hold it). */
  staff?: Partial<Record<StaffRole, number>>;
  /** The call lawfully shows data about others (search by exact phone, creating one's own barrier). */
  foreignDataAllowed?: boolean;
  /** A body that is not JSON (a file upload): sent as given, with its content type. */
  upload?: () => { payload: Buffer; headers: Record<string, string> };
}

/** A guest pass's window: the next three hours of the test clock. */
const guestWindowFrom = (now: Date) => ({
  start: now.toISOString(),
  end: new Date(now.getTime() + 3 * 3600_000).toISOString(),
});

const WEEKDAY = { monday: [{ start_time: '08:00', end_time: '12:00' }] };

describe('authorization matrix', () => {
  let owner: TestUser;
  let member: TestUser;
  let invitee: TestUser;
  let secondInvitee: TestUser;
  let blockee: TestUser;
  let removee: TestUser;
  let otherUser: TestUser;
  let otherAdmin: TestUser;
  const staff = {} as Record<StaffRole, TestUser>;
  let staffToAdd: TestUser;
  let barrier: TestBarrier;
  const ids = {
    phone: 0,
    phoneToDelete: 0,
    phoneForAdminToDelete: 0,
    schedulePhone: 0,
    action: 0,
    request: 0,
    guestPass: 0,
    guestPassForAdmin: 0,
    phoneInvitation: 0,
    setting: 2_000_000_000,
    hold: 0,
    mute: 0,
    deviceModel: 0,
  };
  let secrets: string[] = [];
  let modelNames = 0;

  const t = useTestApp();
  beforeAll(async () => {
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
    const model = await t.request({
      method: 'POST',
      url: '/api/admin/device-models/',
      token: owner.token,
      payload: { definition: exampleDefinition },
    });
    expect(model.statusCode, model.body).toBe(200);
    ids.deviceModel = model.json().id;
    const otherBarrier = await createBarrier(t, otherAdmin, { address: 'Чужой проезд' });
    // The invitee has muted the other administrator (issue 40 item 4): a mute to lift below.
    const otherInvitation = await t.request({
      method: 'POST',
      url: '/api/admin/access_requests/',
      token: otherAdmin.token,
      payload: { user: invitee.id, barrier: otherBarrier.id },
    });
    expect(otherInvitation.statusCode, otherInvitation.body).toBe(201);
    const muted = await t.request({
      method: 'POST',
      url: `/api/access_requests/${otherInvitation.json().id}/mute/`,
      token: invitee.token,
    });
    expect(muted.statusCode, muted.body).toBe(204);
    ids.mute = (
      await t.request({ method: 'GET', url: '/api/invitation_mutes/', token: invitee.token })
    ).json().mutes[0].id;
    for (const role of STAFF) {
      staff[role] = await createAdmin(t);
      await makeKnownTo(t, barrier, staff[role]);
      const added = await t.request({
        method: 'POST',
        url: `/api/admin/barriers/${barrier.id}/staff/`,
        token: owner.token,
        payload: { phone: staff[role].phone, role },
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    staffToAdd = await createAdmin(t);
    await makeKnownTo(t, barrier, staffToAdd);

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
    for (const key of ['guestPass', 'guestPassForAdmin'] as const) {
      const pass = await t.request({
        method: 'POST',
        url: `/api/barriers/${barrier.id}/guest-passes/`,
        token: member.token,
        payload: guestWindow(),
      });
      ids[key] = pass.json().id;
    }
    const byNumber = await t.request({
      method: 'POST',
      url: '/api/admin/phone_invitations/',
      token: owner.token,
      payload: { barrier: barrier.id, phone: nextPhone() },
    });
    ids.phoneInvitation = byNumber.json().phone_invitation.id;
    // A hold running on another barrier of the owner: read and ended by the matrix.
    const heldBarrier = await createBarrier(t, owner, {
      address: 'Удерживаемый проезд, 7',
      is_public: false,
    });
    for (const role of STAFF) {
      const added = await t.request({
        method: 'POST',
        url: `/api/admin/barriers/${heldBarrier.id}/staff/`,
        token: owner.token,
        payload: { phone: staff[role].phone, role },
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    const hold = await t.request({
      method: 'POST',
      url: '/api/admin/emergency-holds/',
      token: owner.token,
      payload: { barrier_ids: [heldBarrier.id], reason: 'Учения по матрице' },
    });
    expect(hold.statusCode, hold.body).toBe(201);
    ids.hold = hold.json().id;
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
      'Удерживаемый проезд, 7',
      'Учения по матрице',
      ...phones.json().phones.map((phone: { phone: string }) => phone.phone),
    ];
  });
  const guestWindow = () => guestWindowFrom(t.clock.now());

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
    // Mutes (issue 40 item 4): one's own list, a mute from one's own invitation, lifting one's own mute.
    {
      method: 'GET',
      url: () => '/api/invitation_mutes/',
      rightful: 'invitee',
      expected: { ...deny(200, 200), rightful: 200 },
    },
    {
      method: 'POST',
      url: () => `/api/access_requests/${ids.request}/mute/`,
      rightful: 'invitee',
      expected: user(204),
    },
    {
      method: 'DELETE',
      url: () => `/api/invitation_mutes/${ids.mute}/`,
      rightful: 'invitee',
      expected: user(204),
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
      permission: 'requests.manage',
      expected: admin(201),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/access_requests/${ids.request}/`,
      body: () => ({ status: 'cancelled' }),
      rightful: 'owner',
      permission: 'requests.manage',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/users/${member.id}/`,
      rightful: 'owner',
      permission: 'users.manage',
      staff: { dispatcher: 404 },
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => '/api/admin/phone_invitations/',
      rightful: 'owner',
      expected: { ...deny(403, 200), rightful: 200 },
    },
    {
      method: 'POST',
      url: () => '/api/admin/phone_invitations/',
      body: () => ({ barrier: barrier.id, phone: nextPhone() }),
      rightful: 'owner',
      permission: 'users.manage',
      expected: admin(201),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/phone_invitations/${ids.phoneInvitation}/`,
      rightful: 'owner',
      permission: 'users.manage',
      // An invitation on a barrier where he may not manage users is one he cannot know of.
      staff: { dispatcher: 404 },
      expected: admin(204),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/users/export/?format=csv`,
      rightful: 'owner',
      permission: 'users.manage',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/actions/export/?format=xlsx`,
      rightful: 'owner',
      permission: 'history.view',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => '/api/admin/users/search/',
      body: () => ({ phone: member.phone }),
      rightful: 'owner',
      // Issue 28 part 2: another administrator's search finds no stranger (the same 404 as no account).
      expected: { ...deny(403, 404), rightful: 200 },
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
      url: () => '/api/admin/balance/',
      rightful: 'owner',
      expected: { ...deny(403, 200), rightful: 200 },
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
      permission: 'barrier.view',
      expected: admin(200),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/barriers/${barrier.id}/`,
      body: () => ({ additional_info: 'Изменено владельцем' }),
      rightful: 'owner',
      permission: 'barrier.edit',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/limits/`,
      rightful: 'owner',
      permission: 'barrier.view',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/device-log/`,
      rightful: 'owner',
      permission: 'device.health',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/device-health/`,
      rightful: 'owner',
      permission: 'device.health',
      expected: admin(200),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/barriers/${barrier.id}/limits/`,
      body: () => ({ user_phone_limit: 50 }),
      rightful: 'owner',
      permission: 'barrier.edit',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/users/`,
      rightful: 'owner',
      permission: 'users.manage',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/blocked/`,
      rightful: 'owner',
      permission: 'users.manage',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/import/template/?format=csv`,
      rightful: 'owner',
      permission: 'users.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/import/preview/`,
      upload: () => multipart(csvFile([[nextPhone(), 'Жилец', 'кв. 1', '', '', '', '']])),
      rightful: 'owner',
      permission: 'users.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      // A digest of another file: the rightful owner is told so (409), nothing is imported.
      url: () => `/api/admin/barriers/${barrier.id}/import/?digest=${'0'.repeat(64)}`,
      upload: () => multipart(csvFile([[nextPhone(), 'Жилец', 'кв. 1', '', '', '', '']])),
      rightful: 'owner',
      permission: 'users.manage',
      expected: admin(409),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/phones/my/?user=${member.id}`,
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/phones/`,
      body: () => ({ user: member.id, phone: nextPhone(), name: 'От владельца', type: 'permanent' }),
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(201),
    },
    {
      method: 'GET',
      url: () => `/api/admin/phones/${ids.phone}/`,
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(200),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/phones/${ids.phone}/`,
      body: () => ({ name: 'Владелец переименовал' }),
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/phones/${ids.schedulePhone}/schedule/`,
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(200),
    },
    {
      method: 'PUT',
      url: () => `/api/admin/phones/${ids.schedulePhone}/schedule/`,
      body: () => WEEKDAY,
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/barriers/${barrier.id}/guest-passes/`,
      rightful: 'member',
      expected: user(200),
    },
    {
      method: 'POST',
      url: () => `/api/barriers/${barrier.id}/guest-passes/`,
      body: () => guestWindow(),
      rightful: 'member',
      expected: user(201),
    },
    {
      method: 'DELETE',
      url: () => `/api/barriers/${barrier.id}/guest-passes/${ids.guestPass}/`,
      rightful: 'member',
      expected: user(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/guest-passes/`,
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/guest-passes/`,
      body: () => ({ ...guestWindow(), user: member.id }),
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(201),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/barriers/${barrier.id}/guest-passes/${ids.guestPassForAdmin}/`,
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/actions/`,
      rightful: 'owner',
      permission: 'history.view',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/actions/${ids.action}/`,
      rightful: 'owner',
      permission: 'history.view',
      expected: admin(200),
    },
    // The relay (issue 16): openings, then the emergency holds.
    {
      method: 'POST',
      url: () => `/api/barriers/${barrier.id}/open/`,
      rightful: 'member',
      expected: user(201),
    },
    {
      method: 'GET',
      url: () => `/api/barriers/${barrier.id}/openings/`,
      rightful: 'member',
      expected: user(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/open/`,
      rightful: 'owner',
      permission: 'relay.open',
      expected: admin(201),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/openings/?status=sent`,
      rightful: 'owner',
      permission: 'relay.open',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => '/api/admin/emergency-holds/',
      rightful: 'owner',
      expected: { ...deny(403, 200), rightful: 200 },
    },
    {
      method: 'GET',
      url: () => `/api/admin/emergency-holds/${ids.hold}/`,
      rightful: 'owner',
      permission: 'relay.hold',
      // A hold is visible only on barriers where one may hold: to the operator it does not exist.
      staff: { operator: 404 },
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => '/api/admin/emergency-holds/',
      body: () => ({ barrier_ids: [barrier.id], reason: 'Пожарная тревога' }),
      rightful: 'owner',
      permission: 'relay.hold',
      expected: admin(201),
    },
    {
      method: 'POST',
      url: () => `/api/admin/emergency-holds/${ids.hold}/end/`,
      rightful: 'owner',
      permission: 'relay.hold',
      // A hold is visible only on barriers where one may hold: to the operator it does not exist.
      staff: { operator: 404 },
      expected: admin(200),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/phones/${ids.phoneForAdminToDelete}/`,
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(204),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/users/${blockee.id}/block/`,
      body: () => ({ reason: 'Матрица' }),
      rightful: 'owner',
      // The block is the owner's (it closes all of his barriers): staff who reach the user are refused.
      permission: 'users.manage',
      rightfulRole: 'owner',
      staff: { manager: 403, operator: 403, dispatcher: 404 },
      expected: admin(200),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/users/${blockee.id}/unblock/`,
      rightful: 'owner',
      // The block is the owner's (it closes all of his barriers): staff who reach the user are refused.
      permission: 'users.manage',
      rightfulRole: 'owner',
      staff: { manager: 403, operator: 403, dispatcher: 404 },
      expected: admin(200),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/barriers/${barrier.id}/users/${removee.id}/`,
      rightful: 'owner',
      permission: 'users.manage',
      expected: admin(204),
    },
    {
      method: 'DELETE',
      url: () => `/api/barriers/${barrier.id}/leave/`,
      rightful: 'member',
      expected: user(204),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/staff/`,
      rightful: 'owner',
      permission: 'staff.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/staff/`,
      body: () => ({ phone: staffToAdd.phone, role: 'operator' }),
      rightful: 'owner',
      permission: 'staff.manage',
      expected: admin(201),
    },
    {
      method: 'PATCH',
      url: () => `/api/admin/barriers/${barrier.id}/staff/${staffToAdd.id}/`,
      body: () => ({ role: 'dispatcher' }),
      rightful: 'owner',
      permission: 'staff.manage',
      expected: admin(200),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/barriers/${barrier.id}/staff/${staffToAdd.id}/`,
      rightful: 'owner',
      permission: 'staff.manage',
      expected: admin(204),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/settings/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/settings/`,
      // Past the permission the unknown setting is refused: no command, the snapshot stays the same.
      body: () => ({ setting: 'no_such_setting' }),
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(400),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/settings/commands/${ids.setting}/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(404),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/device-profile/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      method: 'PUT',
      url: () => `/api/admin/barriers/${barrier.id}/device-profile/`,
      body: () => ({}),
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    // The conformance run (issue 42): its plan and latest run, a start, a stop.
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/conformance/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/conformance/`,
      body: () => ({ include_password: false }),
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/conformance/stop/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      // No run is under way here (stopped above): the rightful caller reaches the run's state (409).
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/conformance/answer/`,
      body: () => ({ answer: 'skip' }),
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(409),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/device-profile/export/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      // A file of no known format: the rightful caller reaches the file check (400), nothing changes.
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/device-profile/import/`,
      body: () => ({ file: '{}' }),
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(400),
    },
    {
      method: 'PUT',
      url: () => `/api/admin/barriers/${barrier.id}/device-check/audit/`,
      body: () => ({ every_days: null }),
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/device-check/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/device-check/repair/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(409),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/device-check/`,
      body: () => ({}),
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(201),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/device-check/alarm-layout/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      // No gateway number is configured here: the move is not available (409), and nothing is written.
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/device-check/alarm-layout/`,
      body: () => ({ expected_sms: 0 }),
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(409),
    },
    {
      method: 'POST',
      url: () => `/api/admin/barriers/${barrier.id}/device-check/factory-reset/`,
      rightful: 'owner',
      permission: 'settings.manage',
      expected: admin(200),
    },
    {
      method: 'POST',
      url: () => `/api/admin/phones/${ids.phone}/retry/`,
      rightful: 'owner',
      permission: 'phones.manage',
      expected: admin(409),
    },
    // Models an administrator defines (issue 42 item 4): his own only; another's is 404.
    {
      method: 'GET',
      url: () => '/api/admin/device-models/',
      rightful: 'owner',
      expected: { ...deny(403, 200), rightful: 200 },
    },
    {
      // Any administrator defines models of his own (a new name each call: names are unique per owner).
      method: 'POST',
      url: () => '/api/admin/device-models/',
      body: () => {
        modelNames += 1;
        return { definition: { ...exampleDefinition, name: `Модель матрицы ${modelNames}` } };
      },
      rightful: 'owner',
      expected: { ...deny(403, 200), rightful: 200 },
    },
    {
      method: 'PUT',
      url: () => `/api/admin/device-models/${ids.deviceModel}/`,
      body: () => ({ definition: exampleDefinition }),
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/device-models/${ids.deviceModel}/export/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'GET',
      url: () => `/api/admin/barriers/${barrier.id}/device-model/`,
      rightful: 'owner',
      permission: 'barrier.view',
      expected: admin(200),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/device-models/${ids.deviceModel}/`,
      rightful: 'owner',
      expected: admin(200),
    },
    {
      method: 'DELETE',
      url: () => `/api/admin/barriers/${barrier.id}/`,
      rightful: 'owner',
      permission: 'barrier.delete',
      expected: admin(204),
    },
  ];

  /** Who calls as `rightful`: the user side's party, or the weakest holder of an administrator route's permission. */
  const rightfulRole = (entry: Entry): BarrierRole | null => {
    if (!entry.permission) return null;
    if (entry.rightfulRole) return entry.rightfulRole;
    const permission = entry.permission;
    return WEAKEST_FIRST.find((role) => roleHolds(role, permission)) ?? 'owner';
  };
  const userOf = (caller: Caller, entry: Entry): TestUser | undefined => {
    if (caller === 'anonymous') return undefined;
    if (caller === 'otherUser') return otherUser;
    if (caller === 'otherAdmin') return otherAdmin;
    if (caller === 'rightful') {
      const role = rightfulRole(entry);
      if (role) return role === 'owner' ? owner : staff[role];
      return { owner, member, invitee }[entry.rightful];
    }
    return staff[caller];
  };
  /** What a staff role gets on an entry (null: not called in the strangers' pass). */
  const staffExpectation = (entry: Entry, role: StaffRole): number | null => {
    if (!entry.permission) return null;
    const special = entry.staff?.[role];
    if (special !== undefined) return special;
    if (!roleHolds(role, entry.permission)) return 403;
    // Holders read like the rightful caller; their changes are left to the rightful pass.
    return entry.method === 'GET' && rightfulRole(entry) !== role ? entry.expected.rightful : null;
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

  it('strangers and staff without the permission get the right status, see nothing and change nothing', async () => {
    const before = await snapshot();
    for (const entry of entries) {
      const callers: [Caller, number][] = (['anonymous', 'otherUser', 'otherAdmin'] as const).map(
        (caller) => [caller, entry.expected[caller]],
      );
      for (const role of STAFF) {
        const status = staffExpectation(entry, role);
        if (status !== null) callers.push([role, status]);
      }
      for (const [caller, status] of callers) {
        const response = await call(caller, entry);
        const label = `${caller} ${entry.method} ${entry.url()}`;
        expect(response.statusCode, `${label}: ${response.body}`).toBe(status);
        const stranger = caller === 'anonymous' || caller === 'otherUser';
        if (
          response.statusCode >= 400 ||
          stranger ||
          (caller === 'otherAdmin' && !entry.foreignDataAllowed)
        ) {
          for (const secret of secrets)
            expect(response.body, `${label} leaks ${secret}`).not.toContain(secret);
        }
        if (response.statusCode >= 400)
          expect(Object.keys(response.json()).sort(), label).toEqual(['code', 'detail']);
        if (response.statusCode === 403 && STAFF.includes(caller as StaffRole) && status === 403) {
          expect(response.json().code, label).toMatch(/^(barrier_permission_denied)$/);
        }
      }
    }
    expect(await snapshot()).toEqual(before);
    // Every call of the matrix for every caller: seconds on a quiet host, 27 s of a 30 s default beside CI's
    // journeys. A limit against a hang, not a speed check.
  }, 120_000);

  it('the rightful caller succeeds on every call', async () => {
    for (const entry of entries) {
      const response = await call('rightful', entry);
      const who = rightfulRole(entry) ?? entry.rightful;
      expect(response.statusCode, `${who} ${entry.method} ${entry.url()}: ${response.body}`).toBe(
        entry.expected.rightful,
      );
    }
  }, 120_000);

  it('covers every route of the barrier domain and every administrator route', async () => {
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
      'relay',
    ]);
    const routes = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (path.startsWith('/api/admin/') || operation.tags?.some((tag) => domainTags.has(tag))) {
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
