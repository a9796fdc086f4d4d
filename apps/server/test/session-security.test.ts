/**
 * Session security (docs/decisions/0012): refresh tokens rotate with reuse detection and an absolute lifetime,
 * and an administrator's password step is bound to the login that follows it. Each test performs the attack.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { loginWithCode, refresh, requestCode, verifyCode } from './auth-helpers.ts';
import { createAdmin, nextPhone } from './factories.ts';
import { captureLog } from './log-capture.ts';
import { createTestApp, useTestApp } from './test-app.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('refresh token rotation', () => {
  const log = captureLog();
  const t = useTestApp({
    configure: (deps) => {
      deps.logger = pino({ level: 'info' }, log.destination);
    },
  });

  const me = (access: string) => t.request({ method: 'GET', url: '/api/users/me/', token: access });

  it('answers a new refresh token on every refresh, and the new one works', async () => {
    const session = await loginWithCode(t, nextPhone());
    const first = await refresh(t, session.refresh);
    expect(first.statusCode).toBe(200);
    const second = await refresh(t, first.json().refresh);
    expect(second.statusCode).toBe(200);
    const tokens = [session.refresh, first.json().refresh, second.json().refresh];
    expect(new Set(tokens).size).toBe(3);
    expect((await me(second.json().access)).statusCode).toBe(200);
  });

  it('ends the whole session when a rotated-out refresh token comes back (the attacker and the owner both hold one)', async () => {
    const owner = await loginWithCode(t, nextPhone());
    const stolen = owner.refresh;
    // The owner's client refreshes twice, storing each new token.
    const r2 = (await refresh(t, owner.refresh)).json().refresh as string;
    const third = await refresh(t, r2);
    const r3 = third.json().refresh as string;
    // The attacker presents the token he copied earlier: reuse.
    const reused = await refresh(t, stolen);
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual({
      detail: 'Refresh token was already used. The session has been ended; log in again.',
      code: 'refresh_reused',
    });
    // Everyone's copies of this session are dead now, the access token included.
    expect((await refresh(t, r3)).statusCode).toBe(401);
    expect((await me(third.json().access)).statusCode).toBe(401);
    const warning = log.lines.find((line) => line.includes('refresh token reused'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning ?? '{}').level).toBe(40);
    for (const token of [stolen, r2, r3]) expect(log.lines.join('\n')).not.toContain(token);
  });

  it('also ends it when the attacker refreshes first with a stolen current token', async () => {
    const owner = await loginWithCode(t, nextPhone());
    const r2 = (await refresh(t, owner.refresh)).json().refresh as string;
    // The attacker copies r2 and uses it before the owner does.
    const attackers = await refresh(t, r2);
    expect(attackers.statusCode).toBe(200);
    // The owner presents r2: the previous token while the current one is unused (as a lost response): accepted.
    const owners = await refresh(t, r2);
    expect(owners.statusCode).toBe(200);
    // The attacker's next refresh uses a token that was rotated out: the session ends for both.
    const attackerAgain = await refresh(t, attackers.json().refresh);
    expect(attackerAgain.statusCode).toBe(401);
    expect(attackerAgain.json().code).toBe('refresh_reused');
    expect((await refresh(t, owners.json().refresh)).statusCode).toBe(401);
  });

  it("keeps the spec's reference client working: it presents its first refresh token every time", async () => {
    const session = await loginWithCode(t, nextPhone());
    for (let round = 0; round < 5; round++) {
      t.clock.advance(16 * MINUTE);
      const refreshed = await refresh(t, session.refresh);
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      expect((await me(refreshed.json().access)).statusCode).toBe(200);
    }
    // Its logout with that same token ends the session.
    const out = await t.request({
      method: 'POST',
      url: '/api/auth/logout/',
      payload: { refresh: session.refresh },
    });
    expect(out.statusCode).toBe(204);
    expect((await refresh(t, session.refresh)).statusCode).toBe(401);
  });

  it('ends a session 90 days after its login, however often it is refreshed', async () => {
    const session = await loginWithCode(t, nextPhone());
    let current = session.refresh;
    for (let day = 20; day <= 80; day += 20) {
      t.clock.advance(20 * DAY);
      const refreshed = await refresh(t, current);
      expect(refreshed.statusCode, `day ${day}`).toBe(200);
      current = refreshed.json().refresh;
    }
    // Day 80: the last access token works until day 90 at most (the session's expiry is capped there).
    t.clock.advance(10 * DAY);
    const late = await refresh(t, current);
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('refresh_invalid');
  });

  it('takes the absolute lifetime from SESSION_MAX_AGE_DAYS, validated at start-up', async () => {
    const short = await createTestApp({ env: { SESSION_MAX_AGE_DAYS: '7' } });
    try {
      const session = await loginWithCode(short, nextPhone());
      short.clock.advance(6 * DAY);
      const refreshed = await refresh(short, session.refresh);
      expect(refreshed.statusCode).toBe(200);
      short.clock.advance(1 * DAY);
      expect((await refresh(short, refreshed.json().refresh)).statusCode).toBe(401);
      expect(
        (await short.request({ method: 'GET', url: '/api/users/me/', token: refreshed.json().access }))
          .statusCode,
      ).toBe(401);
    } finally {
      await short.close();
    }
    for (const value of ['0', '-1', '400', 'ninety']) {
      expect(() => loadConfig({ NODE_ENV: 'test', SESSION_MAX_AGE_DAYS: value }), value).toThrow(ConfigError);
    }
  });
});

describe("an administrator's password step is bound to his login", () => {
  const t = useTestApp();

  const ADMIN_IP = '198.51.100.7';
  const ATTACKER_IP = '203.0.113.9';

  const passwordStep = (phone: string, password: string, remoteAddress: string) =>
    t.request({
      method: 'POST',
      url: '/api/auth/admin/password_verification/',
      payload: { phone, password },
      remoteAddress,
    });
  const loginFrom = (
    phone: string,
    verificationToken: string,
    remoteAddress: string,
    passwordNonce?: string,
  ) =>
    t.request({
      method: 'POST',
      url: '/api/auth/login/',
      payload: {
        phone,
        verification_token: verificationToken,
        ...(passwordNonce === undefined ? {} : { password_nonce: passwordNonce }),
      },
      remoteAddress,
    });
  /** A verified login token, asked for and verified from `remoteAddress` (whoever reads the SMS). */
  const codeFrom = async (phone: string, remoteAddress: string) => {
    const sent = await requestCode(t, phone, 'login', { remoteAddress });
    expect(sent.statusCode, sent.body).toBe(201);
    const token = sent.json().verification_token as string;
    expect((await verifyCode(t, phone, t.lastCode(phone), token, { remoteAddress })).statusCode).toBe(200);
    return token;
  };

  it("does not let the SMS code alone, from another address, ride on the real administrator's password step", async () => {
    const admin = await createAdmin(t, { password: 'admin-secret' });
    // The administrator passes his password step from his own address...
    const step = await passwordStep(admin.phone, 'admin-secret', ADMIN_IP);
    expect(step.statusCode).toBe(200);
    const nonce = step.json().password_nonce as string;
    // ...while someone with his SIM (the SMS code) logs in from elsewhere, without the nonce or with a guess.
    const stolenCode = await codeFrom(admin.phone, ATTACKER_IP);
    const withoutNonce = await loginFrom(admin.phone, stolenCode, ATTACKER_IP);
    expect(withoutNonce.statusCode).toBe(403);
    expect(withoutNonce.json()).toEqual({
      detail: 'Password verification required.',
      code: 'password_required',
    });
    const guessed = await loginFrom(admin.phone, stolenCode, ATTACKER_IP, 'a-guessed-nonce');
    expect(guessed.statusCode).toBe(403);
    // The administrator's own login, with his nonce, goes through; the nonce is then spent.
    t.clock.advance(61_000);
    const own = await loginFrom(admin.phone, await codeFrom(admin.phone, ADMIN_IP), ADMIN_IP, nonce);
    expect(own.statusCode, own.body).toBe(200);
    t.clock.advance(61_000);
    const again = await loginFrom(admin.phone, await codeFrom(admin.phone, ADMIN_IP), ADMIN_IP, nonce);
    expect(again.statusCode).toBe(403);
  });

  it('accepts a login without the nonce only from the address of the step, within 5 minutes, once', async () => {
    const admin = await createAdmin(t, { password: 'admin-secret' });
    expect((await passwordStep(admin.phone, 'admin-secret', ADMIN_IP)).statusCode).toBe(200);
    const token = await codeFrom(admin.phone, ADMIN_IP);
    expect((await loginFrom(admin.phone, token, ADMIN_IP)).statusCode).toBe(200);
    // One step, one login.
    t.clock.advance(61_000);
    expect((await loginFrom(admin.phone, await codeFrom(admin.phone, ADMIN_IP), ADMIN_IP)).statusCode).toBe(
      403,
    );

    // After 5 minutes a step counts only with its nonce (which lasts 10 minutes, from anywhere).
    const step = await passwordStep(admin.phone, 'admin-secret', ADMIN_IP);
    t.clock.advance(5 * MINUTE);
    const late = await codeFrom(admin.phone, ADMIN_IP);
    expect((await loginFrom(admin.phone, late, ADMIN_IP)).statusCode).toBe(403);
    const moved = await loginFrom(admin.phone, late, '192.0.2.200', step.json().password_nonce);
    expect(moved.statusCode, moved.body).toBe(200);
  });

  it("refuses another administrator's nonce and a nonce older than 10 minutes", async () => {
    const first = await createAdmin(t, { password: 'first-secret' });
    const second = await createAdmin(t, { password: 'second-secret' });
    const firstStep = await passwordStep(first.phone, 'first-secret', ATTACKER_IP);
    const token = await codeFrom(second.phone, ATTACKER_IP);
    const foreign = await loginFrom(second.phone, token, ADMIN_IP, firstStep.json().password_nonce);
    expect(foreign.statusCode).toBe(403);

    const step = await passwordStep(second.phone, 'second-secret', ADMIN_IP);
    t.clock.advance(10 * MINUTE);
    const stale = await loginFrom(
      second.phone,
      await codeFrom(second.phone, ADMIN_IP),
      ADMIN_IP,
      step.json().password_nonce,
    );
    expect(stale.statusCode).toBe(403);
  });
});
