import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { openOwnBarrier } from './admin-support';
import {
  ApiAs,
  adminSession,
  loginOverApi,
  openLoggedIn,
  ownerSession,
  type Session,
  uniquePhone,
} from './support/api';
import { adminAccount, PHONE_CONTEXT } from './support/environment';
import { checkLayout } from './support/layout';
import { checkScreen } from './support/screens';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Co-administrators (issue 14.4): the owner adds a second administrator to his barrier as an operator; the
 * operator finds it in his list with his role, sees no settings, parameters or deletion, adds a phone for a
 * resident, and the history names him.
 */
test.describe.configure({ mode: 'serial' });

const run = `${Date.now() % 100000}`;
const address = `г Москва, ул Ролевая, д 4, стр ${run}`;
const operatorAccount = adminAccount('operator');
let api: APIRequestContext;
let ownerLogin: Session;
let operatorLogin: Session;

async function openAs(browser: Browser, session: Session, where: string): Promise<Page> {
  const context = await browser.newContext(PHONE_CONTEXT);
  watchForCspViolations(context);
  const page = await context.newPage();
  await openLoggedIn(page, session, where);
  return page;
}

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  ownerLogin = await ownerSession(api);
  const owner = new ApiAs(api, ownerLogin);
  const barrier = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7802${run.padStart(5, '0')}10`.slice(0, 12),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 50,
    is_public: true,
  });
  const resident = new ApiAs(api, await loginOverApi(api, uniquePhone()));
  await resident.patch('/api/users/me/', { full_name: 'Семён Ролев' });
  const asked = await resident.post('/api/access_requests/', {
    user: (await resident.get('/api/users/me/')).id,
    barrier: barrier.id,
  });
  await owner.patch(`/api/admin/access_requests/${asked.id}/`, { status: 'accepted' });
  operatorLogin = await adminSession(api, 'operator');
});

test.afterAll(async () => {
  await api.dispose();
});

test('the owner adds an administrator to his barrier as an operator', async ({ browser }) => {
  const page = await openAs(browser, ownerLogin, '/admin');
  await openOwnBarrier(page, address);
  const section = page.getByTestId('staff-section');
  await expect(section.getByText('Других администраторов нет.')).toBeVisible();
  await section.getByLabel('Номер телефона администратора').fill(operatorAccount.phone);
  await expect(section.getByRole('textbox', { name: 'Роль' })).toHaveValue('Оператор');
  await section.getByRole('button', { name: 'Добавить', exact: true }).click();
  const member = section.getByTestId('staff-member').filter({ hasText: operatorAccount.name });
  await expect(member).toBeVisible();
  await expect(member.getByRole('textbox', { name: 'Роль' })).toHaveValue('Оператор');
  await expect(section.getByText(`Администратор ${operatorAccount.name} добавлен.`)).toBeVisible();
  await checkScreen(page, 'roles-owner-staff');
  await checkLayout(page, '390-roles-owner-staff');
  await page.setViewportSize({ width: 1280, height: 800 });
  await checkLayout(page, '1280-roles-owner-staff');
  await page.context().close();
});

test('the operator sees the barrier with his role, no settings, adds a phone, and the history names him', async ({
  browser,
}) => {
  const page = await openAs(browser, operatorLogin, '/admin');
  await page
    .getByRole('navigation', { name: 'Основная навигация' })
    .getByText('Шлагбаумы', { exact: true })
    .click();
  const card = page.getByRole('listitem').filter({ hasText: address });
  await expect(card.getByTestId('role-badge')).toHaveText('Оператор');
  await openOwnBarrier(page, address);
  await expect(page.getByTestId('my-role')).toHaveText('Ваша роль: Оператор');
  await expect(page.getByRole('button', { name: 'Пользователи' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'История изменений' })).toBeVisible();
  for (const hidden of ['Настройки устройства', 'Удалить шлагбаум', 'Проверить устройство']) {
    await expect(page.getByRole('button', { name: hidden })).toHaveCount(0);
  }
  await expect(page.getByRole('heading', { name: 'Параметры' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Администраторы' })).toHaveCount(0);
  await checkScreen(page, 'roles-operator-barrier');
  await checkLayout(page, '390-roles-operator-barrier');

  await page.getByRole('button', { name: 'Пользователи' }).click();
  await page
    .getByTestId('barrier-user')
    .filter({ hasText: 'Семён Ролев' })
    .getByRole('button', { name: 'Открыть профиль' })
    .click();
  await page.getByRole('button', { name: 'Добавить номер' }).click();
  await page.getByLabel('Имя').fill('Дача оператора');
  await page.getByLabel('Номер телефона').fill(uniquePhone());
  await page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Дача оператора')).toBeVisible();

  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'История изменений' }).click();
  await expect(page.getByTestId('action-author').first()).toBeVisible();
  await expect(
    page
      .getByTestId('action-card')
      .filter({ has: page.getByTestId('action-author').filter({ hasText: operatorAccount.name }) }),
  ).not.toHaveCount(0);
  await checkScreen(page, 'roles-operator-history');
  await page.context().close();
});
