import type { APIRequestContext, Page } from '@playwright/test';
import { checkAdminScreen, newProjectPage, openOwnBarrier, runDigits } from './admin-support';
import { ApiAs, loginOverApi, openLoggedIn, ownerSession, type Session, uniquePhone } from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { createThreeHourLink, projectShot, redeemAsGuest } from './support/guest-pass';
import { checkLayout } from './support/layout';
import { shownPhone } from './support/phone';
import { expect, test } from './support/test';

/**
 * The administrator's guest passes (issue 14 part 5): the owner opens his barrier's «Гостевые пропуска», makes
 * a pass for a resident, a guest redeems the link in a browser of his own, and the owner sees the pass used
 * (without reloading) and revokes it.
 */
test.describe.configure({ mode: 'serial' });

const RESIDENT_NAME = 'Анна Пропускова';
let address = '';
let api: APIRequestContext;
let owner: Session;
let page: Page;
let link = '';
const guest = uniquePhone();

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  const run = runDigits(testInfo, 5);
  address = `г Москва, ул Пропускная, д 3, стр ${run}`;
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  owner = await ownerSession(api);
  const asOwner = new ApiAs(api, owner);
  const barrier = await asOwner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7803${run}13`,
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 50,
    is_public: true,
  });
  const resident = new ApiAs(api, await loginOverApi(api, uniquePhone()));
  const me = await resident.patch('/api/users/me/', { full_name: RESIDENT_NAME });
  const asked = await resident.post('/api/access_requests/', { user: me.id, barrier: barrier.id });
  await asOwner.patch(`/api/admin/access_requests/${asked.id}/`, { status: 'accepted' });
  page = await newProjectPage(browser, testInfo);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
});

test.afterAll(async () => {
  await page.context().close();
  await api.dispose();
});

test('the owner makes a guest pass for a resident and gets its link once', async () => {
  const testInfo = test.info();
  await openLoggedIn(page, owner, '/admin');
  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'Гостевые пропуска' }).click();
  await expect(page).toHaveURL(/\/guest-passes-admin$/);
  await expect(page.getByTestId('guest-passes-empty')).toHaveText('Пропусков пока нет.');
  await checkAdminScreen(page, testInfo, 'guest-passes-empty');
  await checkLayout(page, projectShot(testInfo, 'admin-guest-passes-empty'));
  await page.getByRole('button', { name: 'Создать пропуск' }).click();
  await page.getByRole('textbox', { name: 'Для жителя' }).click();
  await page.getByRole('option', { name: new RegExp(RESIDENT_NAME) }).click();
  await expect(page.getByRole('textbox', { name: 'Для жителя' })).toHaveValue(new RegExp(RESIDENT_NAME));
  await checkLayout(page, projectShot(testInfo, 'admin-guest-pass-form'));
  link = await createThreeHourLink(page);
  const card = page.getByTestId('guest-pass-card').first();
  await expect(card.getByTestId('guest-pass-user')).toContainText(`Для: ${RESIDENT_NAME}`);
  await expect(card.getByTestId('guest-pass-status')).toHaveText('Ожидает гостя');
  await checkAdminScreen(page, testInfo, 'guest-pass-created');
  await checkLayout(page, projectShot(testInfo, 'admin-guest-pass-created'));
});

test('a guest redeems the link with the SMS code', async ({ browser }, testInfo) => {
  await redeemAsGuest(browser, testInfo, { link, address, guest });
});

test('the owner sees the pass used and revokes it', async () => {
  const testInfo = test.info();
  const card = page.getByTestId('guest-pass-card').first();
  // The list refreshes itself while a pass waits for its guest.
  await expect(card.getByTestId('guest-pass-status')).toHaveText(`Использован: ${shownPhone(guest)}`, {
    timeout: 15_000,
  });
  await card.getByRole('button', { name: 'Отозвать' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Номер ${shownPhone(guest)} будет удалён с устройства.`);
  await dialog.getByRole('button', { name: 'Да, отозвать' }).click();
  await expect(card.getByTestId('guest-pass-status')).toHaveText('Отозван');
  await expect(card.getByRole('button', { name: 'Отозвать' })).toHaveCount(0);
  await checkAdminScreen(page, testInfo, 'guest-pass-revoked');
  await checkLayout(page, projectShot(testInfo, 'admin-guest-pass-revoked'));
});
