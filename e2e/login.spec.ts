import { uniquePhone } from './support/api';
import { acceptPrivacyPolicy } from './support/consent';
import { shownPhone } from './support/phone';
import { checkScreen, checkScreenTexts } from './support/screens';
import { smsCount, waitForCode } from './support/sms';
import { expect, test } from './support/test';

test('a resident logs in with an SMS code, names himself, reloads, and logs out', async ({ page }) => {
  const phone = uniquePhone();
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Вход' })).toBeVisible();
  await checkScreen(page, 'login');

  const input = page.getByLabel('Введите номер телефона');
  await input.fill(`8 ${phone.slice(2)}`);
  // The leading 8 is the trunk prefix: every digit of the number stays (it used to lose the last one).
  await expect(input).toHaveValue(shownPhone(phone));
  await input.fill(phone.slice(2));
  await expect(input).toHaveValue(shownPhone(phone));
  const before = smsCount(phone);
  await page.getByRole('button', { name: 'Далее' }).click();

  await expect(page).toHaveURL(/\/verifyuser$/);
  await expect(page.getByText(shownPhone(phone))).toBeVisible();
  await expect(page.getByText('На телефон выслан код подтверждения')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Отправить код повторно' })).toBeDisabled();
  await expect(page.getByTestId('countdown')).toContainText('⏳ Отправить код повторно можно через 0:5');
  await checkScreen(page, 'verifyuser');

  const code = await waitForCode(phone, before);
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('Код из СМС').fill(wrong);
  await page.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(page.getByRole('alert')).toHaveText('Неверный код подтверждения. Осталось 4 попытки.');
  await checkScreenTexts(page, 'verifyuser-wrong-code');

  // Reloading the code screen keeps the phone and the token.
  await page.reload();
  await expect(page.getByText(shownPhone(phone))).toBeVisible();
  await page.getByLabel('Код из СМС').fill(code);
  await page.getByRole('button', { name: 'Подтвердить' }).click();
  // A first login: the operator's policy, then the account (server decision 0022).
  await checkScreen(page, 'verifyuser-consent');
  await acceptPrivacyPolicy(page);

  await expect(page).toHaveURL(/\/user$/);
  await expect(page.getByLabel('Телефон')).toHaveValue(shownPhone(phone));
  await expect(page.getByLabel('Роль')).toHaveValue('Пользователь');
  await expect(page.getByRole('radio', { name: 'Администратор' })).toHaveCount(0);
  await checkScreen(page, 'user');

  await page.getByLabel('ФИО').fill('Анна Соколова');
  await page.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Имя сохранено')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('ФИО')).toHaveValue('Анна Соколова');

  // An expired access token is refreshed behind the scenes.
  await page.evaluate(() => window.localStorage.setItem('access_token', 'expired-token'));
  await page.reload();
  await expect(page.getByLabel('ФИО')).toHaveValue('Анна Соколова');
  expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).not.toBe('expired-token');

  await page.getByRole('button', { name: 'Выйти' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const stored = await page.evaluate(() => ({
    access: window.localStorage.getItem('access_token'),
    refresh: window.localStorage.getItem('refresh_token'),
    phone: window.localStorage.getItem('phone'),
  }));
  expect(stored).toEqual({ access: null, refresh: null, phone: null });

  // The session is revoked on the server: the user area sends him back to /login.
  await page.goto('/user');
  await expect(page).toHaveURL(/\/login$/);
});

test('a code request refused by the cooldown is explained on the code screen', async ({ page }) => {
  const phone = uniquePhone();
  await page.goto('/login');
  await page.getByLabel('Введите номер телефона').fill(phone);
  await page.getByRole('button', { name: 'Далее' }).click();
  await expect(page).toHaveURL(/\/verifyuser$/);
  await page.getByRole('button', { name: /Изменить номер телефона/ }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Введите номер телефона').fill(phone);
  await page.getByRole('button', { name: 'Далее' }).click();
  await expect(page).toHaveURL(/\/verifyuser$/);
  // One timer: the wait is counted down in the countdown box, the error line does not repeat it.
  // This screen did not ask for the code (issue 32 item 6): it says so and offers no field that could only fail.
  await expect(page.getByRole('alert')).toHaveText(
    'Код на этот номер уже отправлен меньше минуты назад — в другом окне или на другом устройстве. Введите его там или запросите новый код здесь, когда закончится отсчёт.',
  );
  await expect(page.getByTestId('countdown')).toContainText(
    /⏳ Отправить код повторно можно через 0:[0-5]\d/,
  );
  await checkScreenTexts(page, 'verifyuser-cooldown');
});
