import type { APIRequestContext, Page } from '@playwright/test';
import { ApiAs, gatewayAdminSession, openLoggedIn, type Session } from './support/api';
import { type E2E_GATEWAY_SERVER, PHONE_CONTEXT } from './support/environment';
import { checkScreen } from './support/screens';
import { expect, test, watchForCspViolations } from './support/test';

/**
 * Issue 30 item 5 at 390×844, on a deployment whose gateway has a number (E2E_GATEWAY_SERVER): a new RTU5025
 * barrier holds the gateway's number in slot 1 and its owner's number from slot 7; the simulated unit loses its
 * supply and sends its power SMS to slot 1, which is the server; the administrator sees «Нет питания» on the
 * barrier list and «нет питания с HH:MM» on the barrier; the unit's supply comes back and the barrier says
 * «питание восстановлено», the list's flag is gone.
 */
test.describe.configure({ mode: 'serial' });

/** The second journey server, started for this file by the `gatewayServer` fixture (support/gateway-server.ts). */
let server: typeof E2E_GATEWAY_SERVER;

let api: APIRequestContext;
let owner: ApiAs;
let session: Session;
let page: Page;
let barrierId: number;
const address = `г Москва, ул Электрозаводская, д ${Date.now() % 100_000}`;

test.beforeAll(async ({ browser, playwright, gatewayServer }) => {
  server = gatewayServer;
  api = await playwright.request.newContext({ baseURL: server.baseUrl });
  session = await gatewayAdminSession(api);
  owner = new ApiAs(api, session);
  const created = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7805${Date.now() % 10_000_000}`.padEnd(12, '0'),
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: false,
  });
  barrierId = created.id;
  expect(created.device_gateway_number).toBe(server.gatewayPhone);
  const context = await browser.newContext({ ...PHONE_CONTEXT, baseURL: server.baseUrl });
  watchForCspViolations(context);
  page = await context.newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await api?.dispose();
});

const unit = async () =>
  (await owner.get(`/api/demo/devices/${barrierId}/`)).entries as { slot: number; number: string }[];

test('the unit loses power: the barrier list and the barrier say so; it comes back: the barrier says that', async () => {
  // The unit holds the gateway in slot 1 (where it sends its power SMS) and the owner above slots 2–6.
  await expect.poll(unit, { timeout: 20_000 }).toEqual([
    { slot: 1, number: server.gatewayPhone },
    { slot: 7, number: server.admin.phone },
  ]);

  const lost = await owner.post(`/api/demo/devices/${barrierId}/power/`, { event: 'lost' });
  expect(lost).toEqual({ sent: 1, to_gateway: 1 });

  // The unit's SMS reaches the server a moment later (DEVICE_SIM_DELAY_MS): the list is read again until then.
  await openLoggedIn(page, session, '/admin-barriers');
  const card = page.getByRole('listitem').filter({ hasText: address });
  await expect(async () => {
    await page.reload();
    await expect(card.getByTestId('device-power-lost')).toHaveText('Нет питания', { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await checkScreen(page, 'power-alarm-list');

  await card.click();
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
  await expect(page.getByTestId('gateway-number')).toContainText('Номер шлюза в ячейке 1');
  await expect(page.getByTestId('device-power')).toHaveText(/^Питание: нет питания с \d{2}:\d{2}$/);
  await checkScreen(page, 'power-alarm-barrier');

  // The conversation keeps the unit's SMS, named in Russian.
  await page.getByRole('button', { name: 'Журнал устройства' }).click();
  await expect(page.getByTestId('device-message').filter({ hasText: 'нет питания' })).toHaveCount(1);

  const restored = await owner.post(`/api/demo/devices/${barrierId}/power/`, { event: 'restored' });
  expect(restored).toEqual({ sent: 1, to_gateway: 1 });
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('device-power')).toHaveText(
      /^Питание: питание восстановлено в \d{2}:\d{2}$/,
      { timeout: 2000 },
    );
  }).toPass({ timeout: 20_000 });
  await page.goto('/admin-barriers');
  await expect(page.getByRole('listitem').filter({ hasText: address })).toBeVisible();
  await expect(
    page.getByRole('listitem').filter({ hasText: address }).getByTestId('device-power-lost'),
  ).toHaveCount(0);
});
