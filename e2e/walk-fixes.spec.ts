import type { APIRequestContext, Page } from '@playwright/test';
import { openOwnBarrier } from './admin-support';
import {
  ApiAs,
  barrierWithResident,
  gatewayAdminSession,
  loginOverApi,
  openLoggedIn,
  type Session,
  uniquePhone,
} from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { ownerScene } from './support/owner-scene';
import { shownPhone } from './support/phone';
import { checkScreen } from './support/screens';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Issue 41 majors 2–5 at 390×844, each performed as a person meets it: a resident blocked by his administrator
 * is told so on «Мои шлагбаумы» and in «Заявки», and the administrator finds him in «Заблокированные» to
 * unblock him; a unit without power is «нет питания» on its barrier page, never «в порядке»; a new resident's
 * first screen says what to do next, his empty lists say what was (not) typed, a failed list offers
 * «Повторить», and an accepted invitation says what it did.
 */
test.describe.configure({ mode: 'serial' });

const run = `${Date.now() % 100_000}`;
let api: APIRequestContext;
let owner: ApiAs;
let ownerLogin: Session;
let page: Page;

ownerScene((scene) => {
  ({ api, owner, page } = scene);
  ownerLogin = scene.session;
});

const blockedAddress = `г Москва, ул Закрытая, д ${run}`;
let blockedResident: Session;

test('a blocked resident is told on «Мои шлагбаумы» and in «Заявки» why and whom to ask', async () => {
  const address = blockedAddress;
  const { resident } = await barrierWithResident(api, owner, {
    address,
    devicePhone: `+7806${run.padStart(7, '0')}`.slice(0, 12),
  });
  blockedResident = resident;
  const residentApi = new ApiAs(api, resident);
  const residentId = (await residentApi.get('/api/users/me/')).id;
  await owner.patch(`/api/admin/users/${residentId}/block/`, { reason: 'Долг за обслуживание' });
  const administrator = await owner.get('/api/users/me/');

  // His barrier is gone from his list, and a card says why and whom to ask.
  await openLoggedIn(page, resident, '/barriers');
  const closed = page.getByTestId('closed-barrier').filter({ hasText: address });
  await expect(closed).toContainText('Администратор закрыл вам доступ к этому шлагбауму.');
  await expect(closed).toContainText('Причина: Долг за обслуживание');
  await expect(closed).toContainText(`Администратор: ${administrator.full_name}`);
  if (administrator.phone_privacy === 'private') {
    await expect(closed).toContainText('Администратор скрыл свой номер телефона.');
  } else {
    await expect(closed.getByRole('link', { name: 'Позвонить администратору' })).toHaveAttribute(
      'href',
      `tel:${administrator.phone}`,
    );
  }
  await expect(page.getByTestId('barrier-item')).toHaveCount(0);
  await expect(page.getByTestId('first-steps')).toBeVisible();
  await checkScreen(page, 'walk-blocked-barriers');

  // «Заявки»: his accepted request says the access was closed.
  await page
    .getByRole('navigation', { name: 'Основная навигация' })
    .getByText('Заявки', { exact: true })
    .click();
  const request = page.getByTestId('access-request').filter({ hasText: address });
  await expect(request).toContainText('Принята');
  await expect(request.getByTestId('request-closed')).toHaveText(
    'Администратор закрыл доступ к этому шлагбауму.',
  );
  await checkScreen(page, 'walk-blocked-requests');
});

