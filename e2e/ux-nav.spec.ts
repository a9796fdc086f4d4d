import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { openOwnBarrier } from './admin-support';
import { ApiAs, loginOverApi, openLoggedIn, ownerSession, type Session, uniquePhone } from './support/api';
import { adminAccount, PHONE_CONTEXT } from './support/environment';
import { checkLayout } from './support/layout';
import { checkScreen } from './support/screens';
import { readSms } from './support/sms';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Issue 12 (items 2, 4, 7) at 390×844: a stored session skips /login; the favicon and the web manifest;
 * destructive actions ask once in a modal that is fully on screen; a resident blocked by the administrator
 * is told why; and no main screen cuts a badge or a button, or offers a target under 44×44 px or an unnamed
 * icon button (at 390×844 and 1280×800).
 */
test.describe.configure({ mode: 'serial' });

const run = `${Date.now() % 100000}`;
const street = `ул. Навигационная ${run}`;
const DESKTOP = {
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 1,
  isMobile: false,
  hasTouch: false,
};
let api: APIRequestContext;
let owner: ApiAs;
let resident: Session;
let residentId: number;
let shared: { barrier: number; other: number; address: string; otherAddress: string };

async function newPage(browser: Browser, desktop = false): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE_CONTEXT, ...(desktop ? DESKTOP : {}) });
  watchForCspViolations(context);
  return { context, page: await context.newPage() };
}

const codeRequests = (phone: string) => readSms().filter((line) => line.to === phone).length;

/** The dialog is inside the viewport and ends above the bottom navigation (which it covers). */
async function expectDialogOnScreen(page: Page) {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toBeInViewport({ ratio: 1 });
  const box = await dialog.boundingBox();
  const navigation = await page.getByRole('navigation', { name: 'Основная навигация' }).boundingBox();
  expect(box).not.toBeNull();
  if (box && navigation) expect(box.y + box.height).toBeLessThanOrEqual(navigation.y);
  return dialog;
}

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  owner = new ApiAs(api, await ownerSession(api));
  const ids: number[] = [];
  for (const house of [1, 2]) {
    const barrier = await owner.post('/api/admin/barriers/', {
      address: `${street}, д. ${house}`,
      device_phone: `+7801${run.padStart(5, '0')}${house}0`.slice(0, 12),
      device_model: 'RTU5025',
      device_password: '1234',
      device_phones_amount: 50,
      additional_info: 'Въезд со двора, шлагбаум у второго подъезда',
      is_public: true,
    });
    ids.push(barrier.id);
  }
  const [barrier, other] = ids as [number, number];
  shared = { barrier, other, address: `${street}, д. 1`, otherAddress: `${street}, д. 2` };
  resident = await loginOverApi(api, uniquePhone());
  const residentApi = new ApiAs(api, resident);
  residentId = (await residentApi.patch('/api/users/me/', { full_name: 'Пётр Навигаторов' })).id;
  // Access to д. 1 with an extra phone; a pending request for д. 2 (the requests screens).
  await owner.post('/api/admin/access_requests/', { user: residentId, barrier });
  const invitation = (await residentApi.get('/api/access_requests/my/?type=incoming&page_size=100'))
    .access_requests[0];
  await residentApi.patch(`/api/access_requests/${invitation.id}/`, { status: 'accepted' });
  await residentApi.post(`/api/barriers/${barrier}/phones/`, {
    phone: uniquePhone(),
    name: 'Жена',
    type: 'permanent',
  });
  await residentApi.post('/api/access_requests/', { user: residentId, barrier: other });
});

test.afterAll(async () => {
  await api.dispose();
});

test('a stored session skips /login: / and /login open the user’s own area, no code is sent', async ({
  browser,
}) => {
  const before = codeRequests(resident.phone);
  const { context, page } = await newPage(browser);
  await openLoggedIn(page, resident, '/');
  // His one barrier, the gate one tap away (issue 32 item 4), not «Профиль».
  await expect(page).toHaveURL(/\/mybarrier$/);
  await expect(page.getByTestId('barrier-address')).toHaveText(shared.address);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/mybarrier$/);
  expect(codeRequests(resident.phone)).toBe(before);
  await context.close();

  const admin = await newPage(browser);
  const ownerPhone = adminAccount('owner').phone;
  const ownerBefore = codeRequests(ownerPhone);
  await openLoggedIn(admin.page, owner.session, '/login');
  await expect(admin.page).toHaveURL(/\/admin$/);
  await admin.page.goto('/');
  await expect(admin.page).toHaveURL(/\/admin$/);
  expect(codeRequests(ownerPhone)).toBe(ownerBefore);
  await admin.context.close();

  // Without a session the login screen stays.
  const fresh = await newPage(browser);
  await fresh.page.goto('/');
  await expect(fresh.page).toHaveURL(/\/login$/);
  await expect(fresh.page.getByRole('heading', { name: 'Вход' })).toBeVisible();
  await fresh.context.close();
});

