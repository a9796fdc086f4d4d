/**
 * The operator's policy and consent (152-ФЗ, issue 28 part 6; docs/decisions/0022): the public policy, the
 * consent recorded by the login that creates the account, a declined policy that leaves no account, a new
 * version asking again, and the spec's client (no consent field) whose account is asked later.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { privacyConsents, users } from '../src/db/schema.ts';
import { login, requestCode, verifyCode } from './auth-helpers.ts';
import { nextPhone } from './factories.ts';
import { useTestApp } from './test-app.ts';

const t = useTestApp();

/** Code and verify, as any client does; answers the token and the verify answer. */
async function verified(phone: string) {
  const sent = await requestCode(t, phone, 'login');
  expect(sent.statusCode, sent.body).toBe(201);
  const token = sent.json().verification_token as string;
  const answer = await verifyCode(t, phone, t.lastCode(phone), token);
  expect(answer.statusCode, answer.body).toBe(200);
  t.clock.advance(61_000);
  return { token, answer: answer.json() };
}

function loginWithConsent(phone: string, token: string, version: string) {
  return t.request({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { phone, verification_token: token, consent_version: version },
  });
}

const accountOf = async (phone: string) =>
  (await t.deps.db.select().from(users).where(eq(users.phone, phone)))[0];
const consentsOf = (userId: number) =>
  t.deps.db.select().from(privacyConsents).where(eq(privacyConsents.userId, userId));
const me = async (access: string) =>
  (await t.request({ method: 'GET', url: '/api/users/me/', token: access })).json();

describe('the policy', () => {
  it('is public: its Russian text names what is stored, why, how long and the rights, with its version', async () => {
    const response = await t.request({ method: 'GET', url: '/api/privacy/policy/' });
    expect(response.statusCode).toBe(200);
    const policy = response.json();
    expect(policy.version).toBe(t.config.privacyPolicy.version);
    expect(policy.version).toMatch(/^[0-9a-f]{12}$/);
    for (const words of [
      'Оператор',
      'номер вашего телефона',
      'семьи и гостей',
      'Зачем',
      '365 дней',
      '«Мои данные»',
      'удалить аккаунт',
    ]) {
      expect(policy.text).toContain(words);
    }
  });

  it('comes from PRIVACY_POLICY_FILE with PRIVACY_POLICY_VERSION; a bad file stops the start', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'propusk-policy-'));
    const file = path.join(directory, 'policy.md');
    writeFileSync(file, '# Политика ООО «Двор»\n\nМы храним номера.\n');
    const base = { NODE_ENV: 'test', DATA_DIR: directory } as const;
    const own = loadConfig({ ...base, PRIVACY_POLICY_FILE: file, PRIVACY_POLICY_VERSION: '2026-11' });
    expect(own.privacyPolicy).toMatchObject({ version: '2026-11', source: 'file' });
    expect(own.privacyPolicy.text).toContain('ООО «Двор»');
    // Without a version, the text's hash: another text is another version.
    const hashed = loadConfig({ ...base, PRIVACY_POLICY_FILE: file }).privacyPolicy.version;
    writeFileSync(file, '# Политика ООО «Двор»\n\nМы храним номера и имена.\n');
    expect(loadConfig({ ...base, PRIVACY_POLICY_FILE: file }).privacyPolicy.version).not.toBe(hashed);
    // RETENTION_DAYS is named in the built-in text, so another period is another version.
    expect(loadConfig({ ...base, RETENTION_DAYS: '90' }).privacyPolicy.text).toContain('90 дней');

    expect(() => loadConfig({ ...base, PRIVACY_POLICY_FILE: path.join(directory, 'none.md') })).toThrow(
      /PRIVACY_POLICY_FILE: .* cannot be read/,
    );
    writeFileSync(file, '  \n');
    expect(() => loadConfig({ ...base, PRIVACY_POLICY_FILE: file })).toThrow(/is empty/);
    writeFileSync(file, Buffer.from([0xff, 0xfe, 0x41, 0xc3]));
    expect(() => loadConfig({ ...base, PRIVACY_POLICY_FILE: file })).toThrow(/not UTF-8/);
    expect(() => loadConfig({ ...base, PRIVACY_POLICY_VERSION: 'версия 1' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, RETENTION_DAYS: '7' })).toThrow(/RETENTION_DAYS/);
  });
});

