import type { APIRequestContext, Page } from '@playwright/test';
import {
  checkAdminScreen,
  newProjectPage,
  openAdminTab,
  openBarrierPart,
  openOwnBarrier,
  runDigits,
  selectOption,
} from './admin-support';
import { ApiAs, loginOverApi, openLoggedIn, ownerSession, type Session, uniquePhone } from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { shownPhone } from './support/phone';
import { readSms } from './support/sms';
import { expect, test } from './support/test';

/**
 * The administrator's area, screen by screen, at the project's viewport: profile (privacy, balance), barriers
 * (create with suggestions and validation, edit, limits, settings with the command preview, delete), users
 * (search, invite, phones with device status and a retry after a failure, block with a reason, unblock),
 * requests with infinite scroll, and the history.
 */
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let owner: ApiAs;
let resident: Session;
let page: Page;
let house: string;
let address: string;
let devicePhone: string;

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  owner = new ApiAs(api, await ownerSession(api));
  resident = await loginOverApi(api, uniquePhone());
  await new ApiAs(api, resident).patch('/api/users/me/', { full_name: 'Иван Жилец' });
  house = runDigits(testInfo, 5);
  address = `г Москва, ул Пятницкая, д ${house}`;
  devicePhone = `+7801${runDigits(testInfo, 7)}`;
  page = await newProjectPage(browser, testInfo);
  await openLoggedIn(page, owner.session, '/admin');
});

test.afterAll(async () => {
  await page.context().close();
  await api.dispose();
});

test('profile: privacy is saved one field at a time, the balance is the gateway’s', async () => {
  const testInfo = test.info();
  await expect(page.getByRole('heading', { name: 'Профиль администратора' })).toBeVisible();
  await expect(page.getByLabel('ФИО')).toHaveValue('Ольга Владелец');
  // The demo gateway reports no balance.
  await expect(page.getByTestId('balance')).toHaveText('неизвестен');
  await page.getByRole('button', { name: 'Проверить баланс' }).click();
  await expect(page.getByTestId('balance')).toHaveText('неизвестен');
  await selectOption(page, 'Видимость номера', 'Скрыт от всех');
  await expect(page.getByText('Видимость номера сохранена')).toBeVisible();
  expect((await owner.get('/api/users/me/')).phone_privacy).toBe('private');
  await checkAdminScreen(page, testInfo, 'profile');
  await selectOption(page, 'Видимость номера', 'Виден всем');
  await expect.poll(async () => (await owner.get('/api/users/me/')).phone_privacy).toBe('public');
});

