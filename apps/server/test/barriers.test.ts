import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createUser, nextPhone } from './factories.ts';
import {
  createBarrier,
  createOwnerWithBarrier,
  createUserWithAccess,
  projectedDevice,
  queuedCommands,
} from './domain-factories.ts';
import { createTestApp, type TestApp } from './test-app.ts';

describe('barriers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('creation', () => {
    it('creates a barrier whose owner gets access and his primary phone, queued for the device', async () => {
      const owner = await createAdmin(t, { fullName: 'Иван Петров' });
      const response = await t.request({
        method: 'POST',
        url: '/api/admin/barriers/',
        token: owner.token,
        payload: {
          address: 'г. Москва, ул. Ленина, д. 1',
          device_phone: '+79990000001',
          device_model: 'RTU5025',
          device_password: '1234',
          device_phones_amount: 50,
          additional_info: 'Въезд со двора',
          is_public: true,
        },
      });
      expect(response.statusCode).toBe(201);
      const barrier = response.json();
      expect(barrier).toMatchObject({
        address: 'г. Москва, ул. Ленина, д. 1',
        device_phone: '+79990000001',
        device_model: 'RTU5025',
        device_phones_amount: 50,
        additional_info: 'Въезд со двора',
        is_public: true,
        owner: { id: owner.id, full_name: 'Иван Петров', phone: owner.phone },
      });
      expect(JSON.stringify(barrier)).not.toContain('1234');
      expect(barrier).not.toHaveProperty('device_password');

      const access = await t.request({ method: 'GET', url: `/api/barriers/${barrier.id}/check_access/`, token: owner.token });
      expect(access.json()).toEqual({ has_access: true });
      const phones = await t.request({ method: 'GET', url: `/api/barriers/${barrier.id}/phones/my/`, token: owner.token });
      expect(phones.statusCode).toBe(200);
      expect(phones.json().phones).toEqual([
        expect.objectContaining({ phone: owner.phone, type: 'primary', is_active: true, status: 'pending' }),
      ]);
      expect(await projectedDevice(t, barrier.id)).toEqual(new Map([[1, owner.phone]]));
      const commands = await queuedCommands(t, barrier.id);
      expect(commands.map((command) => command.kind)).toEqual(['add']);
    });
  });
});
