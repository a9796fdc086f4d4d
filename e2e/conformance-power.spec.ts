import type { APIRequestContext, Page } from '@playwright/test';
import { openOwnBarrier } from './admin-support';
import { ApiAs, gatewayAdminSession, openLoggedIn, type Session } from './support/api';
import { type E2E_GATEWAY_SERVER, PHONE_CONTEXT } from './support/environment';
import { checkScreen } from './support/screens';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Issue 42 item 3 at 390×844, on the deployment whose gateway has a number (the unit's power SMS reach the
 * server only through slot 1): «Отключите питание устройства на минуту» — the simulated unit's own power texts,
 * sent while the step waits, are captured, shown and learnt into the barrier's profile.
 */
test.describe.configure({ mode: 'serial' });

/** The second journey server, started for this file by the `gatewayServer` fixture (support/gateway-server.ts). */
let server: typeof E2E_GATEWAY_SERVER;

let api: APIRequestContext;
let owner: ApiAs;
let session: Session;
let page: Page;

test.beforeAll(async ({ browser, playwright, gatewayServer }) => {
  server = gatewayServer;
  api = await playwright.request.newContext({ baseURL: server.baseUrl });
  session = await gatewayAdminSession(api);
  owner = new ApiAs(api, session);
  const context = await browser.newContext({ ...PHONE_CONTEXT, baseURL: server.baseUrl });
  watchForCspViolations(context);
  page = await context.newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await api?.dispose();
});

test('a unit with its own power texts: the power step captures them and the profile learns them', async () => {
  const address = `г Москва, ул Рубильникова, д ${Date.now() % 100_000}`;
  const created = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7804${Date.now() % 10_000_000}`.padEnd(12, '0'),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: false,
  });
  const barrierId = created.id as number;
  await expect
    .poll(async () => ((await owner.get(`/api/demo/devices/${barrierId}/`)).entries as unknown[]).length, {
      timeout: 20_000,
    })
    .toBeGreaterThan(1);
  const texts = { power_failure: 'AC OFF! Battery mode', power_restored: 'AC back, mains OK' };
  await owner.post(`/api/demo/devices/${barrierId}/drift/`, { kind: 'differ', alarms: texts });

  await openLoggedIn(page, session, '/admin-barriers');
  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'Проверка устройства по модели' }).click();
  await page.getByRole('checkbox', { name: /Отключить питание устройства на минуту/ }).check();
  await expect(page.getByText('Устройство присылает СМС о питании только на номер в ячейке 1')).toBeVisible();
  await page.getByRole('button', { name: 'Начать проверку' }).click();

  const step = page.getByTestId('conformance-step-power_cut');
  await expect(step.getByTestId('conformance-ask')).toContainText('Отключите питание устройства на минуту', {
    timeout: 40_000,
  });
  // The person cuts the supply and brings it back: the unit sends its two SMS to the gateway in slot 1.
  expect(await owner.post(`/api/demo/devices/${barrierId}/power/`, { event: 'lost' })).toEqual({
    sent: 1,
    to_gateway: 1,
  });
  await owner.post(`/api/demo/devices/${barrierId}/power/`, { event: 'restored' });
  await expect(step).toContainText(texts.power_restored, { timeout: 20_000 });
  await expect(step).toContainText(texts.power_failure);
  await checkScreen(page, 'conformance-power-captured');
  await step.getByRole('button', { name: 'Питание включено' }).click();

  await expect(page.getByTestId('conformance-status')).toContainText('Найдены отличия от описания модели', {
    timeout: 40_000,
  });
  await expect(step.getByTestId('conformance-step-learnt')).toHaveText(
    `${texts.power_failure}\n${texts.power_restored}`,
  );
  const profile = await owner.get(`/api/admin/barriers/${barrierId}/device-profile/`);
  expect(profile.profile).toEqual({
    alarms: { power_failure: [texts.power_failure], power_restored: [texts.power_restored] },
  });
});
