import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { ApiAs, loginOverApi, openLoggedIn, ownerSession, type Session, uniquePhone } from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { checkLayout } from './support/layout';
import { shownPhone } from './support/phone';
import { checkScreen } from './support/screens';
import { smsCount, waitForCode } from './support/sms';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Guest passes by link (issue 14 part 5): the resident makes a pass on /mybarrier, a guest in a browser of his
 * own (no login) opens the link, proves his number by the SMS code and is written to the barrier; the resident
 * sees the pass used and revokes it.
 */
test.describe.configure({ mode: 'serial' });

const run = `${Date.now() % 100000}`;
const address = `г Москва, ул Гостевая, д 5, стр ${run}`;
let api: APIRequestContext;
let resident: Session;
let context: BrowserContext;
let page: Page;
let link = '';
const guest = uniquePhone();

test.beforeAll(async ({ browser, playwright }) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  const owner = new ApiAs(api, await ownerSession(api));
  const barrier = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7802${run.padStart(5, '0')}10`.slice(0, 12),
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
  context = await browser.newContext(PHONE_CONTEXT);
  watchForCspViolations(context);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await context.newPage();
});

test.afterAll(async () => {
  await context.close();
  await api.dispose();
});

test('the resident makes a pass and gets its link once', async () => {
  await openLoggedIn(page, resident, '/barriers');
  await page.getByTestId('barrier-item').filter({ hasText: address }).click();
  await expect(page).toHaveURL(/\/mybarrier$/);
  await page.getByRole('button', { name: 'Гостевой пропуск' }).click();
  await expect(page.getByTestId('guest-pass-form')).toBeVisible();
  await checkLayout(page, 'guest-pass-form');
  await page.getByRole('button', { name: '3 часа' }).click();
  const shown = page.getByTestId('guest-pass-link');
  await expect(shown).toBeVisible();
  link = await shown.getByLabel('Ссылка для гостя').inputValue();
  expect(link).toMatch(/\/guest\/[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: 'Скопировать' }).click();
  await expect(shown.getByText('Ссылка скопирована.')).toBeVisible();
  await expect(page.getByTestId('guest-pass-status').first()).toHaveText('Ожидает гостя');
  await checkScreen(page, 'guest-pass-created');
  await checkLayout(page, 'guest-pass-created');
});

test('a guest opens the link without a login, proves his number and is let in', async ({ browser }) => {
  const guestContext = await browser.newContext(PHONE_CONTEXT);
  watchForCspViolations(guestContext);
  const guestPage = await guestContext.newPage();
  await guestPage.goto(link);
  await expect(guestPage.getByTestId('guest-pass-address')).toHaveText(address);
  await expect(guestPage.getByRole('navigation', { name: 'Основная навигация' })).toHaveCount(0);
  await checkScreen(guestPage, 'guest-pass-page');
  await checkLayout(guestPage, 'guest-pass-page');
  const before = smsCount(guest);
  await guestPage.getByLabel('Ваш номер телефона').fill(guest);
  await guestPage.getByRole('button', { name: 'Получить код' }).click();
  const code = await waitForCode(guest, before);
  await guestPage.getByLabel('Код из СМС').fill(code);
  await checkLayout(guestPage, 'guest-pass-code');
  await guestPage.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(guestPage.getByText(/Готово\. Номер .* добавлен на шлагбаум/)).toBeVisible();
  await checkScreen(guestPage, 'guest-pass-done');

  // The link is spent: opened again it says so.
  await guestPage.reload();
  await expect(guestPage.getByText(/Ссылка пропуска недействительна/)).toBeVisible();
  await guestContext.close();
});

test('the resident sees the pass used and revokes it', async () => {
  await page.reload();
  const card = page.getByTestId('guest-pass-card').first();
  await expect(card.getByTestId('guest-pass-status')).toHaveText(`Использован: ${shownPhone(guest)}`);
  await expect(page.getByTestId('phone-card').filter({ hasText: shownPhone(guest) })).toHaveCount(1);
  await card.getByRole('button', { name: 'Отозвать' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Да, отозвать' }).click();
  await expect(card.getByTestId('guest-pass-status')).toHaveText('Отозван');
  await expect(page.getByTestId('phone-card').filter({ hasText: shownPhone(guest) })).toHaveCount(0);
  await checkScreen(page, 'guest-pass-revoked');
});
