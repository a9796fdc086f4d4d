import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { ApiAs, openLoggedIn, ownerSession, type Session, uniquePhone } from './support/api';
import { acceptPrivacyPolicy } from './support/consent';
import { PHONE_CONTEXT } from './support/environment';
import { shownPhone } from './support/phone';
import { checkScreen } from './support/screens';
import { smsCount, waitForCode } from './support/sms';
import { expect, test } from './support/test';

/**
 * Issue 28 part 6 on a phone: a first login shows the operator's policy and makes the account only with the
 * consent; «Мои данные» downloads a JSON and a CSV file that hold the resident's numbers and their history.
 * An account made by a client that knows no policy (the spec's) sees the blocking consent screen first.
 */
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let owner: ApiAs;
let barrierId: number;

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  owner = new ApiAs(api, await ownerSession(api));
  const digits = `${Date.now() % 1_000_000}`.padStart(6, '0');
  const barrier = await owner.post('/api/admin/barriers/', {
    address: `г Москва, ул Согласия, д ${digits}`,
    device_phone: `+7806${digits}0`,
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: true,
  });
  barrierId = barrier.id;
});

test('first login with the policy, then «Мои данные» with the numbers and their history', async ({
  page,
}) => {
  const phone = uniquePhone();
  await page.goto('/login');
  await page.getByLabel('Введите номер телефона').fill(phone);
  const before = smsCount(phone);
  await page.getByRole('button', { name: 'Далее' }).click();
  await expect(page).toHaveURL(/\/verifyuser$/);
  await page.getByLabel('Код из СМС').fill(await waitForCode(phone, before));
  await page.getByRole('button', { name: 'Подтвердить' }).click();

  await expect(page.getByTestId('consent-step')).toBeVisible();
  await expect(page.getByText('Согласие на обработку персональных данных')).toBeVisible();
  await expect(page.getByTestId('privacy-policy-text')).toContainText('Ваши права');
  await checkScreen(page, 'privacy-consent');
  await acceptPrivacyPolicy(page);
  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByLabel('Телефон')).toHaveValue(shownPhone(phone));

  // The scene: access to a barrier and a family number added (its history), over the API.
  const session: Session = await page.evaluate(
    (stored) => ({
      phone: stored,
      access_token: window.localStorage.getItem('access_token') ?? '',
      refresh_token: window.localStorage.getItem('refresh_token') ?? '',
    }),
    phone,
  );
  const resident = new ApiAs(api, session);
  const me = await resident.get('/api/users/me/');
  expect(me.consent_required).toBe(false);
  const request = await resident.post('/api/access_requests/', { user: me.id, barrier: barrierId });
  await owner.patch(`/api/admin/access_requests/${request.id}/`, { status: 'accepted' });
  const family = uniquePhone();
  await resident.post(`/api/barriers/${barrierId}/phones/`, {
    phone: family,
    name: 'Жена',
    type: 'permanent',
  });

  await page.reload();
  await expect(page.getByText('Мои данные')).toBeVisible();
  await checkScreen(page, 'privacy-my-data');

  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Скачать JSON' }).click(),
  ]);
  expect(json.suggestedFilename()).toMatch(/^propusk-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(readFileSync(await json.path(), 'utf8'));
  expect(data.profile.phone).toBe(phone);
  expect(data.phones.map((row: { phone: string }) => row.phone)).toEqual(
    expect.arrayContaining([phone, family]),
  );
  expect(
    data.history.some(
      (row: { action_type: string; new_value: { phone?: string } | null }) =>
        row.action_type === 'add_phone' && row.new_value?.phone === family,
    ),
  ).toBe(true);
  expect(data.consents).toHaveLength(1);

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Скачать CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const table = readFileSync(await csv.path(), 'utf8');
  expect(table).toContain('Раздел;Запись;Поле;Значение');
  expect(table).toContain(`Номера;2;Телефон;${family}`);
  expect(table).toMatch(/История номеров;1;/);
});

test("an account made without consent (the spec's client) is asked on its next visit", async ({ page }) => {
  const phone = uniquePhone();
  const before = smsCount(phone);
  const sent = await (await api.post('/api/auth/codes/', { data: { phone, mode: 'login' } })).json();
  const code = await waitForCode(phone, before);
  await api.patch('/api/auth/codes/verify/', {
    data: { phone, code, verification_token: sent.verification_token },
  });
  // No consent field: what the spec's client sends.
  const tokens = await (
    await api.post('/api/auth/login/', { data: { phone, verification_token: sent.verification_token } })
  ).json();
  await openLoggedIn(
    page,
    { phone, access_token: tokens.access_token, refresh_token: tokens.refresh_token },
    '/user',
  );
  await expect(page.getByTestId('consent-step')).toBeVisible();
  await expect(
    page.getByText(
      'Чтобы продолжить, прочитайте политику обработки персональных данных и подтвердите согласие.',
    ),
  ).toBeVisible();
  await checkScreen(page, 'privacy-consent-later');
  await page.getByRole('button', { name: 'Принимаю', exact: true }).click();
  await expect(page.getByTestId('consent-step')).toHaveCount(0);
  await expect(page.getByLabel('Телефон')).toHaveValue(shownPhone(phone));
});
