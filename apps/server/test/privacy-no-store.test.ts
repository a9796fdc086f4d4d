/**
 * Issue 28 part 5: every /api/ answer carries `Cache-Control: no-store`, so that no proxy or shared browser
 * keeps a token or a person's data: the login, the refresh, the profile, a list, and the errors (400, 401,
 * 404 of a route that does not exist, 429). Before the fix none of them had a Cache-Control at all.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { login, refresh, requestCode, verifiedToken } from './auth-helpers.ts';
import { createOwnerWithBarrier } from './domain-factories.ts';
import { nextPhone } from './factories.ts';
import { useTestApp } from './test-app.ts';

const noStore = (response: LightMyRequestResponse, what: string) =>
  expect(response.headers['cache-control'], what).toBe('no-store');

describe('Cache-Control: no-store on every API answer (issue 28 part 5)', () => {
  const t = useTestApp({ env: { ADMIN_LOOKUPS_PER_HOUR: '1' } });

  it('marks the answers that carry tokens and personal data', async () => {
    const phone = nextPhone();
    const code = await requestCode(t, nextPhone(), 'login');
    expect(code.statusCode).toBe(201);
    noStore(code, 'code request');
    const token = await verifiedToken(t, phone, 'login');
    const loggedIn = await login(t, phone, token);
    expect(loggedIn.statusCode).toBe(200);
    noStore(loggedIn, 'login');
    const refreshed = await refresh(t, loggedIn.json().refresh_token);
    expect(refreshed.statusCode).toBe(200);
    noStore(refreshed, 'refresh');
    const me = await t.request({ method: 'GET', url: '/api/users/me/', token: refreshed.json().access });
    expect(me.statusCode).toBe(200);
    noStore(me, 'profile');
    const { owner, barrier } = await createOwnerWithBarrier(t);
    const users = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${barrier.id}/users/?search=%2B7900`,
      token: owner.token,
    });
    expect(users.statusCode).toBe(200);
    noStore(users, 'a list');
    // Errors too.
    const search = () =>
      t.request({
        method: 'POST',
        url: '/api/admin/users/search/',
        token: owner.token,
        payload: { phone: nextPhone() },
      });
    expect((await search()).statusCode).toBe(404);
    const limited = await search();
    expect(limited.statusCode).toBe(429);
    noStore(limited, '429');
    const missing = await t.request({ method: 'GET', url: '/api/no-such-thing/' });
    expect(missing.statusCode).toBe(404);
    noStore(missing, 'unknown route');
    const anonymous = await t.request({ method: 'GET', url: '/api/users/me/' });
    expect(anonymous.statusCode).toBe(401);
    noStore(anonymous, '401');
    const invalid = await t.request({ method: 'POST', url: '/api/auth/codes/', payload: { phone: 'x' } });
    expect(invalid.statusCode).toBe(400);
    noStore(invalid, '400');
  });
});
