/**
 * Issue 40 item 4: a device number is reserved for a barrier only once its unit answered with its password.
 * Any administrator could register another estate's unit number first: `device_phone_taken` then blocked
 * the real owner and told which numbers were registered. Now an unconfirmed claim blocks nobody and tells
 * nothing; the first barrier whose unit confirms a command wins, and the other one is told on its own device
 * state, its commands no longer sent (docs/decisions/0030).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createBarrier } from './domain-factories.ts';
import { createAdmin, nextPhone } from './factories.ts';
import { useTestApp } from './test-app.ts';

describe('a device number belongs to the barrier whose unit confirmed it first', () => {
  let h: DeviceHarness;
  const t = useTestApp();
  beforeAll(async () => {
    h = createDeviceHarness(t);
  });

  it('lets the real owner name a number another administrator named first, and stops the squatter', async () => {
    const unitNumber = nextPhone();
    const squatter = await createAdmin(t, { fullName: 'Чужой' });
    const owner = await createAdmin(t, { fullName: 'Владелец' });
    const squatted = await createBarrier(t, squatter, { device_phone: unitNumber, device_password: '1111' });

    // The owner's creation succeeds: nothing tells him the number was named elsewhere.
    const real = await createBarrier(t, owner, { device_phone: unitNumber, device_password: '2580' });
    expect(real.device_phone).toBe(unitNumber);

    // His unit (password 2580) confirms his commands: the number is his from now on.
    await h.run(real.id);
    const mine = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${real.id}/`,
      token: owner.token,
    });
    expect(mine.json().device_state).toBe('ok');

    // The squatter's barrier sends nothing more, and says why on its own device state.
    const sentBefore = t.sentSms().filter((sms) => sms.to === unitNumber).length;
    await h.run(squatted.id);
    expect(t.sentSms().filter((sms) => sms.to === unitNumber).length).toBe(sentBefore);
    const his = await t.request({
      method: 'GET',
      url: `/api/admin/barriers/${squatted.id}/`,
      token: squatter.token,
    });
    expect(his.json().device_state).toBe('phone_elsewhere');
    expect(JSON.stringify(his.json())).not.toContain('Владелец');

    // Once confirmed, a new barrier with the number is refused.
    const third = await createAdmin(t);
    const refused = await t.request({
      method: 'POST',
      url: '/api/admin/barriers/',
      token: third.token,
      payload: {
        address: 'г. Москва, ул. Тестовая, д. 400',
        device_phone: unitNumber,
        device_model: 'RTU5025',
        device_password: '3333',
        device_phones_amount: 100,
        additional_info: '',
        is_public: true,
      },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('device_phone_taken');
  });
});
