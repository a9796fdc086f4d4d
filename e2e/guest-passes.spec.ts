import type { APIRequestContext, Page } from '@playwright/test';
import { newProjectPage, runDigits } from './admin-support';
import { ApiAs, loginOverApi, openLoggedIn, ownerSession, type Session, uniquePhone } from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { createThreeHourLink, projectShot, redeemAsGuest } from './support/guest-pass';
import { checkLayout } from './support/layout';
import { shownPhone } from './support/phone';
import { checkScreen } from './support/screens';
import { expect, test } from './support/test';

/**
 * Guest passes by link (issue 14 part 5): the resident makes a pass on /mybarrier, a guest in a browser of his
 * own (no login) opens the link, proves his number by the SMS code and is written to the barrier; the resident
 * sees the pass used and revokes it.
 */
test.describe.configure({ mode: 'serial' });

let address = '';
let api: APIRequestContext;
let resident: Session;
let page: Page;
let link = '';
const guest = uniquePhone();

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  // Unique per run and per project (the desktop project runs this journey too).
  const run = runDigits(testInfo, 5);
  address = `г Москва, ул Гостевая, д 5, стр ${run}`;
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  const owner = new ApiAs(api, await ownerSession(api));
  const barrier = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7803${run}11`,
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 50,
    is_public: true,
  });
  resident = await loginOverApi(api, uniquePhone());
  const residentApi = new ApiAs(api, resident);
  const me = await residentApi.patch('/api/users/me/', { full_name: 'Галина Гостеприимная' });
  const request = await residentApi.post('/api/access_requests/', { user: me.id, barrier: barrier.id });
  await owner.patch(`/api/admin/access_requests/${request.id}/`, { status: 'accepted' });
  page = await newProjectPage(browser, testInfo);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
});

test.afterAll(async () => {
  await page.context().close();
  await api.dispose();
});

test('the resident makes a pass and gets its link once', async () => {
  const testInfo = test.info();
  await openLoggedIn(page, resident, '/barriers');
  await page.getByTestId('barrier-item').filter({ hasText: address }).click();
  await expect(page).toHaveURL(/\/mybarrier$/);
  await page.getByRole('button', { name: 'Гостевой пропуск' }).click();
  await expect(page.getByTestId('guest-pass-form')).toBeVisible();
  await checkLayout(page, projectShot(testInfo, 'guest-pass-form'));
  link = await createThreeHourLink(page);
  await expect(page.getByTestId('guest-pass-status').first()).toHaveText('Ожидает гостя');
  await checkScreen(page, projectShot(testInfo, 'guest-pass-created'));
  await checkLayout(page, projectShot(testInfo, 'guest-pass-created'));
});

test('a guest opens the link without a login, proves his number and is let in', async ({
  browser,
}, testInfo) => {
  await redeemAsGuest(browser, testInfo, { link, address, guest, shots: 'guest-pass' });
});

test('the resident sees the pass used and revokes it', async () => {
  const testInfo = test.info();
  await page.reload();
  const card = page.getByTestId('guest-pass-card').first();
  await expect(card.getByTestId('guest-pass-status')).toHaveText(`Использован: ${shownPhone(guest)}`);
  await expect(page.getByTestId('phone-card').filter({ hasText: shownPhone(guest) })).toHaveCount(1);
  await card.getByRole('button', { name: 'Отозвать' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Да, отозвать' }).click();
  await expect(card.getByTestId('guest-pass-status')).toHaveText('Отозван');
  await expect(page.getByTestId('phone-card').filter({ hasText: shownPhone(guest) })).toHaveCount(0);
  await checkScreen(page, projectShot(testInfo, 'guest-pass-revoked'));
});