test('the favicon, the icons and the web manifest are served with their types and linked from the page', async ({
  page,
  request,
}) => {
  const favicon = await request.get('/favicon.ico');
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  expect((await favicon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  const svg = await request.get('/favicon.svg');
  expect(svg.headers()['content-type']).toMatch(/^image\/svg\+xml/);

  const manifestResponse = await request.get('/manifest.webmanifest');
  expect(manifestResponse.status()).toBe(200);
  expect(manifestResponse.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = await manifestResponse.json();
  expect(manifest).toMatchObject({ short_name: 'Пропуск', start_url: '/', display: 'standalone' });
  expect(manifest.name).toMatch(/^Пропуск/);
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  for (const size of [192, 512]) {
    const icon = manifest.icons.find((entry: { sizes: string }) => entry.sizes === `${size}x${size}`);
    expect(icon, `${size} px icon`).toBeTruthy();
    const file = await request.get(icon.src);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('image/png');
    const body = await file.body();
    // PNG's IHDR: width and height at bytes 16 and 20.
    expect([body.readUInt32BE(16), body.readUInt32BE(20)]).toEqual([size, size]);
  }

  await page.goto('/login');
  const head = page.locator('head');
  await expect(head.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await expect(head.locator('link[rel="icon"][type="image/svg+xml"]')).toHaveAttribute(
    'href',
    '/favicon.svg',
  );
  await expect(head.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/apple-touch-icon.png');
  await expect(head.locator('meta[name="theme-color"]')).toHaveAttribute('content', manifest.theme_color);
  expect((await request.get('/apple-touch-icon.png')).status()).toBe(200);
});

test('a resident’s delete of a phone asks in a modal on screen; cancel keeps the phone', async ({
  browser,
}) => {
  const { context, page } = await newPage(browser);
  await openLoggedIn(page, resident, '/barriers');
  await page.getByText(shared.address, { exact: true }).click();
  await expect(page).toHaveURL(/\/mybarrier$/);
  await page.getByRole('button', { name: 'Удалить номер Жена' }).click();
  const dialog = await expectDialogOnScreen(page);
  await expect(dialog).toContainText('Удалить номер «Жена»? Он будет удалён с устройства.');
  await checkScreen(page, 'ux-phone-delete-confirm');
  await dialog.getByRole('button', { name: 'Отмена' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('phone-card').filter({ hasText: 'Жена' })).toBeVisible();
  const phones = await new ApiAs(api, resident).get(`/api/barriers/${shared.barrier}/phones/my/`);
  expect(phones.phones.map((phone: { name: string }) => phone.name)).toContain('Жена');
  await context.close();
});

test('the layout of the main screens at 390×844 and 1280×800: nothing cut, targets 44 px, icon buttons named', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  for (const desktop of [false, true]) {
    const size = desktop ? '1280' : '390';
    const user = await newPage(browser, desktop);
    const page = user.page;
    await openLoggedIn(page, resident, '/user');
    await expect(page.getByRole('heading', { name: 'Профиль' })).toBeVisible();
    await checkLayout(page, `${size}-user-profile`);
    await page.goto('/barriers');
    await expect(page.getByTestId('barrier-item').first()).toBeVisible();
    await checkLayout(page, `${size}-user-barriers`);
    await page.getByText(shared.address, { exact: true }).click();
    await expect(page.getByTestId('phone-card')).toHaveCount(2);
    // The longest status ('Отправляется на шлагбаум') must fit as well as the one the device gave.
    await page
      .getByTestId('phone-status')
      .first()
      .evaluate((badge) => {
        const label = badge.querySelector('.mantine-Badge-label') ?? badge;
        label.textContent = 'Отправляется на шлагбаум';
      });
    await checkLayout(page, `${size}-user-mybarrier`);
    await page.goto('/requests');
    await expect(page.getByTestId('access-request').first()).toBeVisible();
    await checkLayout(page, `${size}-user-requests`);
    await user.context.close();

    const admin = await newPage(browser, desktop);
    const adminPage = admin.page;
    await openLoggedIn(adminPage, owner.session, '/admin');
    await expect(adminPage.getByRole('heading', { name: 'Профиль' })).toBeVisible();
    await checkLayout(adminPage, `${size}-admin-profile`);
    await openOwnBarrier(adminPage, shared.address);
    await checkLayout(adminPage, `${size}-admin-barrier-page`);
    await adminPage.getByRole('button', { name: 'Пользователи' }).click();
    const row = adminPage.getByTestId('barrier-user').filter({ hasText: 'Пётр Навигаторов' });
    await expect(row).toBeVisible();
    await checkLayout(adminPage, `${size}-admin-barrier-users`);
    await row.getByRole('button', { name: 'Открыть профиль' }).click();
    await expect(adminPage.getByTestId('phone-card').first()).toBeVisible();
    await checkLayout(adminPage, `${size}-admin-user-profile`);
    await adminPage.goto('/admin-requests');
    await expect(adminPage.getByTestId('access-request').first()).toBeVisible();
    await checkLayout(adminPage, `${size}-admin-requests`);
    await admin.context.close();

    // The administrator's password step: the eye of the password field.
    const login = await newPage(browser, desktop);
    await login.page.goto('/login');
    await checkLayout(login.page, `${size}-login`);
    await login.page.getByLabel('Введите номер телефона').fill(adminAccount('ui').phone);
    await login.page.getByRole('button', { name: 'Далее' }).click();
    await expect(login.page).toHaveURL(/\/verifyadmin$/);
    await checkLayout(login.page, `${size}-verifyadmin`);
    const eye = login.page.getByRole('button', { name: 'Показать пароль' });
    const password = login.page.locator('input[autocomplete="current-password"]');
    await password.fill('секрет');
    await password.focus();
    await login.page.keyboard.press('Tab');
    await expect(eye).toBeFocused();
    await expect(password).toHaveAttribute('type', 'password');
    await login.page.keyboard.press('Enter');
    await expect(password).toHaveAttribute('type', 'text');
    await login.page.keyboard.press('Space');
    await expect(password).toHaveAttribute('type', 'password');
    await login.context.close();
  }
});

test('an administrator’s block asks in a modal on screen; cancel blocks nobody, then the resident sees why', async ({
  browser,
}) => {
  // The resident has his barrier open while the administrator blocks him.
  const residentSide = await newPage(browser);
  const residentPage = residentSide.page;
  await openLoggedIn(residentPage, resident, '/barriers');
  await residentPage.getByText(shared.address, { exact: true }).click();
  await expect(residentPage.getByRole('button', { name: 'Добавить номер' })).toBeVisible();

  const admin = await newPage(browser);
  const page = admin.page;
  await openLoggedIn(page, owner.session, '/admin');
  await openOwnBarrier(page, shared.address);
  await page.getByRole('button', { name: 'Пользователи' }).click();
  await page
    .getByTestId('barrier-user')
    .filter({ hasText: 'Пётр Навигаторов' })
    .getByRole('button', { name: 'Открыть профиль' })
    .click();
  await page.getByLabel('Причина блокировки').fill('Не платит взносы');
  await page.getByRole('button', { name: 'Заблокировать' }).click();
  const dialog = await expectDialogOnScreen(page);
  await expect(dialog).toContainText('Причина: Не платит взносы');
  await checkScreen(page, 'ux-block-confirm');
  await dialog.getByRole('button', { name: 'Отмена' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await owner.get(`/api/admin/users/${residentId}/`)).is_active).toBe(true);
  await expect(page.getByTestId('user-status')).not.toHaveText('Заблокирован');

  await page.getByRole('button', { name: 'Заблокировать' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Да, заблокировать' }).click();
  await expect(page.getByTestId('user-status')).toHaveText('Заблокирован');
  await admin.context.close();

  // He reloads his barrier's screen: he is told why, and offered no new phone.
  await residentPage.reload();
  const notice = residentPage.getByTestId('blocked-notice');
  await expect(notice).toContainText('Администратор этого шлагбаума заблокировал вам доступ.');
  await expect(notice).toContainText('Причина: Не платит взносы');
  await expect(residentPage.getByRole('button', { name: 'Добавить номер' })).toHaveCount(0);
  await checkScreen(residentPage, 'ux-blocked-mybarrier');
  await checkLayout(residentPage, '390-user-mybarrier-blocked');

  // The barrier's public card says the same instead of offering a request.
  await residentPage.goto('/barriers');
  await residentPage.getByText('Поиск', { exact: true }).click();
  await residentPage.getByLabel('Поиск по адресу').fill(shared.address);
  await residentPage.getByText(shared.address, { exact: true }).click();
  await expect(residentPage).toHaveURL(/\/barrier-details$/);
  await expect(residentPage.getByTestId('blocked-notice')).toContainText('Причина: Не платит взносы');
  await expect(residentPage.getByRole('button', { name: 'Отправить запрос' })).toHaveCount(0);
  await checkScreen(residentPage, 'ux-blocked-barrier-details');
  await residentSide.context.close();
});