test('creates a barrier: validation, address suggestions, success and the list', async () => {
  const testInfo = test.info();
  await openAdminTab(page, 'Шлагбаумы');
  await expect(page.getByRole('heading', { name: 'Мои шлагбаумы' })).toBeVisible();
  await checkAdminScreen(page, testInfo, 'barriers');
  await page.getByRole('button', { name: 'Создать шлагбаум' }).click();
  await expect(page.getByRole('heading', { name: 'Создание шлагбаума' })).toBeVisible();
  await expect(page.getByLabel('Телефон устройства')).toHaveValue('+7');
  await page.getByRole('button', { name: 'Создать' }).click();
  for (const message of [
    'Укажите корректный адрес.',
    'Неверный формат номера.',
    'Пароль должен состоять из 4 цифр.',
  ])
    await expect(page.getByText(message)).toBeVisible();
  // The amount starts at what the model holds, and the hint says the same figure (issue 41).
  await expect(page.getByLabel('Максимум номеров на устройстве')).not.toHaveValue('');
  await expect(page.getByText('Укажите число от 1 до 10000.')).toHaveCount(0);
  await checkAdminScreen(page, testInfo, 'create-barrier-errors');

  await page.getByRole('button', { name: 'Вставить пример адреса' }).click();
  await expect(page.getByRole('textbox', { name: 'Адрес' })).toHaveValue('г Москва, ул Тверская, д 7');
  await page.getByRole('textbox', { name: 'Адрес' }).fill(`Пятницкая ${house}`);
  await page.getByRole('option', { name: address, exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Адрес' })).toHaveValue(address);
  await page.getByLabel('Телефон устройства').fill(devicePhone);
  await page.getByLabel('Пароль устройства').fill('1234');
  await page.getByLabel('Максимум номеров на устройстве').fill('50');
  await page.getByLabel('Дополнительная информация').fill('Въезд со двора');
  await expect(page.getByRole('checkbox', { name: 'Публичный шлагбаум' })).toBeChecked();
  await checkAdminScreen(page, testInfo, 'create-barrier');
  await page.getByRole('button', { name: 'Создать' }).click();
  await expect(page.getByText('Шлагбаум успешно создан.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin-barriers$/);
  await openOwnBarrier(page, address);
  await expect(page.getByText(`Телефон устройства: ${shownPhone(devicePhone)}`)).toBeVisible();
});

test('edits the barrier and its limits', async () => {
  const testInfo = test.info();
  await openBarrierPart(page, 'Параметры');
  await page.getByLabel('Дополнительная информация').fill('Въезд с улицы');
  await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
  await expect(page.getByText('Шлагбаум успешно обновлён.')).toBeVisible();
  await openBarrierPart(page, 'Лимиты');
  await page.getByLabel('Номеров на пользователя', { exact: true }).fill('5');
  await page.getByLabel('СМС на устройство в неделю').fill('x');
  await expect(page.getByLabel('СМС на устройство в неделю')).toHaveValue('');
  await page.getByRole('button', { name: 'Сохранить лимиты' }).click();
  await expect(page.getByText('Лимиты успешно обновлены.')).toBeVisible();
  await checkAdminScreen(page, testInfo, 'barrier-page');
  const barrierId = (await owner.get('/api/admin/barriers/my/?page_size=100&ordering=-id')).barriers.find(
    (barrier: { address: string }) => barrier.address === address,
  ).id;
  const limits = await owner.get(`/api/admin/barriers/${barrierId}/limits/`);
  expect(limits).toMatchObject({ user_phone_limit: 5, sms_weekly_limit: null });
  expect((await owner.get(`/api/admin/barriers/${barrierId}/`)).additional_info).toBe('Въезд с улицы');
});

test('sends a device setting with a live command preview', async () => {
  const testInfo = test.info();
  await page.getByRole('button', { name: 'Настройки устройства' }).click();
  await expect(page.getByRole('heading', { name: 'Настройки шлагбаума' })).toBeVisible();
  await selectOption(page, 'Настройка', 'Запрос ячейки');
  const preview = page.getByTestId('command-preview');
  await expect(page.getByTestId('command-preview-pending')).toBeVisible();
  await page.getByRole('textbox', { name: 'Ячейка' }).fill('001');
  await expect(preview).toHaveText('****A001#');
  await checkAdminScreen(page, testInfo, 'barrier-settings');
  const before = readSms().filter((sms) => sms.to === devicePhone).length;
  await page.getByRole('button', { name: 'Отправить' }).click();
  await expect(page.getByText('Настройка «Запрос ячейки»: подтверждено устройством.')).toBeVisible();
  // The device gets the command with its password filled in by the server.
  await expect
    .poll(() =>
      readSms()
        .filter((sms) => sms.to === devicePhone)
        .slice(before)
        .map((sms) => sms.text),
    )
    .toContain('1234A001#');
  await page.getByRole('button', { name: '← Назад' }).click();
  await expect(page.getByRole('heading', { name: 'Мои шлагбаумы' })).toBeVisible();
});

test('invites a resident by number (the search tells nothing of a stranger); he accepts and appears among the users', async () => {
  const testInfo = test.info();
  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'Пользователи' }).click();
  await expect(page.getByRole('heading', { name: 'Пользователи шлагбаума' })).toBeVisible();
  const find = page.getByRole('button', { name: 'Найти' });
  await expect(find).toBeDisabled();
  await page.getByLabel('Номер телефона', { exact: true }).fill(resident.phone);
  await find.click();
  // He has an account, but the owner does not know him yet: the same answer as for a number without one
  // (issue 28, no account oracle), and the invitation goes by number.
  await expect(page.getByText('Пользователь не найден')).toBeVisible();
  await page.getByRole('button', { name: 'Пригласить по номеру' }).click();
  await expect(
    page.getByText(
      'Приглашение отправлено по СМС. Оно появится у человека, когда он войдёт по этому номеру.',
    ),
  ).toBeVisible();
  await checkAdminScreen(page, testInfo, 'barrier-users-invite');

  const asResident = new ApiAs(api, resident);
  const incoming = await asResident.get('/api/access_requests/my/?type=incoming&page_size=100');
  const invitation = incoming.access_requests.find(
    (request: { barrier_address: string; status: string }) =>
      request.barrier_address === address && request.status === 'pending',
  );
  await asResident.patch(`/api/access_requests/${invitation.id}/`, { status: 'accepted' });
  await page.reload();
  await page.getByLabel('Поиск по имени или телефону').fill('Жилец');
  const row = page.getByTestId('barrier-user').filter({ hasText: 'Иван Жилец' });
  await expect(row).toContainText(shownPhone(resident.phone));
  await checkAdminScreen(page, testInfo, 'barrier-users');
  await row.getByRole('button', { name: 'Открыть профиль' }).click();
  await expect(page.getByRole('heading', { name: 'Профиль пользователя' })).toBeVisible();
});

/** Stores a device password for the barrier, then opens the profile of its user Иван Жилец. */
async function saveDevicePasswordAndOpenResident(page: Page, address: string, password: string) {
  await openOwnBarrier(page, address);
  await openBarrierPart(page, 'Параметры');
  await page.getByLabel('Пароль устройства').fill(password);
  await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
  await expect(page.getByText('Шлагбаум успешно обновлён.')).toBeVisible();
  await page.getByRole('button', { name: 'Пользователи' }).click();
  await page
    .getByTestId('barrier-user')
    .filter({ hasText: 'Иван Жилец' })
    .getByRole('button', { name: 'Открыть профиль' })
    .click();
}

test('adds a phone for the user; a failed device command is retried after the password is fixed', async () => {
  const testInfo = test.info();
  const primary = page.getByTestId('phone-card').filter({ hasText: shownPhone(resident.phone) });
  await expect(primary.getByTestId('phone-status')).toHaveText('Активен', { timeout: 20_000 });

  // The stored device password is corrected to a wrong one: the device refuses the next command.
  await saveDevicePasswordAndOpenResident(page, address, '9999');

  await page.getByRole('button', { name: 'Добавить номер' }).click();
  await expect(page.getByRole('heading', { name: 'Добавить номер' })).toBeVisible();
  await page.getByLabel('Имя').fill('Жена');
  await page.getByLabel('Номер телефона').fill('912');
  await page.getByLabel('Имя').click();
  await expect(page.getByText('Номер телефона должен быть в формате +7XXXXXXXXXX.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Сохранить' })).toBeDisabled();
  await checkAdminScreen(page, testInfo, 'add-phone-admin');
  const wifePhone = `+7912${runDigits(testInfo, 7)}`;
  await page.getByLabel('Номер телефона').fill(wifePhone);
  await page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByRole('heading', { name: 'Профиль пользователя' })).toBeVisible();
  const wife = page.getByTestId('phone-card').filter({ hasText: shownPhone(wifePhone) });
  await expect(wife.getByTestId('phone-status')).toHaveText('Ошибка', { timeout: 20_000 });
  // Why: the device refused the password.
  await expect(wife.getByTestId('phone-status-note')).toHaveText('Неверный пароль устройства', {
    timeout: 20_000,
  });
  await checkAdminScreen(page, testInfo, 'user-profile-error');

  await saveDevicePasswordAndOpenResident(page, address, '1234');
  await wife.getByRole('button', { name: 'Повторить отправку' }).click();
  await expect(wife.getByTestId('phone-status')).toHaveText('Активен', { timeout: 20_000 });

  await wife.getByRole('button', { name: 'Изменить' }).click();
  await expect(page.getByRole('heading', { name: 'Редактировать номер' })).toBeVisible();
  await page.getByLabel('Имя').fill('');
  await expect(page.getByText('Введите имя.')).toBeVisible();
  await checkAdminScreen(page, testInfo, 'edit-phone-admin');
  await page.getByLabel('Имя').fill('Супруга');
  await page.getByRole('button', { name: 'Сохранить изменения' }).click();
  await expect(page.getByRole('heading', { name: 'Профиль пользователя' })).toBeVisible();
  await expect(page.getByTestId('phone-card').filter({ hasText: 'Супруга' })).toContainText(
    shownPhone(wifePhone),
  );
  // His history: only his numbers.
  await expect(page.getByTestId('action-card').first()).toBeVisible();
  await checkAdminScreen(page, testInfo, 'user-profile');
});

