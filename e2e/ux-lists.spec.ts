import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { openOwnBarrier } from './admin-support';
import { ApiAs, loginOverApi, openLoggedIn, ownerSession, type Session, uniquePhone } from './support/api';
import { adminAccount, PHONE_CONTEXT } from './support/environment';
import { shownPhone } from './support/phone';
import { checkScreen } from './support/screens';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Lists that say what they hold (issue 12, items 5, 8, 9): the barrier search forgives punctuation, word
 * order and abbreviations and is still there after a barrier was opened; a pending request shows on the
 * barrier's card; "Заявки" counts what waits; an invitation names who sent it; history cards show the
 * number, the author and the setting; a reversed date range is named.
 */
test.describe.configure({ mode: 'serial' });

const run = `${Date.now() % 100000}`;
const address = `г Москва, ул Тверская, д 7, стр ${run}`;
const privateAddress = `г Москва, ул Пригласительная, д 3, стр ${run}`;
let owner: ApiAs;
let ownerLogin: Session;
let resident: Session;
let residentApi: ApiAs;
let residentId: number;
let barrierId: number;
let page: Page;
let context: BrowserContext;
let api: APIRequestContext;

/** The administrator in a context of his own (the tokens live in localStorage, shared within a context). */
async function openAsAdmin(
  browser: Browser,
  path: string,
): Promise<{ adminPage: Page; close: () => Promise<void> }> {
  const adminContext = await browser.newContext(PHONE_CONTEXT);
  watchForCspViolations(adminContext);
  const adminPage = await adminContext.newPage();
  await openLoggedIn(adminPage, ownerLogin, path);
  return { adminPage, close: () => adminContext.close() };
}

test.beforeAll(async ({ browser, playwright }) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  ownerLogin = await ownerSession(api);
  owner = new ApiAs(api, ownerLogin);
  const device = (index: number) => `+7801${run.padStart(5, '0')}${index}0`.slice(0, 12);
  const barrier = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: device(1),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 50,
    is_public: true,
  });
  barrierId = barrier.id;
  resident = await loginOverApi(api, uniquePhone());
  residentApi = new ApiAs(api, resident);
  residentId = (await residentApi.patch('/api/users/me/', { full_name: 'Семён Жилец' })).id;
  context = await browser.newContext(PHONE_CONTEXT);
  watchForCspViolations(context);
  page = await context.newPage();
});

test.afterAll(async () => {
  await context.close();
  await api.dispose();
});

test('finds a barrier whatever the punctuation, order and abbreviations, and keeps the search on the way back', async () => {
  await openLoggedIn(page, resident, '/barriers');
  await page.getByText('Поиск', { exact: true }).click();
  const search = page.getByLabel('Поиск по адресу');
  const items = page.getByTestId('barrier-item');
  for (const query of [`Тверская 7 стр ${run}`, `${run} 7, тверская`, `ул. Тверская д.7 строение ${run}`]) {
    await search.fill(query);
    await expect(items).toHaveCount(1);
    await expect(items.first()).toContainText(address);
  }
  await search.fill(`тверск ${run} ленина`);
  await expect(
    page.getByText(
      'По этому адресу шлагбаумов не нашлось. Проверьте адрес или попросите администратора шлагбаума пригласить вас по номеру телефона.',
    ),
  ).toBeVisible();
  await search.fill(`тверск, стр. ${run}`);
  await expect(items).toHaveCount(1);
  await expect(page).toHaveURL(/tab=all/);
  await checkScreen(page, 'ux-lists-search');

  await items.first().click();
  await expect(page).toHaveURL(/\/barrier-details$/);
  await page.getByRole('button', { name: '← К шлагбаумам' }).click();
  await expect(search).toHaveValue(`тверск, стр. ${run}`);
  await expect(page.getByRole('radio', { name: 'Поиск' })).toBeChecked();
  await expect(items).toHaveCount(1);

  await items.first().click();
  await expect(page).toHaveURL(/\/barrier-details$/);
  await page.goBack();
  await expect(search).toHaveValue(`тверск, стр. ${run}`);
  await expect(items).toHaveCount(1);
});

