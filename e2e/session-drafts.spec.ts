import type { APIRequestContext } from '@playwright/test';
import {
  ApiAs,
  barrierWithResident,
  openLoggedIn,
  ownerSession,
  type Session,
  uniquePhone,
} from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { shownPhone } from './support/phone';
import { checkScreen } from './support/screens';
import { smsCount, waitForCode } from './support/sms';
import { expect, test } from './support/test';

/**
 * Issue 41 at 390×844: a resident's session ends (revoked over the API, as a logout elsewhere or an expired
 * refresh token would) while he fills «Добавить номер»; his tap on «Сохранить» meets the 401, /login says the
 * session ended, he logs in again with a code and is back on the same screen of the same barrier with the name
 * and the number he typed, and saves them.
 */
test.describe.configure({ mode: 'serial' });

/** A second code for the same number within this long is refused (the server's resend cooldown). */
const CODE_COOLDOWN_MS = 61_000;

let api: APIRequestContext;
let resident: Session;
let residentLoggedInAt = 0;
let address = '';

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  const owner = new ApiAs(api, await ownerSession(api));
  const digits = `${Date.now() % 10_000_000}`.padStart(7, '0');
  const scene = await barrierWithResident(api, owner, {
    address: `г Москва, ул Черновая, д ${digits.slice(2)}`,
    devicePhone: `+7805${digits}`,
  });
  resident = scene.resident;
  residentLoggedInAt = Date.now();
  address = scene.barrier.address;
});

test.afterAll(async () => {
  await api?.dispose();
});

test('an ended session keeps the half-filled number and brings the resident back to it', async ({ page }) => {
  test.setTimeout(150_000);
  await openLoggedIn(page, resident, '/');
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
  await page.getByRole('button', { name: 'Добавить номер' }).click();
  await expect(page.getByRole('heading', { name: 'Добавить номер' })).toBeVisible();
  const extra = uniquePhone();
  await page.getByLabel('Имя').fill('Дача');
  await page.getByLabel('Номер телефона').fill(extra.slice(2));

  // The session ends elsewhere: its refresh token is revoked, so the next call cannot be renewed.
  const tokens = await page.evaluate(() => window.localStorage.getItem('refresh_token'));
  const logout = await api.post('/api/auth/logout/', { data: { refresh: tokens } });
  expect(logout.ok()).toBe(true);
  await page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert')).toHaveText('Сеанс завершён, войдите снова.');
  // The kept form holds what he typed, and nothing of the ended session's tokens.
  const kept = await page.evaluate(() => window.sessionStorage.getItem('form_drafts') ?? '');
  expect(kept).toContain('Дача');
  expect(kept).not.toContain(tokens ?? '-');

  // A new code for the same number is sent a minute after the last one (the scene's login).
  await page.waitForTimeout(Math.max(0, residentLoggedInAt + CODE_COOLDOWN_MS - Date.now()));
  const before = smsCount(resident.phone);
  await page.getByLabel('Введите номер телефона').fill(resident.phone.slice(2));
  await page.getByRole('button', { name: 'Далее' }).click();
  await expect(page).toHaveURL(/\/verifyuser$/);
  await page.getByLabel('Код из СМС').fill(await waitForCode(resident.phone, before));
  await page.getByRole('button', { name: 'Подтвердить' }).click();

  // Back where he was, with the same barrier and what he typed.
  await expect(page).toHaveURL(/\/add-phone$/);
  await expect(page.getByLabel('Имя')).toHaveValue('Дача');
  await expect(page.getByLabel('Номер телефона')).toHaveValue(shownPhone(extra));
  await checkScreen(page, 'session-drafts-restored');
  expect(await page.evaluate(() => window.sessionStorage.getItem('form_drafts'))).toBeNull();
  await page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page).toHaveURL(/\/mybarrier$/);
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
  await expect(page.getByText(shownPhone(extra))).toBeVisible();
});
