/**
 * Shared steps of the guest-pass journeys (guest-passes.spec.ts, admin-guest-passes.spec.ts): the link shown
 * once after a quick choice, and the guest's side in a browser of his own (no login).
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { isDesktop, newProjectPage } from '../admin-support';
import { checkLayout } from './layout';
import { checkScreen } from './screens';
import { smsCount, waitForCode } from './sms';
import { expect } from './test';

/** A screenshot name per project, so that the phone's and the desktop's are both kept. */
export const projectShot = (testInfo: TestInfo, name: string) =>
  isDesktop(testInfo) ? `${name}-desktop` : name;

/** In an open window form: «3 часа», «Создать ссылку», then the link shown once, copied. Answers the link. */
export async function createThreeHourLink(page: Page): Promise<string> {
  // A quick choice only fills the window; one «Создать ссылку» makes the pass (issue 32 item 7).
  await page.getByRole('button', { name: '3 часа' }).click();
  await expect(page.getByTestId('guest-pass-link')).toHaveCount(0);
  await page.getByRole('button', { name: 'Создать ссылку' }).click();
  const shown = page.getByTestId('guest-pass-link');
  await expect(shown).toBeVisible();
  const link = await shown.getByLabel('Ссылка для гостя').inputValue();
  expect(link).toMatch(/\/guest\/[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: 'Скопировать' }).click();
  await expect(shown.getByText('Ссылка скопирована.')).toBeVisible();
  return link;
}

/**
 * The guest opens the link in a fresh context without a login, proves his number by the SMS code and is let
 * in, with the gate's number as a call link; opened again while the pass is valid, the call link is still there. `shots` prefixes the screen checks (undefined: none).
 */
export async function redeemAsGuest(
  browser: Browser,
  testInfo: TestInfo,
  { link, address, guest, shots }: { link: string; address: string; guest: string; shots?: string },
): Promise<void> {
  const guestPage = await newProjectPage(browser, testInfo);
  await guestPage.goto(link);
  await expect(guestPage.getByTestId('guest-pass-address')).toHaveText(address);
  await expect(guestPage.getByRole('navigation', { name: 'Основная навигация' })).toHaveCount(0);
  if (shots) {
    await checkScreen(guestPage, projectShot(testInfo, `${shots}-page`));
    await checkLayout(guestPage, projectShot(testInfo, `${shots}-page`));
  }
  const before = smsCount(guest);
  await guestPage.getByLabel('Ваш номер телефона').fill(guest);
  await guestPage.getByRole('button', { name: 'Получить код' }).click();
  const code = await waitForCode(guest, before);
  await guestPage.getByLabel('Код из СМС').fill(code);
  if (shots) await checkLayout(guestPage, projectShot(testInfo, `${shots}-code`));
  await guestPage.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(guestPage.getByText(/Готово\. Номер .* добавлен на шлагбаум/)).toBeVisible();
  if (shots) await checkScreen(guestPage, projectShot(testInfo, `${shots}-done`));

  // The gate's number as a call link (issue 32 item 4): the gate opens to a call from his number.
  const call = guestPage.getByRole('link', { name: 'Позвонить на шлагбаум' });
  await expect(call).toHaveAttribute('href', /^tel:\+7\d{10}$/);
  await expect(call).toBeInViewport();
  // Opened again while the pass is valid, the link still shows the call, and asks for no number.
  await guestPage.reload();
  await expect(guestPage.getByRole('link', { name: 'Позвонить на шлагбаум' })).toHaveAttribute(
    'href',
    (await call.getAttribute('href')) ?? '',
  );
  await expect(guestPage.getByText(/недействительна/)).toHaveCount(0);
  await expect(guestPage.getByRole('button', { name: 'Получить код' })).toHaveCount(0);
  await guestPage.context().close();
  // Another browser with the link: the pass is confirmed, the gate's number is not told.
  const other = await newProjectPage(browser, testInfo);
  await other.goto(link);
  await expect(other.getByTestId('guest-pass-used')).toContainText('Пропуск уже подтверждён');
  await expect(other.getByRole('link', { name: 'Позвонить на шлагбаум' })).toHaveCount(0);
  await other.context().close();
}
