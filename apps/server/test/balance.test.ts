import { describe, expect, it } from 'vitest';
import { createAdmin, createUser } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('GET /api/admin/balance/', () => {
  const t = useTestApp();

  it('is unknown with the demo provider, and for administrators only', async () => {
    const admin = await createAdmin(t);
    const user = await createUser(t);
    const response = await t.request({ method: 'GET', url: '/api/admin/balance/', token: admin.token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ balance: null, currency: null });
    expect(
      (await t.request({ method: 'GET', url: '/api/admin/balance/', token: user.token })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/admin/balance/' })).statusCode).toBe(401);
  });

  it('documents the device endpoints in the OpenAPI document', async () => {
    const document = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const path of [
      '/api/admin/balance/',
      '/api/admin/phones/{id}/retry/',
      '/api/admin/barriers/{id}/settings/',
      '/api/sms/inbound/',
      '/api/sms/inbound/android/',
    ]) {
      expect(Object.keys(document.paths)).toContain(path);
    }
  });
});
