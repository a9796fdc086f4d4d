import type { APIRequestContext, Page } from '@playwright/test';
import {
  ApiAs,
  barrierWithResident,
  loginOverApi,
  openLoggedIn,
  ownerSession,
  uniquePhone,
} from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { checkLayout } from './support/layout';
import { checkScreen } from './support/screens';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * The administrator at a desk (issue 41 item 4): from 1024 px his screens have the navigation at the left and
 * tables — barriers (searched by address, sorted by a header), the barrier's users (sorted by name), the
 * history, the device log and the openings (filtered) — each screen checked by axe; below 1024 px the phone's
 * layout is back.
 */
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let owner: ApiAs;
let page: Page;
let address: string;

test.beforeAll(async ({ browser, playwright }) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  owner = new ApiAs(api, await ownerSession(api));
  const digits = `${Date.now() % 10_000_000}`.padStart(7, '0');
  address = `г Москва, ул Стола, д ${digits.slice(2)}`;
  const { barrier, resident } = await barrierWithResident(api, owner, {
    address,
    devicePhone: `+7802${digits}`,
  });
  await new ApiAs(api, resident).patch('/api/users/me/', { full_name: 'Борис Первый' });
  // A second resident, whose name sorts last.
  const second = await loginOverApi(api, uniquePhone());
  const asSecond = new ApiAs(api, second);
  await asSecond.patch('/api/users/me/', { full_name: 'Яков Последний' });
  const asked = await asSecond.post('/api/access_requests/', {
    user: (await asSecond.get('/api/users/me/')).id,
    barrier: barrier.id,
  });
  await owner.patch(`/api/admin/access_requests/${asked.id}/`, { status: 'accepted' });
  // One opening by the administrator, for the openings' table.
  await owner.post(`/api/admin/barriers/${barrier.id}/open/`, {});
  const context = await browser.newContext({
    ...PHONE_CONTEXT,
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
  });
  watchForCspViolations(context);
  page = await context.newPage();
  await openLoggedIn(page, owner.session, '/admin');
});

test.afterAll(async () => {
  await page.context().close();
  await api.dispose();
});

/** The one navigation of the screen: at the left edge, as tall as the window. */
function sideNavigation() {
  return page.getByRole('navigation', { name: 'Основная навигация' });
}

/** The barrier page's screen behind `button`, with the address searched in the table first. */
async function openBarrierScreen(button: string, heading: string) {
  await sideNavigation().getByRole('button', { name: 'Шлагбаумы' }).click();
  await page.getByLabel('Поиск по адресу').fill(address);
  const table = page.getByRole('table', { name: 'Мои шлагбаумы' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('button', { name: address }).click();
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
  await page.getByRole('button', { name: button, exact: true }).click();
  await expect(page.getByRole('heading', { name: heading })).toBeVisible();
}

test('the side navigation and the barriers table: searched by address, sorted by a header', async () => {
  await expect(page.getByRole('heading', { name: 'Профиль администратора' })).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(1);
  const box = await sideNavigation().boundingBox();
  expect(box?.x).toBe(0);
  expect(box?.height).toBeGreaterThanOrEqual(800);
  await checkScreen(page, 'desk-admin-profile');

  await sideNavigation().getByRole('button', { name: 'Шлагбаумы' }).click();
  await expect(sideNavigation().getByRole('button', { name: 'Шлагбаумы' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const table = page.getByRole('table', { name: 'Мои шлагбаумы' });
  await expect(table).toBeVisible();
  // The window's width is used: the table is wider than the phone's column of 520 px.
  expect((await table.boundingBox())?.width).toBeGreaterThan(800);
  const addressHeader = table.getByRole('columnheader', { name: /Адрес/ });
  await addressHeader.getByRole('button').click();
  await expect(addressHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await page.getByLabel('Поиск по адресу').fill(address);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText(address);
  await page.getByLabel('Поиск по адресу').fill(`${address} нетакой`);
  await expect(table.getByRole('cell', { name: 'Нет результатов' })).toBeVisible();
  await checkScreen(page, 'desk-admin-barriers');
  await checkLayout(page, 'desk-admin-barriers');

  // Narrower than a desk: the phone's list of cards and its bottom bar are back.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Сортировка/ })).toBeVisible();
  expect((await sideNavigation().boundingBox())?.y).toBeGreaterThan(700);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('table', { name: 'Мои шлагбаумы' })).toBeVisible();
});

test('the users table sorts by name; the history table filters and opens an action', async () => {
  await openBarrierScreen('Пользователи', 'Пользователи шлагбаума');
  const users = page.getByRole('table', { name: 'Пользователи шлагбаума' });
  await expect(users.getByTestId('barrier-user')).toHaveCount(2);
  const name = users.getByRole('columnheader', { name: /Имя/ });
  await name.getByRole('button').click();
  await expect(name).toHaveAttribute('aria-sort', 'ascending');
  await expect(users.getByTestId('barrier-user').first()).toContainText('Борис Первый');
  await name.getByRole('button').click();
  await expect(name).toHaveAttribute('aria-sort', 'descending');
  await expect(users.getByTestId('barrier-user').first()).toContainText('Яков Последний');
  await checkScreen(page, 'desk-admin-barrier-users');

  await openBarrierScreen('История изменений', 'История изменений (Админ)');
  const history = page.getByRole('table', { name: 'История изменений' });
  const added = history.getByTestId('action-card').filter({ hasText: 'Добавление номера' }).first();
  await expect(added).toBeVisible();
  await added.getByRole('button').click();
  await expect(page.getByTestId('action-detail')).toContainText('Причина:');
  await page.getByRole('textbox', { name: 'Тип действия' }).click();
  // Nobody deleted a number here: the filter leaves the table empty.
  await page.getByRole('option', { name: 'Удаление номера', exact: true }).click();
  await expect(history.getByTestId('action-card')).toHaveCount(0);
  await expect(history.getByRole('row')).toHaveCount(2);
  await checkScreen(page, 'desk-admin-history');
});

test('the device log and openings tables filter; the side navigation reaches «Заявки»', async () => {
  await openBarrierScreen('Журнал устройства', 'Журнал устройства');
  const log = page.getByRole('table', { name: 'Журнал устройства' });
  await expect(log.getByTestId('device-message').first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Результат' }).click();
  await page.getByRole('option', { name: 'отправлено', exact: true }).click();
  await expect(log.getByTestId('device-message').first()).toContainText('Отправлено устройству');
  await expect(log.getByTestId('device-message').filter({ hasText: 'Получено от устройства' })).toHaveCount(
    0,
  );
  await expect(log.getByTestId('device-message').first()).toContainText('****');
  await checkScreen(page, 'desk-admin-device-log');

  await openBarrierScreen('Журнал открытий', 'Журнал открытий');
  const openings = page.getByRole('table', { name: 'Журнал открытий' });
  await expect(openings.getByTestId('opening-card')).toHaveCount(1);
  await expect(openings.getByTestId('opening-card')).toContainText('администратором');
  await page.getByLabel('Статус').selectOption({ label: 'Не открылось' });
  await expect(openings.getByTestId('opening-card')).toHaveCount(0);
  await page.getByLabel('Статус').selectOption({ label: 'Все' });
  await expect(openings.getByTestId('opening-card')).toHaveCount(1);
  await checkScreen(page, 'desk-admin-openings');

  await sideNavigation().getByRole('button', { name: 'Заявки' }).click();
  await expect(page.getByRole('heading', { name: 'Заявки' })).toBeVisible();
  await expect(sideNavigation().getByRole('button', { name: 'Заявки' })).toHaveAttribute(
    'aria-current',
    'page',
  );
});
