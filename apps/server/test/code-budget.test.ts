/**
 * Issue 29 part 4: strangers cannot spend the server's code budget. Guest-link codes exhaust only the public
 * share, after which an administrator's login and an existing user's code still go; guest links have caps per
 * pass and per resident a day; codes go only to numbers in SMS_ALLOWED_PREFIXES.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { issueSession } from '../src/modules/auth/sessions.ts';
import { requestCode } from './auth-helpers.ts';
import { createBarrier, createUserWithAccess, type TestBarrier } from './domain-factories.ts';
import { createAdmin, createUser, nextPhone, type TestUser } from './factories.ts';
import { type TestApp, useTestApp } from './test-app.ts';

const HOUR = 3600_000;
let ipCounter = 0;
const nextIp = () => `10.29.4.${++ipCounter}`;

async function makePass(t: TestApp, barrier: TestBarrier, resident: TestUser): Promise<string> {
  const now = t.clock.now().getTime();
  const made = await t.request({
    method: 'POST',
    url: `/api/barriers/${barrier.id}/guest-passes/`,
    token: resident.token,
    payload: { start: new Date(now).toISOString(), end: new Date(now + 3 * HOUR).toISOString() },
  });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().token as string;
}

const guestCode = (t: TestApp, token: string, phone: string) =>
  t.request({
    method: 'POST',
    url: `/api/guest-passes/${token}/code/`,
    payload: { phone },
    remoteAddress: nextIp(),
  });

describe('the public share of the hourly code budget', () => {
  // 10 codes an hour, half of them kept for existing accounts: the public may spend 5.
  const t = useTestApp({
    env: { SMS_CODE_BUDGET_PER_HOUR: '10', SMS_CODE_ACCOUNT_RESERVE_PERCENT: '50' },
  });

  it('lets guest-link codes spend only the public share; an administrator and an existing user still get theirs', async () => {
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner);
    const residents = [await createUserWithAccess(t, barrier), await createUserWithAccess(t, barrier)];
    const passes = [await makePass(t, barrier, residents[0] as TestUser)];
    passes.push(await makePass(t, barrier, residents[1] as TestUser));
    const answers = [];
    for (let index = 0; index < 8; index++) {
      answers.push(await guestCode(t, passes[index % 2] as string, nextPhone()));
    }
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.json()).toMatchObject({ code: 'sms_budget_exhausted' });
    // A stranger's login of an unknown number is public too.
    const stranger = await requestCode(t, nextPhone(), 'login', { remoteAddress: nextIp() });
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json().code).toBe('sms_budget_exhausted');

    // The reserve is there for existing accounts, and an administrator's login is never refused.
    const user = await createUser(t);
    const own = await requestCode(t, user.phone, 'login', { remoteAddress: nextIp() });
    expect(own.statusCode, own.body).toBe(201);
    const adminLogin = await requestCode(t, owner.phone, 'login', { remoteAddress: nextIp() });
    expect(adminLogin.statusCode, adminLogin.body).toBe(201);
    expect(t.sentSms().at(-1)?.to).toBe(owner.phone);
  });

  it('never refuses an administrator’s login, even when existing accounts spent the whole budget', async () => {
    t.clock.advance(HOUR + 1000);
    const accounts = await Promise.all(Array.from({ length: 11 }, () => createUser(t)));
    const answers = [];
    for (const account of accounts) {
      answers.push(await requestCode(t, account.phone, 'login', { remoteAddress: nextIp() }));
    }
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(10);
    expect(answers.at(-1)?.json().code).toBe('sms_budget_exhausted');
    const admin = await createAdmin(t);
    const login = await requestCode(t, admin.phone, 'login', { remoteAddress: nextIp() });
    expect(login.statusCode, login.body).toBe(201);
  });
});

describe('guest-link codes per pass and per resident', () => {
  const t = useTestApp({
    env: { GUEST_PASS_CODES_PER_PASS_PER_DAY: '3', GUEST_PASS_CODES_PER_RESIDENT_PER_DAY: '5' },
  });

  it('caps the codes of one link, then of all links of one resident, for a day', async () => {
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner);
    const resident = await createUserWithAccess(t, barrier);
    const first = await makePass(t, barrier, resident);
    for (let index = 0; index < 3; index++) {
      expect((await guestCode(t, first, nextPhone())).statusCode).toBe(201);
    }
    const fourth = await guestCode(t, first, nextPhone());
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().code).toBe('guest_pass_code_limit');
    expect(fourth.json().retry_after).toBeGreaterThan(23 * 3600);

    // A second link of the same resident: two more, then the resident's daily cap.
    const second = await makePass(t, barrier, resident);
    expect((await guestCode(t, second, nextPhone())).statusCode).toBe(201);
    expect((await guestCode(t, second, nextPhone())).statusCode).toBe(201);
    const capped = await guestCode(t, second, nextPhone());
    expect(capped.statusCode).toBe(429);
    expect(capped.json().code).toBe('guest_pass_resident_code_limit');

    // Another resident's links are not held back.
    const neighbour = await createUserWithAccess(t, barrier);
    expect((await guestCode(t, await makePass(t, barrier, neighbour), nextPhone())).statusCode).toBe(201);

    // A day later (the old links have ended) the resident's new link sends codes again.
    t.clock.advance(24 * HOUR + 1000);
    resident.token = (await issueSession(t.deps, t.deps.db, resident.id)).access_token;
    expect((await guestCode(t, await makePass(t, barrier, resident), nextPhone())).statusCode).toBe(201);
  });
});

describe('allowed prefixes', () => {
  const t = useTestApp();

  it('sends no code to a Kazakh (+77) or a Russian landline number, with a clear code', async () => {
    const before = t.sentSms().length;
    for (const phone of ['+77011234567', '+74951234567']) {
      const refused = await requestCode(t, phone, 'login', { remoteAddress: nextIp() });
      expect(refused.statusCode, phone).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'phone_prefix_not_allowed', allowed_prefixes: ['+79'] });
    }
    const owner = await createAdmin(t);
    const barrier = await createBarrier(t, owner);
    const pass = await makePass(t, barrier, await createUserWithAccess(t, barrier));
    const guest = await guestCode(t, pass, '+77011234567');
    expect(guest.statusCode).toBe(400);
    expect(guest.json().code).toBe('phone_prefix_not_allowed');
    expect(t.sentSms().length).toBe(before);
    expect((await requestCode(t, nextPhone(), 'login', { remoteAddress: nextIp() })).statusCode).toBe(201);
  });

  it('reads SMS_ALLOWED_PREFIXES as a list, and refuses a prefix that is not a Russian number', () => {
    expect(loadConfig({ SMS_ALLOWED_PREFIXES: '+79, +7700' }).SMS_ALLOWED_PREFIXES).toEqual(['+79', '+7700']);
    expect(loadConfig({}).SMS_ALLOWED_PREFIXES).toEqual(['+79']);
    expect(() => loadConfig({ SMS_ALLOWED_PREFIXES: '+1' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMS_ALLOWED_PREFIXES: ',' })).toThrow(/SMS_ALLOWED_PREFIXES/);
  });
});
