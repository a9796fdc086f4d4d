/**
 * Small helpers of the administrator journeys (admin-*.spec.ts, full-journey.spec.ts): a browser context for the
 * project's viewport (phone 390×844 or desktop 1280×800), per-project screenshot names, Mantine selects.
 */
import { type Browser, expect, type Page, type TestInfo } from '@playwright/test';
import { PHONE_CONTEXT } from './support/environment';
import { checkScreen } from './support/screens';
import { watchForCspViolations } from './support/test';

export function isDesktop(testInfo: TestInfo): boolean {
  return testInfo.project.name.includes('desktop');
}

/** A context with the viewport of the running project (the serial journeys keep one page across tests). */
export async function newProjectPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const use = testInfo.project.use;
  const context = await browser.newContext({
    ...PHONE_CONTEXT,
    ...(isDesktop(testInfo)
      ? {
          viewport: use.viewport ?? { width: 1280, height: 800 },
          deviceScaleFactor: 1,
          isMobile: false,
          hasTouch: false,
        }
      : {}),
  });
  watchForCspViolations(context);
  return context.newPage();
}

/** Screenshot and axe check, named per viewport so that both are kept. */
export async function checkAdminScreen(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await checkScreen(page, `admin-${name}-${isDesktop(testInfo) ? 'desktop' : 'phone'}`);
}

export async function selectOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('textbox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A run-unique number of digits (device phones and house numbers must not repeat across runs and projects). */
export function runDigits(testInfo: TestInfo, length: number): string {
  const base = `${Date.now() % 10 ** (length - 1)}`.padStart(length - 1, '0');
  return `${isDesktop(testInfo) ? 1 : 0}${base}`.slice(0, length);
}

/** Goes through the bottom navigation of the administrator area. */
export async function openAdminTab(page: Page, label: 'Шлагбаумы' | 'Заявки' | 'Профиль'): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Основная навигация' })
    .getByText(label, { exact: true })
    .click();
}

/**
 * Opens one of the barrier page's folded forms (its «Параметры», «Лимиты», «Администраторы»): folded on a phone,
 * open from 1024 px.
 */
export async function openBarrierPart(page: Page, title: 'Параметры' | 'Лимиты' | 'Администраторы') {
  const part = page.getByRole('button', { name: title, exact: true });
  if ((await part.getAttribute('aria-expanded')) === 'false') await part.click();
  await expect(part).toHaveAttribute('aria-expanded', 'true');
}

/** The barrier list opens on page 1 in id order: walk to the page that shows this address and open it. */
export async function openOwnBarrier(page: Page, address: string): Promise<void> {
  const item = await showOwnBarrierInList(page, address);
  await item.click();
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
}

/** «Мои шлагбаумы», paged forward until the barrier's address is on screen (other journeys add barriers). */
export async function showOwnBarrierInList(page: Page, address: string) {
  await openAdminTab(page, 'Шлагбаумы');
  await expect(page.getByRole('heading', { name: 'Мои шлагбаумы' })).toBeVisible();
  const item = page.getByText(address, { exact: true });
  const forward = page.getByRole('button', { name: 'Вперёд' });
  await expect(page.getByTestId('pager-position')).toBeVisible();
  while (!(await item.isVisible()) && (await forward.isEnabled())) {
    const position = await page.getByTestId('pager-position').textContent();
    await forward.click();
    await expect(page.getByTestId('pager-position')).not.toHaveText(position ?? '');
    // The previous page's barriers stay on screen (aria-busy) until the new page's arrive.
    await expect(page.getByTestId('admin-barrier-list')).toHaveAttribute('aria-busy', 'false');
  }
  return item;
}
