import type { APIRequestContext, Page } from '@playwright/test';
import { newProjectPage } from './admin-support';
import { loginOverApi, openLoggedIn, type Session, uniquePhone } from './support/api';
import { E2E, PHONE_CONTEXT } from './support/environment';
import { collectScreenTexts, findLatinTexts } from './support/latin-text';
import { expect, test } from './support/test';

/**
 * Issue 32 item 2 at 390×844: the network goes off and on while a resident moves across the main screens. No
 * blank page and no English: offline, one banner says so; a screen whose code is not loaded yet says «Нет связи»
 * with «Повторить» and a way home, and opens by itself when the network returns; loaded data comes back.
 */
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let resident: Session;
let page: Page;

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  resident = await loginOverApi(api, uniquePhone());
  page = await newProjectPage(browser, testInfo);
});

test.afterAll(async () => {
  await page.context().close();
  await api.dispose();
});

/** Not blank, no Latin word, a screenshot kept. */
async function checkNotBlankNorEnglish(name: string) {
  const text = (await page.locator('body').innerText()).trim();
  expect(text.length, `${name} is blank`).toBeGreaterThan(20);
  expect(text).not.toMatch(/Unexpected Application Error|Hey developer/);
  expect(findLatinTexts(await page.evaluate(collectScreenTexts)), `Latin text on ${name}`).toEqual([]);
  await page.screenshot({ path: `${E2E.screenshots}/${name}.png`, fullPage: true });
}

const tab = (label: string) =>
  page.getByRole('navigation', { name: 'Основная навигация' }).getByText(label, { exact: true });

test('offline across the main screens: one banner, «Нет связи» for an unloaded screen, back by itself online', async () => {
  await openLoggedIn(page, resident, '/barriers');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);

  await page.context().setOffline(true);
  await expect(page.getByTestId('offline-banner')).toHaveText(
    'Нет связи. Данные обновятся, когда связь вернётся.',
  );
  await checkNotBlankNorEnglish('offline-barriers');

  // «Заявки» was never opened: its code cannot load.
  await tab('Заявки').click();
  const error = page.getByTestId('route-error');
  await expect(error).toContainText('Нет связи');
  await expect(error.getByRole('button', { name: 'Повторить' })).toBeVisible();
  await expect(error.getByRole('link', { name: 'На главный экран' })).toHaveAttribute('href', '/');
  await expect(page.getByTestId('offline-banner')).toHaveCount(1);
  await checkNotBlankNorEnglish('offline-requests-unloaded');

  // The network returns: the screen opens by itself.
  await page.context().setOffline(false);
  await expect(page.getByRole('heading', { name: 'Заявки', level: 1 })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await checkNotBlankNorEnglish('online-requests');

  // «Профиль» the same way; then back to a loaded screen offline and on again.
  await page.context().setOffline(true);
  await tab('Профиль').click();
  await expect(page.getByTestId('route-error')).toContainText('Нет связи');
  await checkNotBlankNorEnglish('offline-profile-unloaded');
  await page.context().setOffline(false);
  await expect(page.getByRole('heading', { name: 'Профиль', level: 1 })).toBeVisible({ timeout: 15_000 });

  await page.context().setOffline(true);
  await tab('Заявки').click();
  await expect(page.getByRole('heading', { name: 'Заявки', level: 1 })).toBeVisible();
  await checkNotBlankNorEnglish('offline-requests-loaded');
  await tab('Шлагбаумы').click();
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await checkNotBlankNorEnglish('offline-barriers-again');
  await page.context().setOffline(false);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await expect(page.getByLabel('Загрузка')).toHaveCount(0, { timeout: 15_000 });
  await checkNotBlankNorEnglish('online-barriers-again');
});
