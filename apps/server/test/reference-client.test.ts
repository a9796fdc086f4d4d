/**
 * The API as the client the spec was written from calls it (spec.md section 7, DESIGN.md section 2): every
 * call sends a JSON content type, with or without a body; ids read from one answer build the next URL; a
 * date-time is pre-filled from its first 16 characters and sent back as it is; it reads the fields section 7
 * names and nothing else. Each journey fails on the first call that answers otherwise than that client
 * expects.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createBarrier, createUserWithAccess } from './domain-factories.ts';
import { createAdmin, nextPhone, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

type Kind = 'number' | 'string' | 'boolean' | 'array' | 'object' | 'string?' | 'number?';

/** The fields a screen reads, with the JSON type it reads them as. */
function expectReads(response: LightMyRequestResponse, fields: Record<string, Kind>, what: string) {
  const body = response.json() as Record<string, unknown>;
  for (const [field, kind] of Object.entries(fields)) {
    const value = body[field];
    const ok =
      kind === 'array'
        ? Array.isArray(value)
        : kind === 'object'
          ? typeof value === 'object' && value !== null && !Array.isArray(value)
          : kind === 'string?'
            ? value === null || typeof value === 'string'
            : kind === 'number?'
              ? value === null || typeof value === 'number'
              : typeof value === kind;
    expect(ok, `${what}: ${field} should be ${kind}, got ${JSON.stringify(value)}`).toBe(true);
  }
  return body;
}

