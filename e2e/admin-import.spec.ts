import type { APIRequestContext, Page } from '@playwright/test';
import { checkAdminScreen, isDesktop, newProjectPage, openOwnBarrier, runDigits } from './admin-support';
import { ApiAs, loginOverApi, openLoggedIn, ownerSession, type Session, uniquePhone } from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { checkLayout } from './support/layout';
import { expect, test } from './support/test';

/**
 * Import of residents (issue 14 part 1), on a phone and on a desktop (this file runs in both projects): the
 * administrator downloads the template, uploads a file with a mistake and sees it named on its row, uploads
 * the corrected file, sees the SMS and the time it will take, confirms, and the new resident logs in with his
 * number and finds the barrier. A number that already logs in to Propusk is invited, not added (issue 29 item
 * 5): its row reads like the others before the import, the result counts it as an invitation, and the person
 * finds the invitation in his requests while he has no access yet.
 */
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let ownerLogin: Session;
let owner: ApiAs;
let page: Page;
let address: string;
let barrierId: number;

const HEADERS = 'Телефон;Имя;Квартира или примечание;Тип;Начало;Конец;Расписание';
const csv = (lines: string[]) => Buffer.from(`${[HEADERS, ...lines].join('\r\n')}\r\n`, 'utf8');

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  ownerLogin = await ownerSession(api);
  owner = new ApiAs(api, ownerLogin);
  const digits = runDigits(testInfo, 7);
  address = `г Москва, ул Импортная, д ${digits}`;
  const barrier = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7802${digits}`.slice(0, 12),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 50,
    is_public: false,
  });
  barrierId = barrier.id;
  page = await newProjectPage(browser, testInfo);
});

test.afterAll(async () => {
  await page.context().close();
  await api.dispose();
});

test('imports residents from a file: template, problems per row, SMS and time, confirmation', async () => {
  const testInfo = test.info();
  const size = isDesktop(testInfo) ? 'desktop' : 'phone';
  await openLoggedIn(page, ownerLogin, '/admin-barriers');
  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'Импорт жителей' }).click();
  await expect(page.getByRole('heading', { name: 'Импорт жителей' })).toBeVisible();
  await checkAdminScreen(page, testInfo, 'import');
  await checkLayout(page, `${size}-import`);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Шаблон для Эксель' }).click();
  expect((await download).suggestedFilename()).toBe('шаблон-жителей.xlsx');

  const resident = uniquePhone();
  const wife = uniquePhone();
  const nanny = uniquePhone();
  const input = page.locator('input[type="file"]');
  await input.setInputFiles({
    name: 'жители.csv',
    mimeType: 'text/csv',
    buffer: csv([
      `${resident};Новиков Николай;кв. 7;Основной;;;`,
      `${wife};Новикова Анна;кв. 7;Постоянный;;;`,
      `12345;Ошибка;кв. 8;Основной;;;`,
    ]),
  });
  await page.getByRole('button', { name: 'Проверить файл' }).click();
  const badRow = page.locator('[data-testid="import-row"][data-line="4"]');
  await expect(badRow).toContainText('Неверный номер телефона');
  await expect(page.getByTestId('import-totals')).toContainText('Строк с ошибками: 1');
  await expect(page.getByRole('button', { name: 'Импортировать' })).toBeDisabled();
  await checkAdminScreen(page, testInfo, 'import-problems');
  await checkLayout(page, `${size}-import-problems`);

  // Someone who already logs in to Propusk with his number.
  const neighbourPhone = uniquePhone();
  const neighbour = new ApiAs(api, await loginOverApi(api, neighbourPhone));
  await input.setInputFiles({
    name: 'жители.csv',
    mimeType: 'text/csv',
    buffer: csv([
      `${resident};Новиков Николай;кв. 7;Основной;;;`,
      `${wife};Новикова Анна;кв. 7;Постоянный;;;`,
      `${nanny};Няня;кв. 7;По расписанию;;;пн-пт 08:00-20:00; сб 10:00-14:00`,
      `${neighbourPhone};Соседка;кв. 9;Основной;;;`,
    ]),
  });
  await page.getByRole('button', { name: 'Проверить файл' }).click();
  await expect(page.getByTestId('import-totals')).toContainText('Строк с ошибками: 0');
  await expect(page.getByTestId('import-totals')).toContainText('Жителей: 2');
  // Every resident's row says the same, account or not (no account oracle).
  const outcomes = page.locator('[data-testid="import-row"] [data-testid="import-outcome"]');
  await expect(outcomes).toHaveCount(4);
  await expect(
    page.locator('[data-testid="import-row"][data-line="2"] [data-testid="import-outcome"]'),
  ).toHaveText(
    await page
      .locator('[data-testid="import-row"][data-line="5"] [data-testid="import-outcome"]')
      .innerText(),
  );
  await expect(page.getByTestId('import-sms')).toHaveText(/СМС на устройство: до [1-9]\d*/);
  await expect(page.getByTestId('import-minutes')).toContainText('Отправка займёт');
  await expect(page.getByTestId('import-problem')).toHaveCount(0);
  await checkLayout(page, `${size}-import-ready`);

  await page.getByRole('button', { name: 'Импортировать' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Загрузить номеров: 4, жителей: 2?');
  await checkAdminScreen(page, testInfo, 'import-confirm');
  await dialog.getByRole('button', { name: 'Да, импортировать' }).click();
  await expect(page.getByTestId('success-line')).toContainText('Загружено номеров: 3, жителей: 1.');
  await expect(page.getByTestId('success-line')).toContainText('Приглашений: 1');
  await checkAdminScreen(page, testInfo, 'import-done');
  await checkLayout(page, `${size}-import-done`);

  const users = await owner.get(`/api/admin/barriers/${barrierId}/users/?page_size=100`);
  expect(users.users.map((user: { phone: string }) => user.phone)).toContain(resident);
  expect(users.users.map((user: { phone: string }) => user.phone)).not.toContain(neighbourPhone);
  const invitations = await neighbour.get('/api/access_requests/my/');
  expect(
    invitations.access_requests.filter(
      (request: { barrier: number; status: string }) =>
        request.barrier === barrierId && request.status === 'pending',
    ),
  ).toHaveLength(1);

  // The new resident logs in with his number and has the private barrier.
  const newcomer = new ApiAs(api, await loginOverApi(api, resident));
  const mine = await newcomer.get('/api/barriers/my/');
  expect(JSON.stringify(mine)).toContain(address);
});
