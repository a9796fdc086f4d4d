import { readFileSync } from 'node:fs';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import readXlsxFile from 'read-excel-file/node';
import {
  checkAdminScreen,
  newProjectPage,
  openAdminTab,
  openOwnBarrier,
  runDigits,
  selectOption,
} from './admin-support';
import { ApiAs, loginOverApi, openLoggedIn, ownerSession, type Session, uniquePhone } from './support/api';
import { checkLayout } from './support/layout';
import { readSms } from './support/sms';
import { expect, test } from './support/test';

/**
 * Issue 14 parts 2 and 3: the administrator invites a number that has no account; the person gets one SMS,
 * logs in with that number and finds the invitation, accepts it; the administrator downloads the barrier's
 * users and its history (with the screen's filter) as CSV and Excel, and the files hold what the screens show.
 */
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let ownerLogin: Session;
let page: Page;
let address: string;
let invitedPhone: string;

test.beforeAll(async ({ browser, playwright }) => {
  const testInfo = test.info();
  api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  ownerLogin = await ownerSession(api);
  const digits = runDigits(testInfo, 7);
  address = `г Москва, ул Выгрузочная, д ${digits}`;
  await new ApiAs(api, ownerLogin).post('/api/admin/barriers/', {
    address,
    device_phone: `+7802${digits}`,
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 50,
    is_public: false,
  });
  invitedPhone = uniquePhone();
  page = await newProjectPage(browser, testInfo);
  await openLoggedIn(page, ownerLogin, '/admin-barriers');
});

test.afterAll(async () => {
  await page.context().close();
  await api.dispose();
});

const digitsOf = (phone: string) => phone.replace(/\D/g, '');

test('invites a number without an account: it waits, and the person is told once by SMS', async () => {
  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'Пользователи' }).click();
  // The barrier's page stays until the users' screen has loaded, and its co-administrator form has a phone
  // field too ("Номер телефона администратора"): fill only once the users' screen is there.
  await expect(page.getByRole('heading', { name: 'Пользователи шлагбаума' })).toBeVisible();
  await page.getByLabel('Номер телефона', { exact: true }).fill(invitedPhone);
  await page.getByRole('button', { name: 'Найти' }).click();
  await expect(page.getByText('Пользователь не найден')).toBeVisible();
  await page.getByRole('button', { name: 'Пригласить по номеру' }).click();
  await expect(
    page.getByText(
      'Приглашение отправлено по СМС. Оно появится у человека, когда он войдёт по этому номеру.',
    ),
  ).toBeVisible();
  await checkAdminScreen(page, test.info(), 'invite-by-number');
  await checkLayout(page, `invite-by-number-${test.info().project.name}`);

  const told = readSms().filter((line) => line.to === invitedPhone);
  expect(told).toHaveLength(1);
  expect(told[0]?.text).toContain(address);
  // The SMS carries no text an administrator typed but the cleaned address (issue 40 item 2): not his name.
  expect(told[0]?.text).toContain('Вас приглашают к шлагбауму');
  expect(told[0]?.text).not.toContain('Ольга Владелец');

  await openAdminTab(page, 'Заявки');
  await page.getByRole('tab', { name: 'Исходящие' }).click();
  const waiting = page.getByTestId('waiting-invitation').filter({ hasText: address });
  await expect(waiting).toContainText('Ожидает регистрации');
  await expect(waiting).toContainText(digitsOf(invitedPhone).slice(-2));
  await checkAdminScreen(page, test.info(), 'waiting-invitations');
  await checkLayout(page, `waiting-invitations-${test.info().project.name}`);
});

test('the number logs in, finds the invitation and accepts it', async ({ browser }) => {
  const person = await loginOverApi(api, invitedPhone);
  const personPage = await newProjectPage(browser, test.info());
  await openLoggedIn(personPage, person, '/requests');
  await personPage.getByRole('tab', { name: 'Входящие' }).click();
  const invitation = personPage.getByTestId('access-request').filter({ hasText: address });
  await expect(invitation).toContainText('Ожидает');
  await invitation.getByRole('button', { name: 'Принять' }).click();
  await expect(invitation).toContainText('Принята');
  await personPage.context().close();

  await page.reload();
  await page.getByRole('tab', { name: 'Исходящие' }).click();
  await expect(page.getByTestId('access-request').filter({ hasText: address }).first()).toBeVisible();
  await expect(page.getByTestId('waiting-invitation').filter({ hasText: address })).toHaveCount(0);
});

async function saved(download: Download): Promise<Buffer> {
  const file = await download.path();
  return readFileSync(file);
}

test('downloads the users and the filtered history as CSV and Excel', async () => {
  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'Пользователи' }).click();
  await expect(page.getByTestId('barrier-user')).toHaveCount(1);
  await checkAdminScreen(page, test.info(), 'barrier-users-export');

  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Скачать CSV' }).click(),
  ]);
  expect(csvDownload.suggestedFilename()).toMatch(/^propusk-\d+-users-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await saved(csvDownload);
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csv.subarray(3).toString('utf8').trim().split('\r\n');
  expect(lines[0]).toBe(
    'Пользователь;Телефон пользователя;Роль;Доступ с;Номер;Название номера;Тип номера;Срок или расписание;Состояние',
  );
  expect(lines.some((line) => line.includes(`${invitedPhone};`) && line.includes(';Основной;'))).toBe(true);

  const [xlsxDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Скачать Excel' }).click(),
  ]);
  expect(xlsxDownload.suggestedFilename()).toMatch(/\.xlsx$/);
  const [sheet] = await readXlsxFile(await saved(xlsxDownload));
  expect(sheet?.data[0]?.[0]).toBe('Пользователь');
  expect(sheet?.data.some((row) => row[4] === invitedPhone)).toBe(true);

  await page.getByRole('button', { name: '← Назад' }).click();
  await page.getByRole('button', { name: 'История изменений' }).click();
  await selectOption(page, 'Тип действия', 'Добавление номера');
  await expect(page.getByTestId('action-card').first()).toContainText('Добавление номера');
  const [historyDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Скачать Excel' }).click(),
  ]);
  const [history] = await readXlsxFile(await saved(historyDownload));
  const rows = history?.data.slice(1) ?? [];
  expect(history?.data[0]).toEqual([
    'Дата и время',
    'Действие',
    'Причина',
    'Номер',
    'Автор',
    'Имя автора',
    'Настройка',
  ]);
  expect(rows.length).toBeGreaterThanOrEqual(2);
  expect(new Set(rows.map((row) => row[1]))).toEqual(new Set(['Добавление номера']));
  expect(rows.map((row) => row[3])).toContain(invitedPhone);
  await checkAdminScreen(page, test.info(), 'history-export');
  await checkLayout(page, `history-export-${test.info().project.name}`);
});
