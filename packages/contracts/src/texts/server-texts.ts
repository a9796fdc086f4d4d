/**
 * Server texts the client translates (spec.md section 8, "Server text translations").
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** spec.md section 8, "Server text translations" and the access-request one. */
export const SERVER_TEXT_TRANSLATIONS: Readonly<Record<string, string>> = {
  'A check of this device is already reading it.': 'Проверка устройства уже идёт.',
  'There is no finished check to repair from.':
    'Нет завершённой проверки, по которой можно исправить устройство.',
  'Verification code was already sent. Try again later.': 'Код уже был отправлен. Попробуйте позже.',
  'Invalid verification code.': 'Неверный код подтверждения.',
  'Phone number is already in use.': 'Этот номер уже используется.',
  'This user already has access to the barrier.': 'У вас уже есть доступ к шлагбауму.',
  'Outcome must be one of: sent, gateway_failed, confirmed, refused, unrecognised.':
    'Результат должен быть одним из: отправлено, шлюз не принял, подтверждено, неверный пароль, не распознано.',
};

/** Appended when a response carries `retry_after`. */
export const retryAfterHint = (seconds: number) => `Повторите через ${seconds} секунд.`;
