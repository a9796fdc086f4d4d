/**
 * Issue 28 part 4: a whole journey through the app, every log line at level trace captured, and none of the
 * journey's phone numbers (in any form), names, tokens, codes, search terms or device password in clear.
 * Before the fix the code request wrote the phone, the access log the URL with `?search=%2B7900…` and the
 * guest link's token, and a client's log line whatever it was sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { phoneLogKey } from '../src/lib/log-privacy.ts';
import { createLogger } from '../src/lib/logger.ts';
import { login, requestCode, verifyCode } from './auth-helpers.ts';
import { createDeviceHarness, type DeviceHarness } from './device-harness.ts';
import { createAdmin, nextPhone } from './factories.ts';
import { captureLog } from './log-capture.ts';
import { useTestApp } from './test-app.ts';

/** Every form a number may take in a line: +7…, 7…, 8…, the ten digits, URL-encoded. */
const formsOf = (phone: string) => [
  phone,
  phone.slice(1),
  `8${phone.slice(2)}`,
  phone.slice(2),
  encodeURIComponent(phone),
];

describe('logs without personal data (issue 28 part 4)', () => {
  let h: DeviceHarness;
  const log = captureLog();
  const t = useTestApp({ logger: createLogger('trace', log.destination) });
  beforeAll(async () => {
    h = createDeviceHarness(t);
  });

  it('a full journey writes no phone, name, token, code or search term in clear', async () => {
    const secrets: string[] = [];
    const phones: string[] = [];
    const remember = (...values: (string | undefined | null)[]) => {
      for (const value of values) if (value) secrets.push(value);
    };

    // A resident logs in by code (the code request, a wrong code, the right one).
    const residentPhone = nextPhone();
    phones.push(residentPhone);
    const asked = await requestCode(t, residentPhone, 'login');
    expect(asked.statusCode, asked.body).toBe(201);
    const verification = asked.json().verification_token as string;
    const code = t.lastCode(residentPhone);
    remember(verification, code);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await verifyCode(t, residentPhone, wrong, verification)).statusCode).toBe(400);
    expect((await verifyCode(t, residentPhone, code, verification)).statusCode).toBe(200);
    const loggedIn = await login(t, residentPhone, verification);
    expect(loggedIn.statusCode, loggedIn.body).toBe(200);
    const resident = {
      access: loggedIn.json().access_token as string,
      refresh: loggedIn.json().refresh_token,
    };
    remember(resident.access, resident.refresh);
    const residentName = 'Евлампия Конфиденциальная';
    remember(residentName);
    await t.request({
      method: 'PATCH',
      url: '/api/users/me/',
      token: resident.access,
      payload: { full_name: residentName },
    });
    const me = (await t.request({ method: 'GET', url: '/api/users/me/', token: resident.access })).json();

    // An administrator with a barrier (device password 2580) takes him in; he adds a phone of his.
    const ownerName = 'Аристарх Владельцев';
    remember(ownerName);
    const owner = await createAdmin(t, { fullName: ownerName, password: 'admin-secret-password' });
    phones.push(owner.phone);
    remember(owner.token, 'admin-secret-password');
    const devicePhone = nextPhone();
    phones.push(devicePhone);
    const barrier = (
      await t.request({
        method: 'POST',
        url: '/api/admin/barriers/',
        token: owner.token,
        payload: {
          address: 'г. Москва, ул. Тайная, д. 7',
          device_phone: devicePhone,
          device_model: 'RTU5025',
          device_password: '2580',
          device_phones_amount: 100,
          is_public: true,
        },
      })
    ).json();
    const request = await t.request({
      method: 'POST',
      url: '/api/access_requests/',
      token: resident.access,
      payload: { user: me.id, barrier: barrier.id },
    });
    await t.request({
      method: 'PATCH',
      url: `/api/admin/access_requests/${request.json().id}/`,
      token: owner.token,
      payload: { status: 'accepted' },
    });
    const extraPhone = nextPhone();
    phones.push(extraPhone);
    remember('Тётя Секретина');
    const added = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/phones/`,
      token: resident.access,
      payload: { phone: extraPhone, name: 'Тётя Секретина', type: 'permanent' },
    });
    expect(added.statusCode, added.body).toBe(201);
    await h.run(barrier.id);

    // Searches: the barrier's users by number and name, the exact-phone search, an invitation by number.
    for (const url of [
      `/api/admin/barriers/${barrier.id}/users/?search=${encodeURIComponent(residentPhone)}`,
      `/api/admin/barriers/${barrier.id}/users/?search=${encodeURIComponent('Евлампия')}`,
      `/api/admin/barriers/${barrier.id}/openings/?phone=${residentPhone.slice(2)}`,
    ]) {
      expect((await t.request({ method: 'GET', url, token: owner.token })).statusCode).toBe(200);
    }
    remember('Евлампия');
    const search = await t.request({
      method: 'POST',
      url: '/api/admin/users/search/',
      token: owner.token,
      payload: { phone: residentPhone },
    });
    expect(search.statusCode).toBe(200);
    const invitedPhone = nextPhone();
    phones.push(invitedPhone);
    const invited = await t.request({
      method: 'POST',
      url: '/api/admin/phone_invitations/',
      token: owner.token,
      payload: { barrier: barrier.id, phone: invitedPhone },
    });
    expect(invited.statusCode, invited.body).toBe(201);

    // A guest pass: its link is opened, a guest asks for a code and redeems it.
    const start = t.clock.now();
    const pass = await t.request({
      method: 'POST',
      url: `/api/barriers/${barrier.id}/guest-passes/`,
      token: resident.access,
      payload: { start: start.toISOString(), end: new Date(start.getTime() + 3 * 3600_000).toISOString() },
    });
    expect(pass.statusCode, pass.body).toBe(201);
    const guestToken = pass.json().token as string;
    remember(guestToken);
    expect((await t.request({ method: 'GET', url: `/guest/${guestToken}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/guest-passes/${guestToken}/` })).statusCode).toBe(
      200,
    );
    const guestPhone = nextPhone();
    phones.push(guestPhone);
    const guestCode = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${guestToken}/code/`,
      payload: { phone: guestPhone },
    });
    expect(guestCode.statusCode, guestCode.body).toBe(201);
    const guestVerification = guestCode.json().verification_token as string;
    const guestSmsCode = t.lastCode(guestPhone);
    remember(guestVerification, guestSmsCode);
    const redeemed = await t.request({
      method: 'POST',
      url: `/api/guest-passes/${guestToken}/redeem/`,
      payload: { phone: guestPhone, code: guestSmsCode, verification_token: guestVerification },
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    await h.run(barrier.id);

    // The refresh, a failing call with a token and a phone in its URL, and a client's log line naming both.
    const refreshed = await t.request({
      method: 'POST',
      url: '/api/auth/token/refresh/',
      payload: { refresh: resident.refresh },
    });
    expect(refreshed.statusCode).toBe(200);
    remember(refreshed.json().access, refreshed.json().refresh);
    await t.request({
      method: 'GET',
      url: `/api/no-such/${guestToken}/?phone=${encodeURIComponent(residentPhone)}`,
    });
    const clientLine = await t.request({
      method: 'POST',
      url: '/api/logs/',
      payload: {
        level: 'error',
        app: 'web',
        page: `/guest/${guestToken}`,
        message: `не открылось для ${residentPhone}, ссылка ${guestToken}, код ${guestSmsCode}`,
      },
    });
    expect(clientLine.statusCode, clientLine.body).toBe(204);

    // The scan.
    expect(log.lines.length).toBeGreaterThan(30);
    const written = log.lines.join('\n');
    for (const phone of phones) {
      for (const form of formsOf(phone)) expect(written, `a form of ${phone}`).not.toContain(form);
    }
    for (const secret of secrets) expect(written, `«${secret.slice(0, 12)}…»`).not.toContain(secret);
    // The device password as a number of its own: request ids are random UUIDs, whose hex can hold any 4 digits.
    const withoutRequestIds = written.replace(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
      'uuid',
    );
    expect(withoutRequestIds).not.toMatch(/(^|\D)2580(\D|$)/);
    expect(written).not.toContain('search=');
    expect(written).not.toContain('Евлампия');

    // What the lines say instead: route patterns, and the number's key that support computes from it.
    const parsed = log.entries;
    const urls = new Set(parsed.filter((line) => line.msg === 'request completed').map((line) => line.url));
    expect(urls).toContain('/guest/:token');
    expect(urls).toContain('/api/admin/barriers/:id/users/');
    expect(urls).toContain('/api/guest-passes/:token/redeem/');
    const sent = parsed.find((line) => line.msg === 'verification code sent');
    expect(sent?.phoneKey).toBe(phoneLogKey(t.deps.secrets, residentPhone));
    expect(written).toContain('"level":20'); // the debug lines were captured too (the logger is at trace)
  });
});