test('a sent request shows on the barrier card and the list, and cannot be sent again', async () => {
  await page.getByTestId('barrier-item').first().click();
  await page.getByRole('button', { name: 'Отправить запрос' }).click();
  await expect(page.getByTestId('pending-request')).toHaveText('Заявка отправлена, ждёт решения');
  await expect(page.getByRole('button', { name: 'Отправить запрос' })).toHaveCount(0);
  await checkScreen(page, 'ux-lists-pending-card');
  await page.getByRole('button', { name: '← К шлагбаумам' }).click();
  await expect(page.getByTestId('barrier-item').first().getByTestId('pending-request')).toHaveText(
    'Заявка отправлена, ждёт решения',
  );
  await checkScreen(page, 'ux-lists-pending-list');
});

test('the administrator sees the count of waiting requests on "Заявки"', async ({ browser }) => {
  const { adminPage, close } = await openAsAdmin(browser, '/admin-barriers');
  const waiting = (await owner.get('/api/admin/access_requests/my/?type=incoming&status=pending&page_size=1'))
    .total_count as number;
  expect(waiting).toBeGreaterThan(0);
  const navigation = adminPage.getByRole('navigation', { name: 'Основная навигация' });
  await expect(navigation.getByTestId('pending-requests-count')).toHaveText(
    waiting > 99 ? '99+' : String(waiting),
  );
  await checkScreen(adminPage, 'ux-lists-admin-counter');
  await close();
});

test('an invitation is counted on the user’s "Заявки" and names the administrator who sent it', async () => {
  const privateBarrier = await owner.post('/api/admin/barriers/', {
    address: privateAddress,
    device_phone: `+7801${run.padStart(5, '0')}20`.slice(0, 12),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 50,
    is_public: false,
  });
  await owner.post('/api/admin/access_requests/', { user: residentId, barrier: privateBarrier.id });
  await page.reload();
  const navigation = page.getByRole('navigation', { name: 'Основная навигация' });
  await expect(navigation.getByTestId('pending-requests-count')).toHaveText('1');
  await navigation.getByText('Заявки', { exact: true }).click();
  await page.getByRole('tab', { name: 'Входящие' }).click();
  const invitation = page.getByTestId('access-request').filter({ hasText: privateAddress });
  await expect(invitation.getByTestId('invited-by')).toHaveText(`Пригласил: ${adminAccount('owner').name}`);
  await checkScreen(page, 'ux-lists-invitation');
});

test('history cards show the number, the author and the setting; a reversed range is named', async ({
  browser,
}) => {
  // The owner accepts the request (the resident's number goes on) and sends a setting.
  const pending = await owner.get(
    '/api/admin/access_requests/my/?type=incoming&status=pending&page_size=100',
  );
  const request = pending.access_requests.find((item: { barrier: number }) => item.barrier === barrierId);
  await owner.patch(`/api/admin/access_requests/${request.id}/`, { status: 'accepted' });
  await owner.post(`/api/admin/barriers/${barrierId}/settings/`, { setting: 'open', params: {} });

  const { adminPage, close } = await openAsAdmin(browser, '/admin-barriers');
  await openOwnBarrier(adminPage, address);
  await adminPage.getByRole('button', { name: 'История изменений' }).click();
  await expect(adminPage.getByRole('heading', { name: 'История изменений (Админ)' })).toBeVisible();
  const cards = adminPage.getByTestId('action-card');
  const setting = cards.filter({ hasText: 'Настройка шлагбаума' }).first();
  await expect(setting.getByTestId('action-setting')).toHaveText('Настройка: Открыть');
  await expect(setting.getByTestId('action-author')).toHaveText(
    `Администратор: ${adminAccount('owner').name}`,
  );
  const added = cards.filter({ hasText: shownPhone(resident.phone) }).first();
  await expect(added.getByTestId('action-phone')).toHaveText(`Номер: ${shownPhone(resident.phone)}`);
  await checkScreen(adminPage, 'ux-lists-history');

  await adminPage.getByLabel('Создано с').fill('2026-05-02T10:00');
  await adminPage.getByLabel('Создано по').fill('2026-05-01T10:00');
  await expect(adminPage.getByText('Дата начала позже даты конца.')).toBeVisible();
  await expect(adminPage.getByText('Нет данных')).toHaveCount(0);
  await checkScreen(adminPage, 'ux-lists-history-reversed');
  await close();
});
