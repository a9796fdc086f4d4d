/**
 * An administrator's new password (spec.md sections 5 and 8).
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** Validation messages (spec.md section 5). */
export const PASSWORD_VALIDATION = {
  // spec.md says 6; issue 29 part 9 raised the rule to 12 (docs/decisions/0024).
  newPasswordTooShort: 'Пароль должен содержать минимум 12 символов.',
  newPasswordsMismatch: 'Новые пароли не совпадают.',
} as const;

/** Error and success texts (spec.md section 8). */
export const PASSWORD_MESSAGES = {
  passwordChangeFailed: 'Ошибка при смене пароля',
  passwordChanged: 'Пароль успешно изменён',
  /** Issue 29 part 9: an administrator whose password no longer meets the rule. */
  passwordChangeRequired:
    'Ваш пароль слишком короткий или легко угадывается. Задайте новый пароль (не короче 12 символов), чтобы продолжить работу.',
} as const;
