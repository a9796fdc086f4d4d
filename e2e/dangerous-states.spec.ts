import type { APIRequestContext, Page } from '@playwright/test';
import {
  newProjectPage,
  openOwnBarrier,
  runDigits,
  selectOption,
  showOwnBarrierInList,
} from './admin-support';
import { ApiAs, barrierWithResident, openLoggedIn, ownerSession, type Session } from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { checkScreen } from './support/screens';
import { readSms } from './support/sms';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Issue 32 item 3 at 390×844: «Доступ для всех» asks once, naming what it does, and then the barrier shows it in
 * red on the administrator's list and page and on the resident's screen, with the way back («Вернуть доступ
 * только по списку»). An emergency hold shows the same way everywhere, with «Завершить экстренное открытие».
 */
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let owner: ApiAs;
let resident: Session;
let page: Page;
let barrier: { id: number; address: string; devicePhone: string };

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  owner = new ApiAs(api, await ownerSession(api));
  const run = runDigits(testInfo, 5);
  ({ barrier, resident } = await barrierWithResident(api, owner, {
    address: `г Москва, ул Открытая, д ${run}`,
    devicePhone: `+7806${run}55`,
  }));
  page = await newProjectPage(browser, testInfo);
});

test.afterAll(async () => {
  await page.context().close();
  await api.dispose();
});

/** The resident's barrier screen in a context of its own. */
async function residentSees(check: (residentPage: Page) => Promise<void>, screenshot: string) {
  const context = await page
    .context()
    .browser()
    ?.newContext({ ...PHONE_CONTEXT });
  if (!context) throw new Error('no browser');
  watchForCspViolations(context);
  const residentPage = await context.newPage();
  await openLoggedIn(residentPage, resident, '/barriers');
  await residentPage.getByText(barrier.address, { exact: true }).first().click();
  await expect(residentPage.getByTestId('barrier-address')).toHaveText(barrier.address);
  await check(residentPage);
  await checkScreen(residentPage, screenshot);
  await context.close();
}

test('«Доступ для всех» asks naming the consequence, then shows red everywhere until it is ended', async () => {
  await openLoggedIn(page, owner.session, '/admin-barriers');
  await openOwnBarrier(page, barrier.address);
  await expect(page.getByTestId('barrier-dangers')).toHaveCount(0);
  await page.getByRole('button', { name: 'Настройки устройства' }).click();
  await selectOption(page, 'Настройка', 'Доступ для всех');
  const before = readSms().filter((sms) => sms.to === barrier.devicePhone).length;
  await page.getByRole('button', { name: 'Отправить' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('въехать сможет кто угодно');
  await checkScreen(page, 'danger-open-to-all-asked');
  // Cancelling sends nothing.
  await dialog.getByRole('button', { name: 'Отмена' }).click();
  await page.waitForTimeout(1_000);
  expect(readSms().filter((sms) => sms.to === barrier.devicePhone)).toHaveLength(before);
  await page.getByRole('button', { name: 'Отправить' }).click();
  await page.getByRole('button', { name: 'Да, открыть для всех' }).click();
  await expect(page.getByText('Настройка «Доступ для всех»: подтверждено устройством.')).toBeVisible({
    timeout: 20_000,
  });

  await openOwnBarrier(page, barrier.address);
  await expect(page.getByTestId('danger-open_to_all')).toContainText('с любого номера');
  await checkScreen(page, 'danger-open-to-all-page');
  await showOwnBarrierInList(page, barrier.address);
  const item = page.getByRole('listitem').filter({ hasText: barrier.address });
  await expect(item.getByTestId('danger-badge-open_to_all')).toHaveText('Открыт для всех');
  await checkScreen(page, 'danger-open-to-all-list');
  await residentSees(async (residentPage) => {
    await expect(residentPage.getByTestId('danger-open_to_all')).toBeVisible();
    await expect(residentPage.getByTestId('barrier-dangers')).toContainText('администратор');
  }, 'danger-open-to-all-resident');

  await openOwnBarrier(page, barrier.address);
  await page.getByTestId('end-open-to-all').click();
  await expect(page.getByTestId('barrier-dangers')).toHaveCount(0, { timeout: 10_000 });
  // The red state ends when the setting is queued; its SMS leaves a moment later, after the commit.
  await expect
    .poll(
      () =>
        readSms()
          .filter((sms) => sms.to === barrier.devicePhone)
          .map((sms) => sms.text),
      { timeout: 15_000 },
    )
    .toEqual(expect.arrayContaining(['1234ALL#', '1234AUT#']));
});

test('an emergency hold shows on the list, the barrier page and the resident’s screen, with its end', async () => {
  await page.getByRole('navigation', { name: 'Основная навигация' }).getByText('Шлагбаумы').click();
  await page.getByRole('button', { name: 'Экстренное открытие' }).click();
  await page.getByRole('checkbox', { name: 'Все мои шлагбаумы' }).uncheck();
  await page.getByRole('checkbox', { name: barrier.address }).check();
  await page.getByRole('textbox', { name: 'Причина' }).fill('Учения, проверка');
  await page.getByRole('button', { name: 'Открыть и удерживать' }).click();
  await page.getByRole('button', { name: 'Да, открыть' }).click();
  await expect(page.getByTestId('hold-title')).toHaveText('Экстренное открытие действует');

  await showOwnBarrierInList(page, barrier.address);
  const item = page.getByRole('listitem').filter({ hasText: barrier.address });
  await expect(item.getByTestId('danger-badge-emergency_hold')).toBeVisible();
  await openOwnBarrier(page, barrier.address);
  await expect(page.getByTestId('danger-emergency_hold')).toBeVisible();
  await checkScreen(page, 'danger-hold-page');
  await residentSees(async (residentPage) => {
    await expect(residentPage.getByTestId('danger-emergency_hold')).toBeVisible();
  }, 'danger-hold-resident');

  await page.getByTestId('end-hold-link').click();
  await page.getByTestId('end-hold').click();
  await page.getByRole('button', { name: 'Да, завершить' }).click();
  await expect(page.getByTestId('hold-title')).toHaveText('Экстренное открытие завершено');
  await openOwnBarrier(page, barrier.address);
  await expect(page.getByTestId('barrier-dangers')).toHaveCount(0);
});
