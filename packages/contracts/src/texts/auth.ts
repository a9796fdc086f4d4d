/**
 * The login, code and password-recovery screens (spec.md sections 5 and 8 "Login").
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** Validation messages (spec.md section 5). */
export const AUTH_VALIDATION = {
  code: 'Код должен содержать 6 цифр.',
  adminPasswordEmpty: 'Пароль не должен быть пустым.',
  /** Not in spec.md (its login field just does nothing): issue 12 item 11. */
  phoneIncomplete: 'Введите номер полностью: +7 и 10 цифр',
} as const;

/** Error and success texts (spec.md section 8). */
export const AUTH_MESSAGES = {
  networkPhoneStep: 'Ошибка сети. Попробуйте ещё раз.',
  codeSendFailed: 'Ошибка при отправке кода',
  codeServerUnreachable: 'Сервер недоступен. Попробуйте позже.',
  codeSendFailedForVerify: 'Ошибка при отправке кода. Попробуйте позже.',
  verificationFailed: 'Ошибка верификации',
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