test('the administrator finds the blocked resident in «Заблокированные» and unblocks him', async () => {
  const resident = blockedResident;
  const residentApi = new ApiAs(api, resident);
  // The administrator: «Пользователи» no longer has him; «Заблокированные» does, with «Разблокировать».
  await openLoggedIn(page, ownerLogin, '/admin-barriers');
  await openOwnBarrier(page, blockedAddress);
  await page.getByRole('button', { name: 'Пользователи' }).click();
  await expect(page.getByRole('heading', { name: 'Пользователи шлагбаума' })).toBeVisible();
  await page.getByRole('button', { name: 'Заблокированные' }).click();
  await expect(page.getByRole('heading', { name: 'Заблокированные' })).toBeVisible();
  const blocked = page.getByTestId('blocked-user').filter({ hasText: shownPhone(resident.phone) });
  await expect(blocked).toContainText('Причина: Долг за обслуживание');
  await checkScreen(page, 'walk-blocked-list');
  await blocked.getByRole('button', { name: 'Разблокировать' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Разблокировать' }).click();
  await expect(page.getByTestId('success-line')).toContainText('разблокирован');
  await expect(blocked).toHaveCount(0);
  expect((await residentApi.get('/api/barriers/my/')).closed_by_admin).toEqual([]);
});

test('a unit without power is «нет питания» on its barrier page, never «в порядке»', async ({
  browser,
  playwright,
  gatewayServer: server,
}) => {
  // Two round trips through the simulated unit's SMS and two screens checked by axe.
  test.setTimeout(90_000);
  const gatewayApi = await playwright.request.newContext({ baseURL: server.baseUrl });
  const session = await gatewayAdminSession(gatewayApi);
  const gatewayOwner = new ApiAs(gatewayApi, session);
  const address = `г Москва, ул Обесточенная, д ${run}`;
  const created = await gatewayOwner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7807${run.padStart(7, '0')}`.slice(0, 12),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: false,
  });
  const unit = async () =>
    ((await gatewayOwner.get(`/api/demo/devices/${created.id}/`)).entries as { slot: number }[]).length;
  await expect.poll(unit, { timeout: 20_000 }).toBe(2);
  // The unit's SMS reaches the server a moment later (DEVICE_SIM_DELAY_MS): the screen is opened once it has.
  const power = async () =>
    (await gatewayOwner.get(`/api/admin/barriers/${created.id}/device-health/`)).power as string | null;
  await gatewayOwner.post(`/api/demo/devices/${created.id}/power/`, { event: 'lost' });
  await expect.poll(power, { timeout: 20_000 }).toBe('lost');

  const context = await browser.newContext({ ...PHONE_CONTEXT, baseURL: server.baseUrl });
  watchForCspViolations(context);
  const desk = await context.newPage();
  try {
    await openLoggedIn(desk, session, '/admin-barriers');
    await desk.getByRole('listitem').filter({ hasText: address }).click();
    await expect(desk.getByTestId('barrier-address')).toHaveText(address);
    await expect(desk.getByTestId('device-power')).toHaveText(/^Питание: нет питания с \d{2}:\d{2}$/);
    // One truth: the badge beside the power line says the same.
    await expect(desk.getByTestId('device-state')).toHaveText('нет питания');
    await expect(desk.getByTestId('device-state-hint')).toContainText('Проверьте питание устройства');
    await checkScreen(desk, 'walk-power-lost');

    await gatewayOwner.post(`/api/demo/devices/${created.id}/power/`, { event: 'restored' });
    await expect.poll(power, { timeout: 20_000 }).toBe('restored');
    await desk.reload();
    await expect(desk.getByTestId('device-power')).toHaveText(
      /^Питание: питание восстановлено в \d{2}:\d{2}$/,
    );
    await expect(desk.getByTestId('device-state')).not.toHaveText('нет питания');
    // The restored line's colour passes axe's contrast.
    await checkScreen(desk, 'walk-power-restored');
  } finally {
    await context.close();
    await gatewayApi.dispose();
  }
});

let newResident: Session;

test('a new resident is told what to do next, and a failed list offers «Повторить»', async () => {
  const resident = await loginOverApi(api, uniquePhone());
  newResident = resident;
  await openLoggedIn(page, resident, '/start');
  await expect(page).toHaveURL(/\/user$/);
  const steps = page.getByTestId('first-steps');
  await expect(steps).toContainText('У вас пока нет шлагбаумов.');
  await expect(steps).toContainText('дождитесь приглашения');
  await checkScreen(page, 'walk-first-run');

  await steps.getByRole('button', { name: 'Найти шлагбаум' }).click();
  await expect(page).toHaveURL(/\/barriers\?tab=all$/);
  await page.getByText('Мои шлагбаумы', { exact: true }).click();
  // Nothing typed: not «по этому адресу не нашлось», but what to do next.
  await expect(page.getByTestId('first-steps')).toBeVisible();
  await expect(page.getByText(/По этому адресу шлагбаумов не нашлось/)).toHaveCount(0);
  await page.getByLabel('Поиск по адресу').fill('Несуществующая');
  await expect(page.getByText(/По этому адресу шлагбаумов не нашлось/)).toBeVisible();
  await expect(page.getByTestId('first-steps')).toHaveCount(0);
  await checkScreen(page, 'walk-empty-search');

  // His list cannot be read: he lands on it with the error and «Повторить», not silently on his profile.
  await page.route('**/api/barriers/my/**', (route) => route.fulfill({ status: 503, json: {} }));
  await page.goto('/start');
  await expect(page).toHaveURL(/\/barriers/);
  await expect(page.getByText('Ошибка загрузки данных')).toBeVisible();
  await page.unroute('**/api/barriers/my/**');
  await page.getByRole('button', { name: 'Повторить' }).click();
  await expect(page.getByTestId('first-steps')).toBeVisible();
});

test('accepting an invitation says what it did, stays on «Входящие» and leads to the barrier', async () => {
  const resident = newResident;
  const address = `г Москва, ул Приглашённая, д ${run}`;
  const invitedTo = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7808${run.padStart(7, '0')}`.slice(0, 12),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: false,
  });
  const residentId = (await new ApiAs(api, resident).get('/api/users/me/')).id;
  await owner.post('/api/admin/access_requests/', { user: residentId, barrier: invitedTo.id });
  await page.goto('/requests');
  await expect(page.getByRole('tab', { name: 'Входящие' })).toHaveAttribute('aria-selected', 'true');
  await page
    .getByTestId('access-request')
    .filter({ hasText: address })
    .getByRole('button', { name: 'Принять' })
    .click();
  const accepted = page.getByTestId('request-accepted');
  await expect(accepted).toContainText(`Приглашение принято: шлагбаум ${address} теперь ваш.`);
  await expect(page.getByRole('tab', { name: 'Входящие' })).toHaveAttribute('aria-selected', 'true');
  await checkScreen(page, 'walk-invitation-accepted');
  await accepted.getByRole('button', { name: 'Перейти к шлагбауму' }).click();
  await expect(page).toHaveURL(/\/mybarrier$/);
  await expect(page.getByText(address).first()).toBeVisible();
});