describe('the spec’s reference client, call by call', () => {
  const t = useTestApp();

  /** How that client calls: always a JSON content type; a body only when it has one. */
  async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    options: { token?: string; body?: unknown } = {},
  ) {
    const response = await t.request({
      method,
      url,
      headers: {
        'content-type': 'application/json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
    });
    return response;
  }

  async function expectStatus(response: LightMyRequestResponse, status: number, what: string) {
    expect(response.statusCode, `${what}: ${response.body}`).toBe(status);
    return response;
  }

  async function logIn(phone: string): Promise<{ access: string; refresh: string }> {
    const admin = await call('POST', '/api/users/check_admin/', { body: { phone } });
    expectReads(await expectStatus(admin, 200, 'check_admin'), { is_admin: 'boolean' }, 'check_admin');
    const sent = await expectStatus(
      await call('POST', '/api/auth/codes/', { body: { phone, mode: 'login' } }),
      201,
      'codes',
    );
    const { verification_token } = expectReads(sent, { verification_token: 'string' }, 'codes') as {
      verification_token: string;
    };
    const verified = await call('PATCH', '/api/auth/codes/verify/', {
      body: { phone, code: t.lastCode(phone), verification_token },
    });
    expect(
      expectReads(await expectStatus(verified, 200, 'verify'), { message: 'string' }, 'verify').message,
    ).toBe('Code verified successfully.');
    const tokens = await call('POST', '/api/auth/login/', { body: { phone, verification_token } });
    const body = expectReads(
      await expectStatus(tokens, 200, 'login'),
      { access_token: 'string', refresh_token: 'string' },
      'login',
    );
    return { access: body.access_token as string, refresh: body.refresh_token as string };
  }

  it('logs a new resident in, refreshes, and reads and edits the profile', async () => {
    const phone = nextPhone();
    const { access, refresh } = await logIn(phone);
    const refreshed = await call('POST', '/api/auth/token/refresh/', { body: { refresh } });
    expectReads(await expectStatus(refreshed, 200, 'refresh'), { access: 'string' }, 'refresh');
    const me = expectReads(
      await expectStatus(await call('GET', '/api/users/me/', { token: access }), 200, 'me'),
      { id: 'number', full_name: 'string?', phone: 'string', phone_privacy: 'string' },
      'me',
    );
    expect(me.phone).toBe(phone);
    await expectStatus(
      await call('PATCH', '/api/users/me/', { token: access, body: { full_name: 'Клиент Справочный' } }),
      200,
      'patch me',
    );
    // Calls that need a login answer 401 without one, whatever the body (the client then refreshes).
    await expectStatus(await call('PATCH', '/api/users/me/phone/', { body: {} }), 401, 'phone, no token');
    await expectStatus(
      await call('PATCH', '/api/users/me/password/', { body: {} }),
      401,
      'password, no token',
    );
  });

  /** A code of an own-account mode as that client asks for it: without a bearer token (issue 29 part 11). */
  async function verifiedCode(phone: string, mode: string): Promise<string> {
    const sent = await expectStatus(
      await call('POST', '/api/auth/codes/', { body: { phone, mode } }),
      201,
      `codes ${mode}`,
    );
    const { verification_token } = expectReads(sent, { verification_token: 'string' }, mode) as {
      verification_token: string;
    };
    await expectStatus(
      await call('PATCH', '/api/auth/codes/verify/', {
        body: { phone, code: t.lastCode(phone), verification_token },
      }),
      200,
      `verify ${mode}`,
    );
    return verification_token;
  }

  it('changes its phone number: both codes asked for without a login, then the change with one', async () => {
    const phone = nextPhone();
    const { access } = await logIn(phone);
    const old_verification_token = await verifiedCode(phone, 'change_phone_old');
    const newPhone = nextPhone();
    const new_verification_token = await verifiedCode(newPhone, 'change_phone_new');
    const changed = await call('PATCH', '/api/users/me/phone/', {
      token: access,
      body: { new_phone: newPhone, old_verification_token, new_verification_token },
    });
    expect(
      expectReads(await expectStatus(changed, 200, 'change phone'), { phone: 'string' }, 'phone').phone,
    ).toBe(newPhone);
    const me = await call('GET', '/api/users/me/', { token: access });
    expect((await expectStatus(me, 200, 'me after change')).json().phone).toBe(newPhone);
  });

  it('deletes its account: the code asked for without a login, then the deletion with one', async () => {
    const phone = nextPhone();
    const { access } = await logIn(phone);
    const verification_token = await verifiedCode(phone, 'delete_account');
    const deleted = await call('DELETE', '/api/users/me/', { token: access, body: { verification_token } });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    await expectStatus(await call('GET', '/api/users/me/', { token: access }), 401, 'me after deletion');
  });

  it('changes an administrator’s password: the code asked for without a login, then the change with one', async () => {
    const admin = await createAdmin(t, { password: 'Ст@рый-пароль-2026' });
    const verification_token = await verifiedCode(admin.phone, 'change_password');
    const changed = await call('PATCH', '/api/users/me/password/', {
      token: admin.token,
      body: {
        old_password: 'Ст@рый-пароль-2026',
        new_password: 'Новый-пароль-шлагбаума-7',
        verification_token,
      },
    });
    expectReads(await expectStatus(changed, 200, 'change password'), { message: 'string' }, 'password');
    // The client goes on with the session it holds (issue 40 item 9): its next call is answered.
    await expectStatus(
      await call('GET', '/api/users/me/', { token: admin.token }),
      200,
      'me after the change',
    );
    const step = await call('POST', '/api/auth/admin/password_verification/', {
      body: { phone: admin.phone, password: 'Новый-пароль-шлагбаума-7' },
    });
    await expectStatus(step, 200, 'password step with the new password');
  });

  it('is told in words, not a command, that an administrator’s password is not reset by SMS', async () => {
    const admin = await createAdmin(t);
    const refused = await call('POST', '/api/auth/codes/', {
      body: { phone: admin.phone, mode: 'reset_password' },
    });
    const body = expectReads(await expectStatus(refused, 403, 'reset code'), { detail: 'string' }, 'reset');
    expect(body.detail).toContain('Попросите оператора сервера');
    expect(body.detail).not.toMatch(/npm|cli|--/);
  });

  it('asks for a public barrier, then opens it from the request list by the id it reads there', async () => {
    const owner = await createAdmin(t, { fullName: 'Владелец' });
    const barrier = await createBarrier(t, owner, { address: 'г Москва, ул Справочная, д 1' });
    const { access } = await logIn(nextPhone());
    const me = (await call('GET', '/api/users/me/', { token: access })).json();
    const found = expectReads(
      await expectStatus(
        await call('GET', `/api/barriers/?page=1&page_size=5&address=${encodeURIComponent('Справочная')}`, {
          token: access,
        }),
        200,
        'barriers',
      ),
      { barriers: 'array', total_count: 'number' },
      'barriers',
    ) as { barriers: { id: number }[] };
    expect(found.barriers.map((item) => item.id)).toContain(barrier.id);
    expectReads(
      await expectStatus(
        await call('GET', `/api/barriers/${barrier.id}/check_access/`, { token: access }),
        200,
        'check',
      ),
      { has_access: 'boolean' },
      'check_access',
    );
    await expectStatus(
      await call('POST', '/api/access_requests/', {
        token: access,
        body: { user: me.id, barrier: barrier.id },
      }),
      201,
      'request',
    );
    const again = await call('POST', '/api/access_requests/', {
      token: access,
      body: { user: me.id, barrier: barrier.id },
    });
    expect(again.statusCode).toBe(409);
    expectReads(again, { detail: 'string', code: 'string' }, 'second request');

    const mine = expectReads(
      await expectStatus(
        await call('GET', '/api/access_requests/my/?type=outgoing', { token: access }),
        200,
        'my requests',
      ),
      { access_requests: 'array' },
      'my requests',
    ) as { access_requests: Record<string, unknown>[] };
    const [request] = mine.access_requests;
    expect(request).toMatchObject({
      user: me.id,
      barrier: barrier.id,
      status: 'pending',
      hidden_for_user: false,
    });
    // The client builds the barrier's URL from the request's `barrier`.
    const opened = await call('GET', `/api/barriers/${request?.barrier}/`, { token: access });
    const card = expectReads(
      await expectStatus(opened, 200, 'barrier from request'),
      { id: 'number', address: 'string', owner: 'object', device_phone: 'string?', is_public: 'boolean' },
      'barrier',
    );
    expect(card.address).toBe('г Москва, ул Справочная, д 1');
    await expectStatus(
      await call('PATCH', `/api/access_requests/${request?.id}/`, {
        token: access,
        body: { status: 'cancelled', hidden_for_user: true },
      }),
      200,
      'cancel',
    );
  });

  it('lets the administrator open a requester from the request list, accept, block and unblock without a body', async () => {
    const owner = await createAdmin(t, { fullName: 'Владелец' });
    const barrier = await createBarrier(t, owner);
    const { access } = await logIn(nextPhone());
    const me = (await call('GET', '/api/users/me/', { token: access })).json();
    await call('POST', '/api/access_requests/', {
      token: access,
      body: { user: me.id, barrier: barrier.id },
    });

    const incoming = (
      await expectStatus(
        await call('GET', '/api/admin/access_requests/my/?type=incoming&page=1&page_size=10', {
          token: owner.token,
        }),
        200,
        'admin requests',
      )
    ).json() as { access_requests: Record<string, unknown>[] };
    const request = incoming.access_requests.find((item) => item.barrier === barrier.id);
    expect(request).toMatchObject({ user: me.id, barrier: barrier.id, user_phone: me.phone });
    // The client builds the user's URL from the request's `user`.
    const profile = expectReads(
      await expectStatus(
        await call('GET', `/api/admin/users/${request?.user}/`, { token: owner.token }),
        200,
        'user',
      ),
      {
        id: 'number',
        full_name: 'string?',
        phone: 'string',
        role: 'string',
        is_active: 'boolean',
        phone_privacy: 'string',
      },
      'admin user',
    );
    expect(profile).toMatchObject({ role: 'user', is_active: true });
    await expectStatus(
      await call('PATCH', `/api/admin/access_requests/${request?.id}/`, {
        token: owner.token,
        body: { status: 'accepted' },
      }),
      200,
      'accept',
    );
    const users = (
      await expectStatus(
        await call('GET', `/api/admin/barriers/${barrier.id}/users/?page=1&page_size=10`, {
          token: owner.token,
        }),
        200,
        'barrier users',
      )
    ).json() as { users: Record<string, unknown>[]; total_count: number };
    expect(users.total_count).toBe(1);
    expect(users.users[0]).toMatchObject({ id: me.id, role: 'user', is_active: true });
    const searched = await call('POST', '/api/admin/users/search/', {
      token: owner.token,
      body: { phone: me.phone },
    });
    expectReads(
      await expectStatus(searched, 200, 'search'),
      { id: 'number', role: 'string', is_active: 'boolean' },
      'search',
    );

    const blocked = await call('PATCH', `/api/admin/users/${me.id}/block/`, {
      token: owner.token,
      body: { reason: 'Проверка' },
    });
    expect((await expectStatus(blocked, 200, 'block')).json().is_active).toBe(false);
    // No body, JSON content type: as the client sends it.
    const unblocked = await call('PATCH', `/api/admin/users/${me.id}/unblock/`, { token: owner.token });
    expect((await expectStatus(unblocked, 200, 'unblock')).json().is_active).toBe(true);
  });

  it('keeps an edited temporary window where it was entered: first 16 characters in, the same out', async () => {
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner);
    const resident = await createUserWithAccess(t, barrier, 'Жилец');
    const added = await call('POST', `/api/barriers/${barrier.id}/phones/`, {
      token: resident.token,
      body: {
        phone: nextPhone(),
        name: 'Гость',
        type: 'temporary',
        start_time: '2030-05-01T10:00',
        end_time: '2030-05-01T18:30',
        schedule: null,
      },
    });
    await expectStatus(added, 201, 'add temporary');
    const read = async (user: TestUser) => {
      const list = (
        await expectStatus(
          await call('GET', `/api/barriers/${barrier.id}/phones/my/?page=1&page_size=10`, {
            token: user.token,
          }),
          200,
          'my phones',
        )
      ).json() as { phones: Record<string, unknown>[] };
      return list.phones.find((phone) => phone.type === 'temporary') as Record<string, string>;
    };
    const before = await read(resident);
    // What the edit screen pre-fills.
    const start = before.start_time?.slice(0, 16);
    const end = before.end_time?.slice(0, 16);
    expect([start, end]).toEqual(['2030-05-01T10:00', '2030-05-01T18:30']);
    const saved = await call('PATCH', `/api/phones/${before.id}/`, {
      token: resident.token,
      body: { name: 'Гость Иванов', start_time: start, end_time: end },
    });
    await expectStatus(saved, 200, 'edit temporary');
    const after = await read(resident);
    expect([after.name, after.start_time?.slice(0, 16), after.end_time?.slice(0, 16)]).toEqual([
      'Гость Иванов',
      '2030-05-01T10:00',
      '2030-05-01T18:30',
    ]);
  });

  it('follows history to its phone: actions → action → phone, by the ids it reads', async () => {
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner);
    const resident = await createUserWithAccess(t, barrier, 'Жилец');
    await call('POST', `/api/barriers/${barrier.id}/phones/`, {
      token: resident.token,
      body: { phone: nextPhone(), name: 'Мама', type: 'permanent' },
    });
    const actions = expectReads(
      await expectStatus(
        await call('GET', `/api/barriers/${barrier.id}/actions/?page=1&page_size=10`, {
          token: resident.token,
        }),
        200,
        'actions',
      ),
      { actions: 'array', total_count: 'number' },
      'actions',
    ) as { actions: Record<string, unknown>[] };
    const added = actions.actions.find((action) => action.action_type === 'add_phone');
    expect(added).toBeDefined();
    const detail = expectReads(
      await expectStatus(
        await call('GET', `/api/actions/${added?.id}/`, { token: resident.token }),
        200,
        'action',
      ),
      { id: 'number', action_type: 'string', created_at: 'string', phone: 'number?' },
      'action',
    );
    const phone = expectReads(
      await expectStatus(
        await call('GET', `/api/phones/${detail.phone}/`, { token: resident.token }),
        200,
        'phone',
      ),
      { phone: 'string', type: 'string' },
      'phone',
    );
    expect(phone.type).toBe('permanent');

    const adminActions = (
      await expectStatus(
        await call('GET', `/api/admin/barriers/${barrier.id}/actions/?page=1&page_size=10`, {
          token: owner.token,
        }),
        200,
        'admin actions',
      )
    ).json() as { actions: Record<string, unknown>[] };
    const adminAdded = adminActions.actions.find((action) => action.action_type === 'add_phone');
    const adminDetail = (
      await expectStatus(
        await call('GET', `/api/admin/actions/${adminAdded?.id}/`, { token: owner.token }),
        200,
        'a',
      )
    ).json();
    expectReads(
      await expectStatus(
        await call('GET', `/api/admin/phones/${adminDetail.phone}/`, { token: owner.token }),
        200,
        'p',
      ),
      { phone: 'string', type: 'string' },
      'admin phone',
    );
  });

  it('reads the settings sheet as a map of settings with their params, and limits as seven numbers', async () => {
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner);
    const settings = expectReads(
      await expectStatus(
        await call('GET', `/api/admin/barriers/${barrier.id}/settings/`, { token: owner.token }),
        200,
        'settings',
      ),
      { settings: 'object' },
      'settings',
    ).settings as Record<string, Record<string, unknown>>;
    const entries = Object.values(settings);
    expect(entries.length).toBeGreaterThan(0);
    for (const setting of entries) {
      expect(setting).toMatchObject({
        name: expect.any(String),
        description: expect.any(String),
        template: expect.any(String),
        params: expect.any(Array),
      });
    }
    const limits = await call('GET', `/api/admin/barriers/${barrier.id}/limits/`, { token: owner.token });
    expectReads(
      await expectStatus(limits, 200, 'limits'),
      {
        user_phone_limit: 'number?',
        user_temp_phone_limit: 'number?',
        global_temp_phone_limit: 'number?',
        user_schedule_phone_limit: 'number?',
        global_schedule_phone_limit: 'number?',
        schedule_interval_limit: 'number?',
        sms_weekly_limit: 'number?',
      },
      'limits',
    );
  });
});
