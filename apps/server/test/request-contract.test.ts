/**
 * DESIGN.md section 2, as a client that reads spec section 7 literally calls the API: authentication before
 * validation, a bodyless JSON PATCH, control characters on any text field, HEAD wherever GET works.
 */
import { ID_MESSAGE } from '@propusk/contracts/common';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createUser, type TestUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('request contract', () => {
  let user: TestUser;
  let admin: TestUser;
  const t = useTestApp();
  beforeAll(async () => {
    user = await createUser(t);
    admin = await createAdmin(t);
  });

  it('answers 401 to a call without a token whatever its body', async () => {
    for (const url of ['/api/users/me/phone/', '/api/users/me/password/', '/api/users/me/']) {
      const response = await t.request({ method: 'PATCH', url, payload: { nonsense: 1, phone: 5 } });
      expect(response.statusCode, url).toBe(401);
    }
    const admins = await t.request({
      method: 'POST',
      url: '/api/admin/barriers/',
      payload: {},
      token: user.token,
    });
    expect(admins.statusCode).toBe(403);
  });

  it('reads a JSON content type with no body as an empty object', async () => {
    // Before: 400 "Empty JSON body.". Now the call reaches the service (this user is none of the admin's: 404).
    const response = await t.request({
      method: 'PATCH',
      url: `/api/admin/users/${user.id}/unblock/`,
      token: admin.token,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json().detail).not.toBe('Empty JSON body.');
    const validated = await t.request({
      method: 'PATCH',
      url: '/api/users/me/',
      token: user.token,
      headers: { 'content-type': 'application/json' },
    });
    // An empty object, validated as such.
    expect(validated.statusCode).toBe(400);
    expect(validated.json()).toEqual({ non_field_errors: ['Provide full_name or phone_privacy.'] });
    const malformed = await t.request({
      method: 'PATCH',
      url: '/api/users/me/',
      token: user.token,
      headers: { 'content-type': 'application/json' },
      payload: '{"full_name":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ detail: 'Malformed JSON body.', code: 'malformed_json' });
  });

  it('refuses control characters on the field that holds them, and changes nothing', async () => {
    const before = (await t.request({ method: 'GET', url: '/api/users/me/', token: user.token })).json();
    const response = await t.request({
      method: 'PATCH',
      url: '/api/users/me/',
      token: user.token,
      payload: { full_name: 'Иван\u0000Петров' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ full_name: ['Must not contain control characters.'] });
    const after = (await t.request({ method: 'GET', url: '/api/users/me/', token: user.token })).json();
    expect(after.full_name).toBe(before.full_name);
    const nested = await t.request({
      method: 'GET',
      url: '/api/barriers/?search=%01',
      token: user.token,
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json()).toEqual({ search: ['Must not contain control characters.'] });
    // Line breaks and tabs are text.
    const text = await t.request({
      method: 'PATCH',
      url: '/api/users/me/',
      token: user.token,
      payload: { full_name: 'Иван\tПетров' },
    });
    expect(text.statusCode).toBe(200);
  });

  it('answers 400, never 500, to hostile input found by npm run bench:resilience', async () => {
    // A body nested 20,000 levels deep (the control-character scan used to recurse and overflow the stack).
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const nested = await t.request({
      method: 'PATCH',
      url: '/api/users/me/',
      token: user.token,
      headers: { 'content-type': 'application/json' },
      payload: deep,
    });
    expect(nested.statusCode, nested.body).toBe(400);
    const array = await t.request({
      method: 'POST',
      url: '/api/logs/',
      token: user.token,
      headers: { 'content-type': 'application/json' },
      payload: `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    });
    expect(array.statusCode, array.body).toBe(400);
    // An id beyond PostgreSQL's integer (it used to reach the database and fail there).
    for (const [method, url] of [
      ['GET', '/api/admin/barriers/2147483648/settings/'],
      ['DELETE', '/api/phones/2147483648/'],
      ['GET', '/api/barriers/99999999999999999999/'],
    ] as const) {
      const response = await t.request({
        method,
        url,
        token: method === 'DELETE' ? user.token : admin.token,
      });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(400);
      expect(response.json().id).toContain(ID_MESSAGE);
    }
    // A field error on the settings route (its 400 was declared as {detail} only: the answer became a 500).
    const setting = await t.request({
      method: 'POST',
      url: '/api/admin/barriers/0/settings/',
      token: admin.token,
      payload: { setting: [], params: false },
    });
    expect(setting.statusCode, setting.body).toBe(400);
    // Malformed JSON on the device-check routes (their 400 was declared as field lists only).
    for (const [method, url] of [
      ['PUT', '/api/admin/barriers/1/device-profile/'],
      ['PUT', '/api/admin/barriers/1/device-check/audit/'],
      ['POST', '/api/admin/barriers/1/device-check/'],
    ] as const) {
      const response = await t.request({
        method,
        url,
        token: admin.token,
        headers: { 'content-type': 'application/json' },
        payload: '{"a":',
      });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(400);
    }
  });

  it('answers HEAD wherever GET works: API routes and client-side routes', async () => {
    const health = await t.request({ method: 'HEAD', url: '/api/health/' });
    expect(health.statusCode).toBe(200);
    const page = await t.request({ method: 'HEAD', url: '/login' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const missing = await t.request({ method: 'HEAD', url: '/api/nothing-here/' });
    expect(missing.statusCode).toBe(404);
  });
});
