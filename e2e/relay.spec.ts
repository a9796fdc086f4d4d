import type { APIRequestContext, Page } from '@playwright/test';
import { newProjectPage, openOwnBarrier, runDigits } from './admin-support';
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
import { readSms } from './support/sms';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Issue 16 at 390×844: the dispatcher the owner gave three barriers holds them open from «Экстренное открытие» (one confirmation
 * naming п. 71), the simulated relays close and the screen shows each barrier held; «Завершить» opens them again;
 * the history has both steps with the author. A resident opens from the app: «Открыто», and the opening is in
 * «Мои открытия» and in the administrator's «Журнал открытий».
 */
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let owner: ApiAs;
let dispatcher: Session;
const dispatcherAccount = adminAccount('dispatcher');
let resident: Session;
let page: Page;
const barriers: { id: number; address: string; devicePhone: string }[] = [];

const relay = async (id: number) => (await owner.get(`/api/demo/devices/${id}/relay/`)) as { on: boolean };

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  owner = new ApiAs(api, await ownerSession(api));
  dispatcher = await adminSession(api, 'dispatcher');
  const run = runDigits(testInfo, 5);
  for (let index = 0; index < 3; index++) {
    const devicePhone = `+7804${run}${index}0`;
    const created = await owner.post('/api/admin/barriers/', {
      address: `г Москва, ул Пожарная, д ${run}-${index + 1}`,
      device_phone: devicePhone,
      device_model: 'RTU5025',
      device_password: '1234',
      device_phones_amount: 20,
      is_public: true,
    });
    barriers.push({ id: created.id, address: created.address, devicePhone });
    if (index === 0) {
      // Staff by phone finds only an administrator the owner knows (issue 28 part 2): he asks and withdraws.
      const asDispatcher = new ApiAs(api, dispatcher);
      const dispatcherId = (await asDispatcher.get('/api/users/me/')).id;
      const asked = await asDispatcher.post('/api/access_requests/', {
        user: dispatcherId,
        barrier: created.id,
      });
      await asDispatcher.patch(`/api/access_requests/${asked.id}/`, { status: 'cancelled' });
    }
    // The owner gives the barrier to the dispatcher on duty (issue 16 part 2).
    await owner.post(`/api/admin/barriers/${created.id}/staff/`, {
      phone: dispatcherAccount.phone,
      role: 'dispatcher',
    });
  }
  resident = await loginOverApi(api, uniquePhone());
  const asResident = new ApiAs(api, resident);
  const residentId = (await asResident.get('/api/users/me/')).id;
  const request = await asResident.post('/api/access_requests/', {
    user: residentId,
    barrier: barriers[0]?.id,
  });
  await owner.patch(`/api/admin/access_requests/${request.id}/`, { status: 'accepted' });
  page = await newProjectPage(browser, testInfo);
});

test.afterAll(async () => {
  await page.context().close();
  await api.dispose();
});

