import type { APIRequestContext, Page } from '@playwright/test';
import { ApiAs, openLoggedIn, ownerSession, type Session } from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { checkLayout } from './support/layout';
import { checkScreen } from './support/screens';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * The administrator's barrier page (issue 41: «~2,900 px of nine equal buttons»): its actions grouped by what an
 * estate manager does — «Жители», «Устройство», «История» — the barrier's own forms folded under «Шлагбаум», the
 * rare and dangerous ones (the emergency opening, delete) apart at the end; at 390×844 the page is short, at
 * 1280×800 it uses the width (the forms beside the actions, open).
 */
test.describe.configure({ mode: 'serial' });

/** The page at 390×844 with every part an owner sees, folded forms closed (it was ~2,900 px before). */
const PHONE_PAGE_MAX_PX = 1900;

let api: APIRequestContext;
let ownerLogin: Session;
let page: Page;
let barrierId: number;
const address = `г Москва, ул Группы, д ${Date.now() % 100_000}`;

test.beforeAll(async ({ browser, playwright }) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  ownerLogin = await ownerSession(api);
  const created = await new ApiAs(api, ownerLogin).post('/api/admin/barriers/', {
    address,
    device_phone: `+7804${`${Date.now() % 10_000_000}`.padStart(7, '0')}`,
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: true,
  });
  barrierId = created.id;
  const context = await browser.newContext(PHONE_CONTEXT);
  watchForCspViolations(context);
  page = await context.newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await api?.dispose();
});

async function openBarrierPage() {
  await openLoggedIn(page, ownerLogin, '/admin-barriers');
  await page.evaluate((id) => {
    window.history.pushState({ usr: { barrier_id: id }, key: 'walk', idx: 1 }, '', '/admin-barrier-page');
  }, barrierId);
  await page.reload();
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
  await expect(page.getByTestId('device-health')).toBeVisible();
  await expect(page.getByLabel('Загрузка')).toHaveCount(0);
}

const pageHeight = () => page.evaluate(() => document.documentElement.scrollHeight);

test('at 390×844 the actions are grouped by what a manager does, the forms folded, delete apart', async () => {
  await openBarrierPage();
  const height = await pageHeight();
  test.info().annotations.push({ type: 'page height at 390×844', description: `${height} px` });
  console.log(`admin barrier page at 390×844: ${height} px`);

  const group = (name: string) => page.getByRole('region', { name });
  await expect(group('Жители').getByRole('button')).toHaveText([
    'Пользователи',
    'Гостевые пропуска',
    'Импорт жителей',
  ]);
  await expect(group('Устройство').getByRole('button')).toHaveText([
    'Проверить устройство',
    'Настройки устройства',
    'Журнал устройства',
    'Проверка устройства по модели',
  ]);
  await expect(group('История').getByRole('button')).toHaveText(['История изменений', 'Журнал открытий']);
  const rare = group('Редкие действия');
  await expect(rare.getByRole('button')).toHaveText(['Экстренное открытие', 'Удалить шлагбаум']);
  // The rare ones come last, after the barrier's own forms.
  const rareTop = (await rare.boundingBox())?.y ?? 0;
  expect(rareTop).toBeGreaterThan((await group('Шлагбаум').boundingBox())?.y ?? Infinity);

  // The forms are folded on a phone: a tap opens one, with its fields.
  const parameters = page.getByRole('button', { name: 'Параметры' });
  await expect(parameters).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByLabel('Дополнительная информация')).toHaveCount(0);
  expect(height).toBeLessThan(PHONE_PAGE_MAX_PX);
  await checkScreen(page, 'barrier-page-groups-phone');
  await checkLayout(page, 'barrier-page-groups-phone');
  await parameters.click();
  await expect(parameters).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByLabel('Дополнительная информация')).toBeVisible();
  await page.getByRole('button', { name: 'Лимиты' }).click();
  await expect(page.getByLabel('Номеров на пользователя', { exact: true })).toBeVisible();
  await checkScreen(page, 'barrier-page-groups-phone-open');

  // The buttons still lead where they did, with the barrier.
  await group('Устройство').getByRole('button', { name: 'Журнал устройства' }).click();
  await expect(page.getByRole('heading', { name: 'Журнал устройства' })).toBeVisible();
});

test('at 1280×800 the page uses the width: the forms open beside the actions', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openBarrierPage();
  const people = await page.getByRole('region', { name: 'Жители' }).boundingBox();
  const forms = await page.getByRole('region', { name: 'Шлагбаум' }).boundingBox();
  expect(forms?.x ?? 0).toBeGreaterThan((people?.x ?? 0) + (people?.width ?? 0));
  await expect(page.getByRole('button', { name: 'Параметры' })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByLabel('Дополнительная информация')).toBeVisible();
  console.log(`admin barrier page at 1280×800: ${await pageHeight()} px`);
  await checkScreen(page, 'barrier-page-groups-desk');
  await checkLayout(page, 'barrier-page-groups-desk');
});
