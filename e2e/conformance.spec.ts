import type { Page } from '@playwright/test';
import { openOwnBarrier, runDigits } from './admin-support';
import { type ApiAs, openLoggedIn, type Session } from './support/api';
import { ownerScene } from './support/owner-scene';
import { checkScreen } from './support/screens';
import { expect, test } from './support/test';

/**
 * Issue 42 at 390×844: «Проверка устройства по модели» from the administrator's barrier page. On a simulated
 * unit that answers as its sheet says, the run ends «все формы подтверждены»; on one that answers an add in
 * its own words, the run shows the difference and learns the unit's text into the barrier's profile; on one
 * that reads its clock in the other digit order and stores numbers as `+7…`, the call step settles the order
 * («Открылось?», the unit rung through the demo route) and the read-back settles the number form.
 */
test.describe.configure({ mode: 'serial' });

let owner: ApiAs;
let session: Session;
let page: Page;

ownerScene((scene) => {
  ({ owner, page } = scene);
  session = scene.session;
});

/** A new RTU5025 barrier whose simulated unit already holds the owner's number. */
async function barrierWithUnit(address: string, devicePhone: string): Promise<number> {
  const created = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: devicePhone,
    device_model: 'RTU5025',
    device_password: '1234',
    device_phones_amount: 20,
    is_public: false,
  });
  await expect
    .poll(async () => ((await owner.get(`/api/demo/devices/${created.id}/`)).entries as unknown[]).length, {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
  return created.id;
}

async function openRun(address: string) {
  await openLoggedIn(page, session, '/admin-barriers');
  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'Проверка устройства по модели' }).click();
  await expect(page.getByTestId('conformance-plan')).toContainText('Жителей проверка не затрагивает');
}

test('a unit that answers as its model says: every form confirmed', async () => {
  const run = runDigits(test.info(), 5);
  const address = `г Москва, ул Образцовая, д ${run}`;
  await barrierWithUnit(address, `+7806${run}01`);
  await openRun(address);
  await expect(page.getByTestId('conformance-sms')).toHaveText('СМС на устройство: 7');
  await expect(page.getByText('Свободная ячейка для тестового номера: 999')).toBeVisible();
  await checkScreen(page, 'conformance-plan');
  await page.getByRole('button', { name: 'Начать проверку' }).click();
  await expect(page.getByTestId('conformance-status')).toHaveText('все формы подтверждены', {
    timeout: 40_000,
  });
  await expect(page.getByTestId('conformance-step-delete').getByTestId('conformance-step-state')).toHaveText(
    'как в описании модели',
  );
  await checkScreen(page, 'conformance-confirmed');
});

test('a unit that answers an add in its own words: the difference is shown and learnt', async () => {
  const run = runDigits(test.info(), 5);
  const address = `г Москва, ул Своенравная, д ${run}`;
  const barrierId = await barrierWithUnit(address, `+7806${run}02`);
  await owner.post(`/api/demo/devices/${barrierId}/drift/`, {
    kind: 'differ',
    replies: { add: 'User {slot} added: {number}' },
  });
  await openRun(address);
  await page.getByRole('button', { name: 'Начать проверку' }).click();
  await expect(page.getByTestId('conformance-status')).toContainText(
    'Найдены отличия от описания модели: 1',
    {
      timeout: 40_000,
    },
  );
  const add = page.getByTestId('conformance-step-add');
  await expect(add.getByTestId('conformance-step-difference')).toHaveText('другой текст');
  await expect(add.getByTestId('conformance-step-learnt')).toHaveText('User {slot} added: {number}');
  await checkScreen(page, 'conformance-learnt');
  // The profile keeps the unit's text: the device profile screen shows it as the add's reply form.
  const profile = await owner.get(`/api/admin/barriers/${barrierId}/device-profile/`);
  expect(profile.profile).toEqual({ replies: { add: ['User {slot} added: {number}'] } });
});

test('a unit with the other clock order and its own number form: the call step settles the order', async () => {
  const run = runDigits(test.info(), 5);
  const address = `г Москва, ул Часовая, д ${run}`;
  const barrierId = await barrierWithUnit(address, `+7806${run}03`);
  await owner.post(`/api/demo/devices/${barrierId}/drift/`, {
    kind: 'differ',
    clockOrder: 'ddMMyyHHmm',
    numberFormat: '+7',
  });
  await openRun(address);
  await page.getByRole('checkbox', { name: /Проверить порядок цифр времени звонком/ }).check();
  // The owner's own number is on the barrier (it opens whatever the window): he names another one to call from.
  await expect(page.getByText('Ваш номер уже записан на шлагбауме')).toBeVisible();
  const caller = `+7916${run}04`;
  await page.getByLabel('Номер, с которого будете звонить (если не ваш)').fill(caller.slice(2));
  await expect(page.getByTestId('conformance-sms')).toHaveText('СМС на устройство: 11');
  await checkScreen(page, 'conformance-call-plan');
  await page.getByRole('button', { name: 'Начать проверку' }).click();

  // The first call: clock and window in the sheet's order (year-month-day); the unit reads the other order.
  const ask = page.getByTestId('conformance-ask');
  await expect(ask).toContainText('Открылось?', { timeout: 40_000 });
  await expect(ask).toContainText('+7 (916)');
  expect((await owner.post(`/api/demo/devices/${barrierId}/call/`, { from: caller })).opened).toBe(false);
  await checkScreen(page, 'conformance-call-asks');
  await ask.getByRole('button', { name: 'Нет' }).click();
  // The second call, in the other order: the gate opens.
  await expect(
    page.getByTestId('conformance-step-clock_retry_call').getByTestId('conformance-ask'),
  ).toBeVisible({
    timeout: 40_000,
  });
  expect((await owner.post(`/api/demo/devices/${barrierId}/call/`, { from: caller })).opened).toBe(true);
  await page.getByTestId('conformance-ask').getByRole('button', { name: 'Да' }).click();

  await expect(page.getByTestId('conformance-status')).toContainText('Найдены отличия от описания модели', {
    timeout: 40_000,
  });
  await expect(
    page.getByTestId('conformance-step-clock_retry_call').getByTestId('conformance-step-learnt'),
  ).toHaveText('Порядок цифр времени: день-месяц-год');
  await expect(
    page.getByTestId('conformance-step-clock_try_call').getByTestId('conformance-step-difference'),
  ).toHaveText('не открылось');
  await expect(
    page.getByTestId('conformance-step-read_added').getByTestId('conformance-step-learnt'),
  ).toHaveText('Формат номера: +7 и 10 цифр номера — международный формат');
  await checkScreen(page, 'conformance-call-learnt');
  const profile = await owner.get(`/api/admin/barriers/${barrierId}/device-profile/`);
  expect(profile.profile).toEqual({ clock_order: 'ddMMyyHHmm', number_format: '+7' });
});
