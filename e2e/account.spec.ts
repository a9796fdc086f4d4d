import { loginOverApi, openLoggedIn, uniquePhone } from './support/api';
import { acceptPrivacyPolicyIfAsked } from './support/consent';
import { adminAccount } from './support/environment';
import { shownPhone } from './support/phone';
import { checkScreen, checkScreenTexts } from './support/screens';
import { smsCount, waitForCode } from './support/sms';
import { expect, test } from './support/test';

test('an administrator who forgot his password is sent to the operator (no reset by SMS), then logs in with password and code', async ({
  page,
}) => {
  const admin = adminAccount('ui');
  await page.goto('/login');
  await page.getByLabel('Введите номер телефона').fill(admin.phone);
  await page.getByRole('button', { name: 'Далее' }).click();
  await expect(page).toHaveURL(/\/verifyadmin$/);
  // The password screen's own heading first: its route loads lazily, and until it is drawn «Далее» is still
  // the number screen's (the address changes before the new screen is there).
  await expect(page.getByRole('heading', { name: 'Вход администратора' })).toBeVisible();
  await page.getByRole('button', { name: 'Далее' }).click();
  await expect(page.getByText('Пароль не должен быть пустым.')).toBeVisible();
  await checkScreen(page, 'verifyadmin');

  // An SMS code alone must not set an administrator's password (decision 0012): no code is sent.
  await page.getByRole('link', { name: 'Забыли пароль?' }).click();
  await expect(page).toHaveURL(/\/restoresms$/);
  const before = smsCount(admin.phone);
  // The screen says what to do instead and promises no SMS (issue 32 item 6).
  await expect(page.getByTestId('admin-reset-explained')).toContainText('Обратитесь к оператору сервера');
  await expect(page.getByRole('button', { name: 'Отправить код' })).toHaveCount(0);
  await checkScreen(page, 'restoresms-refused');
  expect(smsCount(admin.phone)).toBe(before);

  await page.goto('/login');
  await page.getByLabel('Введите номер телефона').fill(admin.phone);
  await page.getByRole('button', { name: 'Далее' }).click();
  await expect(page).toHaveURL(/\/verifyadmin$/);
  await expect(page.getByRole('heading', { name: 'Вход администратора' })).toBeVisible();
  await page.getByRole('textbox', { name: /^Пароль/ }).fill('not-the-password');
  await page.getByRole('button', { name: 'Далее' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await checkScreenTexts(page, 'verifyadmin-wrong-password');
  const beforeLogin = smsCount(admin.phone);
  await page.getByRole('textbox', { name: /^Пароль/ }).fill(admin.password);
  await page.getByRole('button', { name: 'Далее' }).click();

  await expect(page).toHaveURL(/\/smsadmin$/);
  const loginCode = await waitForCode(admin.phone, beforeLogin);
  await checkScreen(page, 'smsadmin');
  await page.getByLabel('Код из СМС').fill(loginCode);
  await page.getByRole('button', { name: 'Подтвердить' }).click();
  await acceptPrivacyPolicyIfAsked(page, /\/admin$/);

  // The toggle leads to the user side, where an administrator sees it too.
  await page.goto('/user');
  await expect(page.getByRole('radio', { name: 'Администратор' })).toHaveCount(1);
  await expect(page.getByLabel('Роль')).toHaveValue('Администратор');
  await checkScreen(page, 'user-admin-capable');
  await page.getByText('Администратор', { exact: true }).first().click();
  await expect(page).toHaveURL(/\/admin$/);
});

test('a resident changes his phone in four steps, then deletes his account', async ({ page, request }) => {
  const oldPhone = uniquePhone();
  const session = await loginOverApi(request, oldPhone);
  await openLoggedIn(page, session, '/user');
  await page.getByRole('button', { name: 'Сменить номер телефона' }).click();
  await expect(page).toHaveURL(/\/change-phone$/);
  await expect(page.getByTestId('change-phone-step')).toHaveText('Шаг 1 из 4');
  await checkScreen(page, 'change-phone-1');

  let before = smsCount(oldPhone);
  await page.getByRole('button', { name: 'Отправить код' }).click();
  await expect(page.getByTestId('change-phone-step')).toHaveText('Шаг 2 из 4');
  await page.getByLabel('Код из СМС').fill(await waitForCode(oldPhone, before));
  await checkScreen(page, 'change-phone-2');
  await page.getByRole('button', { name: 'Подтвердить' }).click();

  await expect(page.getByTestId('change-phone-step')).toHaveText('Шаг 3 из 4');
  const newPhone = uniquePhone();
  await page.getByLabel('Новый номер телефона').fill('79');
  await page.getByLabel('Новый номер телефона').blur();
  await expect(page.getByText('Введите корректный номер телефона в формате +7XXXXXXXXXX.')).toBeVisible();
  await checkScreen(page, 'change-phone-3');
  await page.getByLabel('Новый номер телефона').fill(newPhone.slice(1));
  before = smsCount(newPhone);
  await page.getByRole('button', { name: 'Отправить код' }).click();

  await expect(page.getByTestId('change-phone-step')).toHaveText('Шаг 4 из 4');
  const newCode = await waitForCode(newPhone, before);
  await page.getByLabel('Код из СМС').fill(newCode === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(page.getByRole('alert')).toHaveText('Код для нового номера неверный. Осталось 4 попытки.');
  await checkScreen(page, 'change-phone-4');
  await page.getByLabel('Код из СМС').fill(newCode);
  await page.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(page.getByText('Номер телефона успешно обновлён!')).toBeVisible();
  await page.getByRole('button', { name: 'Вернуться в профиль' }).click();
  await expect(page.getByLabel('Телефон')).toHaveValue(shownPhone(newPhone));

  await page.getByRole('button', { name: 'Удалить профиль' }).click();
  await expect(page).toHaveURL(/\/delete-account$/);
  await checkScreen(page, 'delete-account');
  before = smsCount(newPhone);
  await page.getByRole('button', { name: 'Отправить код' }).click();
  await page.getByLabel('Код из СМС').fill(await waitForCode(newPhone, before));
  await page.getByRole('button', { name: 'Удалить профиль' }).click();
  await expect(page.getByText('Профиль успешно удалён.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });
  expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).toBeNull();
});
