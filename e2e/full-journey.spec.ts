import { newProjectPage, openAdminTab, openOwnBarrier, runDigits, selectOption } from './admin-support';
import { ApiAs, loginOverApi, openLoggedIn, ownerSession, uniquePhone } from './support/api';
import { PHONE_CONTEXT } from './support/environment';
import { shownPhone } from './support/phone';
import { checkScreen } from './support/screens';
import { readSms } from './support/sms';
import { expect, test } from './support/test';

/**
 * The whole journey, two people in two browsers: an administrator creates a barrier → a user finds it and asks
 * for access → the administrator accepts → the user adds a temporary phone → the device simulator confirms and
 * both see it active → the administrator blocks the user → the user's numbers leave the device (the delete
 * commands in SMS_FILE) and the history of both says why.
 */
test('from a new barrier to a blocked user, seen by both sides and by the device', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(150_000);
  const testInfo = test.info();
  const api = await playwright.request.newContext({ baseURL: PHONE_CONTEXT.baseURL });
  const owner = new ApiAs(api, await ownerSession(api));
  const resident = await loginOverApi(api, uniquePhone());
  await new ApiAs(api, resident).patch('/api/users/me/', { full_name: 'Анна Соседка' });
  const house = runDigits(testInfo, 5);
  const address = `г Москва, ул Остоженка, д ${house}`;
  const devicePhone = `+7803${runDigits(testInfo, 7)}`;
  const guestPhone = `+7913${runDigits(testInfo, 7)}`;

  // The administrator creates the barrier.
  const admin = await newProjectPage(browser, testInfo);
  await openLoggedIn(admin, owner.session, '/create-barrier');
  await admin.getByRole('textbox', { name: 'Адрес' }).fill(`Остоженка ${house}`);
  await admin.getByRole('option', { name: address, exact: true }).click();
  await admin.getByLabel('Телефон устройства').fill(devicePhone);
  await admin.getByLabel('Пароль устройства').fill('1234');
  await admin.getByLabel('Максимум номеров на устройстве').fill('100');
  await admin.getByRole('button', { name: 'Создать' }).click();
  await expect(admin.getByText('Шлагбаум успешно создан.')).toBeVisible();
  await expect(admin).toHaveURL(/\/admin-barriers$/);

  // The user finds it and asks for access.
  const user = await newProjectPage(browser, testInfo);
  await openLoggedIn(user, resident, '/barriers');
  await user.getByText('Поиск', { exact: true }).click();
  await user.getByLabel('Поиск по адресу').fill(address);
  await expect(user.getByTestId('barrier-item')).toHaveCount(1);
  await user.getByTestId('barrier-item').click();
  await expect(user.getByTestId('barrier-address')).toHaveText(address);
  await user.getByRole('button', { name: 'Отправить запрос' }).click();
  await expect(user.getByText('Запрос успешно отправлен.')).toBeVisible();

  // The administrator accepts it.
  await openAdminTab(admin, 'Заявки');
  const request = admin
    .getByTestId('access-request')
    .filter({ has: admin.getByText(address, { exact: true }) });
  await expect(request).toContainText('Ожидает');
  await request.getByRole('button', { name: 'Принять' }).click();
  await expect(request).toContainText('Принята');
  await checkScreen(admin, 'full-journey-admin-accepted');

  // The user adds a temporary phone; the device confirms it.
  await user.getByRole('navigation', { name: 'Основная навигация' }).getByText('Шлагбаумы').click();
  // His list was loaded before the acceptance: he opens it again.
  await user.reload();
  await user.getByTestId('barrier-item').filter({ hasText: address }).click();
  await expect(user).toHaveURL(/\/mybarrier$/);
  await user.getByRole('button', { name: 'Добавить номер' }).click();
  await expect(user.getByRole('heading', { name: 'Добавить номер' })).toBeVisible();
  await user.getByLabel('Имя').fill('Гость');
  await user.getByLabel('Номер телефона').fill(guestPhone);
  await selectOption(user, 'Тип номера', 'Временный');
  await user.getByLabel('Начало').fill('2030-05-02T09:00');
  await user.getByLabel('Конец').fill('2030-05-03T09:00');
  await user.getByRole('button', { name: 'Сохранить' }).click();
  await expect(user).toHaveURL(/\/mybarrier$/);
  const guestForUser = user.getByTestId('phone-card').filter({ hasText: shownPhone(guestPhone) });
  await expect(guestForUser.getByTestId('phone-status')).toHaveText('Активен', { timeout: 20_000 });
  const sentToDevice = () =>
    readSms()
      .filter((sms) => sms.to === devicePhone)
      .map((sms) => sms.text);
  // RTU5025: one SMS puts the number in a slot with its window, `{pwd}A{slot}#{number}#{start}#{end}#`.
  expect(sentToDevice()).toContainEqual(
    expect.stringMatching(new RegExp(`^1234A\\d{3}#0007${guestPhone.slice(2)}#3005020900#3005030900#$`)),
  );
  await checkScreen(user, 'full-journey-user-phone-ok');

  // The administrator sees the same on the user's profile.
  await openOwnBarrier(admin, address);
  await admin.getByRole('button', { name: 'Пользователи' }).click();
  await admin
    .getByTestId('barrier-user')
    .filter({ hasText: 'Анна Соседка' })
    .getByRole('button', { name: 'Открыть профиль' })
    .click();
  const guestForAdmin = admin.getByTestId('phone-card').filter({ hasText: shownPhone(guestPhone) });
  await expect(guestForAdmin.getByTestId('phone-status')).toHaveText('Активен');
  await expect(guestForAdmin).toContainText('Временный');

  // The user keeps his history open.
  await user.getByRole('button', { name: 'История изменений' }).click();
  await expect(user).toHaveURL(/\/barrier-history$/);
  await expect(user.getByTestId('action-card').first()).toBeVisible();

  // The administrator blocks him.
  const deletesBefore = sentToDevice().filter((text) => text.endsWith('##')).length;
  await admin.getByLabel('Причина блокировки').fill('Нарушение правил въезда');
  await admin.getByRole('button', { name: 'Заблокировать' }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Да, заблокировать' }).click();
  await expect(admin.getByTestId('user-status')).toHaveText('Заблокирован');
  await expect(admin.getByText('Нет номеров')).toBeVisible();

  // Both of his numbers (his own and the guest) leave the device: two delete commands `{pwd}A{slot}##`.
  await expect
    .poll(() => sentToDevice().filter((text) => /^1234A\d{3}##$/.test(text)).length - deletesBefore, {
      timeout: 20_000,
    })
    .toBe(2);

  // The administrator's view of his history: deletions, because he left the barrier.
  await admin.reload();
  const adminDeletion = admin.getByTestId('action-card').filter({ hasText: 'Удаление номера' }).first();
  await expect(adminDeletion).toBeVisible();
  await adminDeletion.getByRole('button').first().click();
  await expect(admin.getByTestId('action-detail')).toContainText('Причина: Выход из шлагбаума');
  await checkScreen(admin, 'full-journey-admin-history');

  // The user's view of his history says the same.
  await user.reload();
  const userDeletion = user.getByTestId('action-card').filter({ hasText: 'Удаление номера' }).first();
  await expect(userDeletion).toBeVisible();
  await userDeletion.getByRole('button').first().click();
  await expect(user.getByTestId('action-detail')).toContainText('Причина: Выход из шлагбаума');
  await checkScreen(user, 'full-journey-user-history');

  // And his barrier list no longer holds it.
  await user.getByRole('navigation', { name: 'Основная навигация' }).getByText('Шлагбаумы').click();
  await expect(user.getByTestId('barrier-item').filter({ hasText: address })).toHaveCount(0);

  await admin.context().close();
  await user.context().close();
  await api.dispose();
});
