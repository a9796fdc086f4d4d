import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test';
import { ApiAs, ownerSession, type Session, uniquePhone } from './support/api';
import { acceptPrivacyPolicyIfAsked } from './support/consent';
import { E2E, PHONE_CONTEXT } from './support/environment';
import { shownPhone } from './support/phone';
import { checkScreen } from './support/screens';
import { smsCount, waitForCode } from './support/sms';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Issue 12 items 1, 3 and 11 on a phone (390×844): the one phone field takes a pasted number in any common
 * form and shows it as +7 (916) 123-45-67, every number on the screens is shown that way, and /mybarrier calls
 * the barrier with a tel: link.
 */
test.describe.configure({ mode: 'serial' });

const screens = path.join(E2E.artifacts, 'screens');
const run = `${Date.now() % 100000}`.padStart(5, '0');
const devicePhone = `+7802${run}${Math.floor(Math.random() * 90 + 10)}`;
const address = `ул. Телефонная ${run}, д. 1`;
const residentPhone = uniquePhone();
let owner: ApiAs;
let barrierId: number;
let context: BrowserContext;
let page: Page;
let api: APIRequestContext;

/** A paste as a person does it: the text on the clipboard, then Ctrl+V into the field. */
async function paste(input: Locator, text: string) {
  await input.focus();
  await input.evaluate((_element, pasted) => navigator.clipboard.writeText(pasted), text);
  await input.press('Control+V');
}

async function saveScreen(name: string) {
  await page.screenshot({ path: path.join(screens, `${name}.png`), fullPage: true });
}

test.beforeAll(async ({ browser, playwright }) => {
  mkdirSync(screens, { recursive: true });
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  owner = new ApiAs(api, await ownerSession(api));
  const barrier = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: devicePhone,
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 50,
    additional_info: '',
    is_public: true,
  });
  barrierId = barrier.id;
  context = await browser.newContext({
    ...PHONE_CONTEXT,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  watchForCspViolations(context);
  page = await context.newPage();
});

test.afterAll(async () => {
  await context.close();
  await api.dispose();
});

test('login takes a pasted number in any form, shows it formatted and logs in with every digit', async () => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Вход' })).toBeVisible();
  await expect(page.getByTestId('login-intro')).toContainText('«Пропуск»');
  await expect(page.getByText('На этот номер придёт СМС с кодом для входа.')).toBeVisible();
  const input = page.getByLabel('Введите номер телефона');
  await expect(input).toHaveValue('+7');
  await saveScreen('login-before');

  // Too short: nothing is sent, the line says what is missing.
  await input.pressSequentially('916123');
  await expect(input).toHaveValue('+7 (916) 123');
  await page.getByRole('button', { name: 'Далее' }).click();
  await expect(page.getByText('Номер телефона должен быть в формате +7XXXXXXXXXX.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await saveScreen('login-incomplete');

  for (const pasted of [
    '89161234567',
    '+7 (916) 123-45-67',
    '8 916 123 45 67',
    '7-916-123-45-67',
    '9161234567',
  ]) {
    await input.fill('+7');
    await paste(input, pasted);
    await expect(input, `pasted ${pasted}`).toHaveValue('+7 (916) 123-45-67');
  }
  await expect(page.getByText('Номер телефона должен быть в формате +7XXXXXXXXXX.')).toHaveCount(0);

  // The resident's own number, pasted with the 8 in front: the code goes to him, not to a stranger.
  await input.fill('+7');
  await paste(input, `8${residentPhone.slice(2)}`);
  await expect(input).toHaveValue(shownPhone(residentPhone));
  await checkScreen(page, 'phone-ux-login');
  await saveScreen('login-after');
  const before = smsCount(residentPhone);
  await page.getByRole('button', { name: 'Далее' }).click();

  await expect(page).toHaveURL(/\/verifyuser$/);
  await expect(page.getByTestId('code-phone')).toHaveText(shownPhone(residentPhone));
  // One timer on the code screen.
  await expect(page.getByText(/через \d+:\d\d|через \d+ секунд/)).toHaveCount(1);
  await page.getByLabel('Код из СМС').fill(await waitForCode(residentPhone, before));
  await page.getByRole('button', { name: 'Подтвердить' }).click();
  await acceptPrivacyPolicyIfAsked(page, /\/user$/);

  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByLabel('Телефон')).toHaveValue(shownPhone(residentPhone));
  await checkScreen(page, 'phone-ux-profile');
});

test('a barrier shows its numbers formatted and calls the barrier from /mybarrier', async () => {
  const session: Session = {
    phone: residentPhone,
    access_token: (await page.evaluate(() => window.localStorage.getItem('access_token'))) ?? '',
    refresh_token: (await page.evaluate(() => window.localStorage.getItem('refresh_token'))) ?? '',
  };
  const resident = new ApiAs(api, session);
  const residentId = (await resident.get('/api/users/me/')).id;
  await resident.post('/api/access_requests/', { user: residentId, barrier: barrierId });
  const incoming = await owner.get('/api/admin/access_requests/my/?type=incoming&page_size=100');
  const request = incoming.access_requests.find(
    (item: { barrier: number; status: string }) => item.barrier === barrierId && item.status === 'pending',
  );
  await owner.patch(`/api/admin/access_requests/${request.id}/`, { status: 'accepted' });

  // A new resident's first run now starts on his (empty) list (issue 41 major 5): the list open before the
  // acceptance was read empty, so it is read again, as a resident's reopened app does.
  await page.reload();
  await page.getByRole('navigation', { name: 'Основная навигация' }).getByText('Шлагбаумы').click();
  await page.getByTestId('barrier-item').filter({ hasText: address }).click();
  await expect(page).toHaveURL(/\/mybarrier$/);
  await expect(page.getByText(`Номер шлагбаума: ${shownPhone(devicePhone)}`)).toBeVisible();
  await expect(page.getByText(/Администратор: .+, \+7\s\(\d{3}\)\s\d{3}-\d{2}-\d{2}/)).toBeVisible();
  const call = page.getByRole('link', { name: 'Позвонить на шлагбаум' });
  await expect(call).toBeVisible();
  await expect(call).toHaveAttribute('href', `tel:${devicePhone}`);
  const primary = page.getByTestId('phone-card').filter({ hasText: shownPhone(residentPhone) });
  await expect(primary).toBeVisible();
  await expect(primary.getByTestId('phone-status')).toHaveText('Активен', { timeout: 20_000 });
  await checkScreen(page, 'phone-ux-mybarrier');
  await saveScreen('mybarrier-after');
});