describe('consent at the first login (our client)', () => {
  it('the verify answer asks for it, the login records it with its time and version', async () => {
    const phone = nextPhone();
    const { token, answer } = await verified(phone);
    expect(answer).toMatchObject({ consent_required: true, policy_version: t.config.privacyPolicy.version });
    expect(await accountOf(phone)).toBeUndefined();

    const at = t.clock.now();
    const response = await loginWithConsent(phone, token, t.config.privacyPolicy.version);
    expect(response.statusCode, response.body).toBe(200);
    const account = await accountOf(phone);
    expect(account).toBeDefined();
    const consents = await consentsOf(account!.id);
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({ policyVersion: t.config.privacyPolicy.version, acceptedAt: at });
    expect(await me(response.json().access_token)).toMatchObject({ consent_required: false });

    // The next login does not ask again.
    const again = await verified(phone);
    expect(again.answer.consent_required).toBe(false);
  });

  it('a person who declines is not registered: the client never logs in, no account exists', async () => {
    const phone = nextPhone();
    const { answer } = await verified(phone);
    expect(answer.consent_required).toBe(true);
    // "Не принимаю": nothing more is sent.
    expect(await accountOf(phone)).toBeUndefined();
  });

  it('a login naming an older version is refused (409) and creates nothing; the token still serves', async () => {
    const phone = nextPhone();
    const { token } = await verified(phone);
    const refused = await loginWithConsent(phone, token, 'old-version');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('policy_version_outdated');
    expect(await accountOf(phone)).toBeUndefined();
    const accepted = await loginWithConsent(phone, token, t.config.privacyPolicy.version);
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('a malformed version is a 400 on its field', async () => {
    const phone = nextPhone();
    const { token } = await verified(phone);
    const response = await loginWithConsent(phone, token, 'версия; drop table');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('consent_version');
    expect(await accountOf(phone)).toBeUndefined();
  });
});

describe("the spec's client (no consent field) and later consent", () => {
  it('logs in as before; the account is marked without consent and consents later', async () => {
    const phone = nextPhone();
    const { token } = await verified(phone);
    const response = await login(t, phone, token);
    expect(response.statusCode, response.body).toBe(200);
    const access = response.json().access_token as string;
    const account = await accountOf(phone);
    expect(await consentsOf(account!.id)).toHaveLength(0);
    expect(await me(access)).toMatchObject({
      phone,
      consent_required: true,
      policy_version: t.config.privacyPolicy.version,
    });

    const stale = await t.request({
      method: 'POST',
      url: '/api/users/me/consent/',
      token: access,
      payload: { policy_version: 'stale' },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('policy_version_outdated');

    const given = await t.request({
      method: 'POST',
      url: '/api/users/me/consent/',
      token: access,
      payload: { policy_version: t.config.privacyPolicy.version },
    });
    expect(given.statusCode, given.body).toBe(201);
    expect(given.json().policy_version).toBe(t.config.privacyPolicy.version);
    expect(Date.parse(given.json().accepted_at)).toBe(t.clock.now().getTime());
    expect(await me(access)).toMatchObject({ consent_required: false });
    // Consenting twice keeps one row with the first time.
    t.clock.advance(5_000);
    await t.request({
      method: 'POST',
      url: '/api/users/me/consent/',
      token: access,
      payload: { policy_version: t.config.privacyPolicy.version },
    });
    expect(await consentsOf(account!.id)).toHaveLength(1);
  });

  it('needs a login', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/users/me/consent/',
      payload: { policy_version: t.config.privacyPolicy.version },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('a new policy version asks again', () => {
  it('the profile and the next verify say consent is required until the new version is accepted', async () => {
    const phone = nextPhone();
    const first = await verified(phone);
    const response = await loginWithConsent(phone, first.token, t.config.privacyPolicy.version);
    const access = response.json().access_token as string;
    expect(await me(access)).toMatchObject({ consent_required: false });

    const previous = t.config.privacyPolicy;
    // The operator publishes a new text (what a restart with a new PRIVACY_POLICY_FILE does).
    t.deps.config.privacyPolicy = { ...previous, version: 'v2', text: `${previous.text}\nНовый пункт.` };
    try {
      expect((await t.request({ method: 'GET', url: '/api/privacy/policy/' })).json().version).toBe('v2');
      expect(await me(access)).toMatchObject({ consent_required: true, policy_version: 'v2' });
      const next = await verified(phone);
      expect(next.answer).toMatchObject({ consent_required: true, policy_version: 'v2' });
      const old = await loginWithConsent(phone, next.token, previous.version);
      expect(old.statusCode).toBe(409);
      const accepted = await loginWithConsent(phone, next.token, 'v2');
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(await me(accepted.json().access_token)).toMatchObject({ consent_required: false });
      const account = await accountOf(phone);
      expect((await consentsOf(account!.id)).map((row) => row.policyVersion).sort()).toEqual(
        [previous.version, 'v2'].sort(),
      );
    } finally {
      t.deps.config.privacyPolicy = previous;
    }
  });
});
