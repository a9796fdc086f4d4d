import type { Page } from '@playwright/test';
import { openAdminTab, openOwnBarrier, runDigits } from './admin-support';
import { type ApiAs, openLoggedIn, type Session } from './support/api';
import { ownerScene } from './support/owner-scene';
import { checkScreen } from './support/screens';
import { expect, test } from './support/test';

/**
 * Issue 42 item 4 at 390×844: an operator whose unit no sheet covers defines its model on «Свои модели
 * устройств» (the form editor with its preview), puts it on a barrier, whose every screen then says «не
 * проверено на устройстве»; a conformance run on the barrier (the simulated unit plays the defined model)
 * confirms every form, and the mark is gone.
 */
test.describe.configure({ mode: 'serial' });

let owner: ApiAs;
let session: Session;
let page: Page;

ownerScene((scene) => {
  ({ owner, page } = scene);
  session = scene.session;
});

/** Types a template into a field of the editor, key by key as a person does. */
async function typeForm(label: string, text: string) {
  const field = page.getByRole('textbox', { name: label, exact: true });
  await field.click();
  await page.keyboard.type(text);
  await expect(field).toHaveValue(text);
}

// One journey in three steps (serial, one page), each within the test time limit on a busy host: typing the
// model key by key and the conformance run's SMS took more than a minute together once in CI.
let run = '';
let name = '';
let address = '';

test('an operator defines a model on «Свои модели устройств»: told what to fix, a preview, saved', async () => {
  run = runDigits(test.info(), 5);
  name = `Модуль ворот ${run}`;
  await openLoggedIn(page, session, '/admin-barriers');
  await openAdminTab(page, 'Профиль');
  await page.getByRole('button', { name: 'Свои модели устройств' }).click();
  // The templates' parameters, each as it is typed ({slot}, shown verbatim) beside what it stands for.
  await expect(page.getByTestId('model-parameters')).toContainText('{slot} — ячейка');
  await checkScreen(page, 'defined-models-list');
  await page.getByRole('button', { name: 'Новая модель' }).click();
  await page.getByRole('textbox', { name: 'Название модели' }).fill(name);
  await page.getByRole('button', { name: 'Сохранить модель' }).click();
  // Told in Russian what to fix, nothing saved.
  await expect(page.getByTestId('model-problems')).toContainText('Команда записи номера: заполните поле.');
  await typeForm('Команда записи номера', '{pwd}#ADD#{slot}#{number}#');
  await typeForm('Команда удаления номера', '{pwd}#DEL#{slot}#');
  await typeForm('Команда чтения номеров', '{pwd}#READ#{slot}#');
  await typeForm('Ответ на запись номера', 'Add OK {slot}');
  await typeForm('Ответ на удаление номера', 'Del OK {slot}');
  await typeForm('Строка ответа на чтение', '{slot}:{number}');
  await typeForm('Строка ответа на чтение: пустая ячейка', '{slot}:none');
  await expect(page.getByTestId('model-preview')).toContainText('#ADD#005#+79161234567#');
  await checkScreen(page, 'defined-model-editor');
  await page.getByRole('button', { name: 'Сохранить модель' }).click();
  await expect(page.getByTestId('device-model').filter({ hasText: name })).toContainText('Номеров: до 100');
});

test('put on a barrier of his, the model is «не проверено на устройстве» on every screen of it', async () => {
  const { models } = await owner.get('/api/admin/device-models/');
  const model = (models as { name: string; model: string }[]).find((item) => item.name === name);
  address = `г Москва, ул Самодельная, д ${run}`;
  const created = await owner.post('/api/admin/barriers/', {
    address,
    device_phone: `+7807${run}01`,
    device_model: model?.model,
    device_password: '1234',
    device_phones_amount: 20,
    is_public: false,
  });
  await expect
    .poll(async () => ((await owner.get(`/api/demo/devices/${created.id}/`)).entries as unknown[]).length, {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
  // Made over the API behind the page's back: read afresh (the list the page read at its start is still fresh
  // enough to be shown from memory, without this barrier).
  await page.reload();
  await openOwnBarrier(page, address);
  await expect(page.getByTestId('unverified-model-banner')).toContainText('не проверено на устройстве');
  await checkScreen(page, 'defined-model-barrier-unverified');
  await page.getByRole('button', { name: 'Настройки устройства' }).click();
  // The banner is on both screens: the settings' own address first, so that the check is of that screen and the
  // way back starts from it (a goBack sent before the navigation had landed went back to the list once, in CI).
  await expect(page).toHaveURL(/\/barrier-settings/);
  await expect(page.getByTestId('unverified-model-banner')).toContainText('не проверено на устройстве');
  await page.goBack();
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
});

test('the conformance run plans from the defined forms, confirms them on the unit, and the mark goes', async () => {
  await page.getByRole('button', { name: 'Проверка устройства по модели' }).click();
  await expect(page.getByTestId('conformance-plan')).toContainText('Жителей проверка не затрагивает');
  await page.getByRole('button', { name: 'Начать проверку' }).click();
  await expect(page.getByTestId('conformance-status')).toHaveText('все формы подтверждены', {
    timeout: 40_000,
  });
  await expect(page.getByTestId('unverified-model-banner')).toHaveCount(0, { timeout: 10_000 });
  await page
    .getByRole('link', { name: 'Назад' })
    .or(page.getByRole('button', { name: 'Назад' }))
    .first()
    .click();
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
  await expect(page.getByTestId('unverified-model-banner')).toHaveCount(0);
  await page.getByRole('button', { name: 'Настройки устройства' }).click();
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
  await expect(page.getByTestId('unverified-model-banner')).toHaveCount(0);
});
