/**
 * The login, code and password-recovery screens (spec.md sections 5 and 8 "Login").
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** Validation messages (spec.md section 5). */
export const AUTH_VALIDATION = {
  code: 'Код должен содержать 6 цифр.',
  adminPasswordEmpty: 'Пароль не должен быть пустым.',
  /**
   * Not in spec.md for this field (its login field just does nothing): issue 12 item 11. Issue 41 item 1: the
   * spec's own format message (the field's placeholder shows an example).
   */
  phoneIncomplete: 'Номер телефона должен быть в формате +7XXXXXXXXXX.',
} as const;

/** Error and success texts (spec.md section 8). */
export const AUTH_MESSAGES = {
  networkPhoneStep: 'Ошибка сети. Попробуйте ещё раз.',
  codeSendFailed: 'Ошибка при отправке кода',
  codeServerUnreachable: 'Сервер недоступен. Попробуйте позже.',
  codeSendFailedForVerify: 'Ошибка при отправке кода. Попробуйте позже.',
  verificationFailed: 'Ошибка верификации',
  /**
   * The code screen opened without a code of its own (issue 32 item 6): a code went to this number less than a
   * minute ago, from another window or device, and only that window can take it.
   */
  codeSentElsewhere:
    'Код на этот номер уже отправлен меньше минуты назад — в другом окне или на другом устройстве. Введите его там или запросите новый код здесь, когда закончится отсчёт.',
  noCodeYet: 'Для этого окна код ещё не отправлен: запросите его кнопкой ниже.',
  loginFailed: 'Ошибка при входе',
  verificationNetwork: 'Не удалось связаться с сервером',
  resendBlocked: 'Пользователь заблокирован.',
  resendUserNotFound: 'Пользователь не найден.',
  resendRateLimited: 'Превышен лимит. Попробуйте позже.',
  resendFailed: 'Ошибка при повторной отправке кода.',
  resendNetwork: 'Не удалось повторно связаться с сервером',
  passwordVerificationFailed: 'Ошибка верификации пароля.',
  serverUnreachable: 'Не удалось связаться с сервером.',
  adminLoginFailed: 'Ошибка входа',
  passwordResetFailed: 'Ошибка сброса пароля',
  codeSendError: 'Ошибка отправки кода',
  codeConfirmFailed: 'Ошибка подтверждения кода',
} as const;

/** «попытка» after a number: 1 попытка, 2–4 попытки, 5–20 попыток, 21 попытка… */
function triesWord(count: number): string {
  const lastTwo = count % 100;
  const last = count % 10;
  if (lastTwo >= 11 && lastTwo <= 14) return 'попыток';
  if (last === 1) return 'попытка';
  if (last >= 2 && last <= 4) return 'попытки';
  return 'попыток';
}

/** After a wrong code: how many tries the code has left (the server's `attempts_left`, issue 32 item 6). */
export function attemptsLeftText(count: number): string {
  if (count <= 0) return 'Попыток для этого кода больше нет: запросите новый код.';
  const word = triesWord(count);
  return `${word === 'попытка' ? 'Осталась' : 'Осталось'} ${count} ${word}.`;
}

/** «Забыли пароль?» of an administrator (/restoresms): no SMS reset, the operator sets a new one (decision 0012 B). */
export const ADMIN_PASSWORD_RESET_TEXTS = {
  explanation:
    'Пароль администратора не восстанавливается по СМС. Обратитесь к оператору сервера «Пропуска»: он задаст вам новый пароль, а вы смените его после входа.',
  why: 'Так сделано для защиты: иначе тот, кто завладеет вашим номером телефона, получил бы доступ ко всем вашим шлагбаумам.',
  backToLogin: 'Вернуться ко входу',
} as const;