test('the dispatcher holds three barriers open and ends it; the relays follow; the history has each step', async () => {
  // A dispatcher sees his barriers and may open and hold them, nothing else: no users, settings or history.
  await openLoggedIn(page, dispatcher, '/admin-barriers');
  await openOwnBarrier(page, barriers[1]?.address ?? '');
  await expect(page.getByTestId('my-role')).toHaveText('Ваша роль: Диспетчер');
  await expect(page.getByTestId('open-gate')).toBeVisible();
  for (const hidden of ['Пользователи', 'Настройки устройства', 'История изменений', 'Импорт жителей']) {
    await expect(page.getByRole('button', { name: hidden })).toHaveCount(0);
  }
  await checkScreen(page, 'relay-dispatcher-barrier');
  await openLoggedIn(page, dispatcher, '/admin-barriers');
  await page.getByRole('button', { name: 'Экстренное открытие' }).click();
  await expect(page.getByTestId('emergency-rule')).toContainText('ПП РФ № 1479');
  await page.getByRole('checkbox', { name: 'Все мои шлагбаумы' }).uncheck();
  for (const barrier of barriers) await page.getByRole('checkbox', { name: barrier.address }).check();
  await page.getByRole('textbox', { name: 'Причина' }).fill('Пожарная тревога, учения');
  await checkScreen(page, 'relay-emergency-form');
  await checkLayout(page, 'relay-emergency-form');
  await page.getByRole('button', { name: 'Открыть и удерживать' }).click();
  await expect(page.getByRole('dialog')).toContainText('пункту 71 Правил противопожарного режима');
  await page.getByRole('button', { name: 'Да, открыть' }).click();
  await expect(page.getByTestId('hold-title')).toHaveText('Экстренное открытие действует');
  await expect(page.getByTestId('hold-barrier-state')).toHaveText(Array(3).fill('Открыт, удерживается'), {
    timeout: 30_000,
  });
  await checkScreen(page, 'relay-emergency-held');
  await checkLayout(page, 'relay-emergency-held');
  for (const barrier of barriers) {
    expect((await relay(barrier.id)).on).toBe(true);
    const sent = readSms()
      .filter((sms) => sms.to === barrier.devicePhone)
      .map((sms) => sms.text);
    expect(sent).toEqual(expect.arrayContaining(['1234GOT999#', '1234CC']));
  }

  await page.getByTestId('end-hold').click();
  await page.getByRole('button', { name: 'Да, завершить' }).click();
  await expect(page.getByTestId('hold-title')).toHaveText('Экстренное открытие завершено');
  await expect(page.getByTestId('hold-barrier-state')).toHaveText(Array(3).fill('Закрыт, обычная работа'), {
    timeout: 30_000,
  });
  await checkScreen(page, 'relay-emergency-ended');
  for (const barrier of barriers) expect((await relay(barrier.id)).on).toBe(false);

  // The owner reads the history: each step with the dispatcher as its author.
  await openLoggedIn(page, owner.session, '/admin-barriers');
  await openOwnBarrier(page, barriers[0]?.address ?? '');
  await page.getByRole('button', { name: 'История изменений' }).click();
  await expect(page.getByText(/Завершение экстренного открытия/)).toBeVisible();
  await expect(page.getByText(/#\d+ Настройка шлагбаума/).first()).toBeVisible();
  const history = await owner.get(`/api/admin/barriers/${barriers[0]?.id}/actions/?page_size=20`);
  const steps = history.actions.filter((action: { setting_name: string | null }) =>
    ['Экстренное открытие', 'Завершение экстренного открытия'].includes(action.setting_name ?? ''),
  );
  expect(steps.map((step: { author_name: string }) => step.author_name)).toEqual([
    dispatcherAccount.name,
    dispatcherAccount.name,
  ]);
  await checkScreen(page, 'relay-history');
});

test('a resident opens from the app; «Мои открытия» and the administrator’s log show it', async ({
  browser,
}) => {
  const context = await browser.newContext({ ...PHONE_CONTEXT });
  watchForCspViolations(context);
  const residentPage = await context.newPage();
  await openLoggedIn(residentPage, resident, '/barriers');
  await residentPage
    .getByText(barriers[0]?.address ?? '', { exact: true })
    .first()
    .click();
  await expect(residentPage.getByTestId('barrier-address')).toHaveText(barriers[0]?.address ?? '');
  await residentPage.getByTestId('open-gate').click();
  await expect(residentPage.getByTestId('open-gate-state')).toHaveText('Открыто', { timeout: 30_000 });
  await expect(residentPage.getByTestId('opening-card').first()).toContainText('Открыто');
  await checkScreen(residentPage, 'relay-resident-opened');
  await checkLayout(residentPage, 'relay-resident-opened');
  await context.close();

  await openOwnBarrier(page, barriers[0]?.address ?? '');
  await page.getByRole('button', { name: 'Журнал открытий' }).click();
  await expect(page.getByTestId('opening-card').first()).toContainText('Открыто');
  await expect(page.getByTestId('opening-card').first()).toContainText('из приложения');
  await checkScreen(page, 'relay-openings-log');
  await checkLayout(page, 'relay-openings-log');
});

test('the dispatcher’s openings log shows the resident’s number masked (issue 28 part 3)', async () => {
  const phone = (await new ApiAs(api, resident).get('/api/users/me/')).phone as string;
  await openLoggedIn(page, dispatcher, '/admin-barriers');
  await openOwnBarrier(page, barriers[0]?.address ?? '');
  await page.getByRole('button', { name: 'Журнал открытий' }).click();
  const card = page.getByTestId('opening-card').filter({ hasText: 'из приложения' }).first();
  await expect(card).toContainText(`+7 *** ***-${phone.slice(-4, -2)}-${phone.slice(-2)}`);
  // The number as the owner reads it, +7 (XXX) XXX-XX-XX, is nowhere on his screen.
  const whole = `+7 (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8, 10)}-${phone.slice(10)}`;
  await expect(page.getByText(whole)).toHaveCount(0);
});