test('blocks the user with a reason and unblocks him from the search', async () => {
  const testInfo = test.info();
  await page.getByRole('button', { name: 'Заблокировать' }).click();
  await expect(page.getByText('Укажите причину блокировки.')).toBeVisible();
  await page.getByLabel('Причина блокировки').fill('Не платит взносы');
  await page.getByRole('button', { name: 'Заблокировать' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Да, заблокировать' }).click();
  await expect(page.getByTestId('user-status')).toHaveText('Заблокирован');
  await expect(page.getByText('Причина: Не платит взносы')).toBeVisible();
  await expect(page.getByText('Нет номеров')).toBeVisible();
  await checkAdminScreen(page, testInfo, 'user-profile-blocked');

  await page.getByRole('button', { name: '← Назад' }).click();
  await expect(page.getByRole('heading', { name: 'Пользователи шлагбаума' })).toBeVisible();
  await page.getByLabel('Номер телефона').fill(resident.phone);
  await page.getByRole('button', { name: 'Найти' }).click();
  const found = page.getByTestId('found-user');
  await expect(found).toContainText('Заблокирован');
  await expect(found.getByRole('button', { name: 'Пригласить' })).toHaveCount(0);
  await checkAdminScreen(page, testInfo, 'barrier-users-blocked');
  await found.getByRole('button', { name: 'Разблокировать' }).click();
  await expect(found.getByRole('button', { name: 'Пригласить' })).toBeVisible();
});

test('processes requests in an infinitely scrolled list', async () => {
  const testInfo = test.info();
  // Eleven more barriers and one user asking for all of them: more than one page of 10.
  const asker = await loginOverApi(api, uniquePhone());
  const askerApi = new ApiAs(api, asker);
  const askerId = (await askerApi.get('/api/users/me/')).id;
  const street = `ул Заявочная ${runDigits(testInfo, 5)}`;
  for (let index = 1; index <= 11; index += 1) {
    const barrier = await owner.post('/api/admin/barriers/', {
      address: `${street}, д ${index}`,
      device_phone: `+7802${runDigits(testInfo, 5)}${String(index).padStart(2, '0')}`,
      device_model: 'RTU5025',
      device_password: '1234',
      device_phones_amount: 10,
      is_public: true,
    });
    await askerApi.post('/api/access_requests/', { user: askerId, barrier: barrier.id });
  }
  await openAdminTab(page, 'Заявки');
  await expect(page.getByRole('tab', { name: 'Входящие' })).toHaveAttribute('aria-selected', 'true');
  const cards = page.getByTestId('access-request');
  await expect(cards.first()).toBeVisible();
  const done = page.getByText('Все заявки загружены');
  while (!(await done.isVisible())) {
    await page.getByTestId('infinite-scroll-sentinel').scrollIntoViewIfNeeded();
    await page.waitForLoadState('networkidle');
  }
  expect(await cards.count()).toBeGreaterThan(10);
  const card = (house: number) =>
    cards.filter({ has: page.getByText(`${street}, д ${house}`, { exact: true }) });
  await card(1).getByRole('button', { name: 'Принять' }).click();
  await expect(card(1)).toContainText('Принята');
  await card(2).getByRole('button', { name: 'Отклонить' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Да, отклонить' }).click();
  await expect(card(2)).toContainText('Отклонена');
  await checkAdminScreen(page, testInfo, 'requests-incoming');
  await page.getByRole('tab', { name: 'Исходящие' }).click();
  await expect(page.getByTestId('access-request').first()).toBeVisible();
  await checkAdminScreen(page, testInfo, 'requests-outgoing');
});

test('reads the device log: what was sent, what the device answered, the password masked', async () => {
  const testInfo = test.info();
  await openOwnBarrier(page, address);
  await expect(page.getByTestId('device-health')).toContainText('Последний ответ');
  await page.getByRole('button', { name: 'Журнал устройства' }).click();
  await expect(page.getByRole('heading', { name: 'Журнал устройства' })).toBeVisible();
  const messages = page.getByTestId('device-message');
  await expect(messages.first()).toBeVisible();
  await selectOption(page, 'Результат', 'неверный пароль');
  await expect(messages.first()).toContainText('Получено от устройства');
  await expect(messages.first()).toContainText('неверный пароль');
  await selectOption(page, 'Результат', 'отправлено');
  await expect(messages.first()).toContainText('Отправлено устройству');
  for (const text of await messages.allTextContents()) expect(text).toContain('****');
  await checkAdminScreen(page, testInfo, 'device-log');
  await page.getByRole('button', { name: '← Назад' }).click();
  await expect(page.getByTestId('barrier-address')).toHaveText(address);
});

test('checks a unit that drifted, sees the differences and repairs it: the unit then holds what the database does', async () => {
  const testInfo = test.info();
  const barrierId = (await owner.get('/api/admin/barriers/my/?page_size=100&ordering=-id')).barriers.find(
    (barrier: { address: string }) => barrier.address === address,
  ).id;
  const databaseNumbers = async () =>
    (await owner.get(`/api/admin/barriers/${barrierId}/phones/my/?page_size=100`)).phones
      .map((phone: { phone: string }) => phone.phone)
      .sort();
  const deviceNumbers = async () =>
    (await owner.get(`/api/demo/devices/${barrierId}/`)).entries
      .map((entry: { number: string }) => entry.number)
      .sort();
  await expect.poll(deviceNumbers, { timeout: 20_000 }).toEqual(await databaseNumbers());
  // Behind the server's back: someone writes his own number into slot 7, and slot 1 loses its number.
  const intruder = `+7999${runDigits(testInfo, 7)}`;
  await owner.post(`/api/demo/devices/${barrierId}/drift/`, { kind: 'manual_add', slot: 7, phone: intruder });
  await owner.post(`/api/demo/devices/${barrierId}/drift/`, { kind: 'wipe_slot', slot: 1 });
  expect(await deviceNumbers()).toContain(intruder);

  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'Проверить устройство' }).click();
  await expect(page.getByRole('heading', { name: 'Проверка устройства' })).toBeVisible();
  await expect(page.getByText('Устройство ещё не проверялось.')).toBeVisible();
  await page.getByRole('button', { name: 'Проверить устройство' }).click();
  await expect(page.getByTestId('device-check-status')).toHaveText('Проверка завершена.', {
    timeout: 20_000,
  });
  const differences = page.getByTestId('device-check-differences');
  await expect(differences.getByRole('row').filter({ hasText: shownPhone(intruder) })).toContainText(
    'удалить',
  );
  await expect(differences.getByRole('row').filter({ hasText: 'записать' })).toHaveCount(1);
  await expect(page.getByText('Номера: 2 СМС (сначала удаления).')).toBeVisible();
  await checkAdminScreen(page, testInfo, 'device-check');

  await page.getByRole('button', { name: 'Исправить' }).click();
  await page.getByRole('button', { name: 'Да, исправить' }).click();
  await expect(page.getByTestId('device-check-status')).toHaveText('Исправление отправлено на устройство.');
  await expect.poll(deviceNumbers, { timeout: 20_000 }).toEqual(await databaseNumbers());
  expect(await deviceNumbers()).not.toContain(intruder);
  // The conversation shows the read-back and the repair.
  await page.getByRole('button', { name: '← Назад' }).click();
  await page.getByRole('button', { name: 'Журнал устройства' }).click();
  await expect(page.getByTestId('device-message').filter({ hasText: '****AL001#010#' })).toHaveCount(1);
  await expect(page.getByTestId('device-message').filter({ hasText: '****A007##' }).first()).toBeVisible();
});

test('reads the barrier history and deletes the barrier', async () => {
  const testInfo = test.info();
  await openOwnBarrier(page, address);
  await page.getByRole('button', { name: 'История изменений' }).click();
  await expect(page.getByRole('heading', { name: 'История изменений (Админ)' })).toBeVisible();
  const cards = page.getByTestId('action-card');
  await expect(cards.first()).toBeVisible();
  await cards.first().getByRole('button').first().click();
  await expect(page.getByTestId('action-detail')).toContainText('Причина:');
  await checkAdminScreen(page, testInfo, 'barrier-history');
  await selectOption(page, 'Тип действия', 'Настройка шлагбаума');
  await expect(cards.first()).toContainText('Настройка шлагбаума');
  await page.getByRole('button', { name: '← Назад' }).click();

  await page.getByRole('button', { name: 'Удалить шлагбаум' }).click();
  await page.getByRole('button', { name: 'Да, удалить' }).click();
  await expect(page.getByRole('heading', { name: 'Мои шлагбаумы' })).toBeVisible();
  const remaining = await owner.get('/api/admin/barriers/my/?page_size=100&ordering=-id');
  expect(remaining.barriers.map((barrier: { address: string }) => barrier.address)).not.toContain(address);
});
