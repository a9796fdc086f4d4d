/**
 * Errors of the sign-in screens (/login, /verifyuser): codes, the password step, the privacy policy at the first
 * login. The login's entry carries this group (apps/web/src/lib/errors.ts); the own account's errors are
 * account.ts, loaded with every screen past the login.
 * Russian texts by error code (error-codes.ts); the whole catalogue is error-texts.ts.
 */
import { type ErrorCodeTexts, exact, type FieldRule } from './rules.ts';

export const AUTH_ERROR_TEXTS = {
  code_already_sent: 'Код уже был отправлен. Попробуйте позже.',
  invalid_code: 'Неверный код подтверждения.',
  code_attempts_exhausted: 'Слишком много неверных попыток для этого кода. Запросите новый код.',
  too_many_failures: 'Слишком много неудачных попыток. Попробуйте позже.',
  daily_code_limit: 'На этот номер за сутки отправлено слишком много кодов. Попробуйте завтра.',
  sms_budget_exhausted: 'Сервис временно не может отправить код. Попробуйте позже.',
  verification_token_invalid: 'Код подтверждения недействителен. Запросите новый код.',
  verification_expired: 'Срок действия кода истёк. Запросите новый код.',
  verification_not_verified: 'Код ещё не подтверждён.',
  verification_token_used: 'Этот код уже использован. Запросите новый код.',
  user_not_found: 'Пользователь не найден.',
  user_blocked: 'Пользователь заблокирован.',
  admin_only: 'Это действие доступно только администраторам.',
  password_required: 'Сначала подтвердите пароль.',
  invalid_credentials: 'Неверный номер телефона или пароль.',
  refresh_invalid: 'Сессия истекла. Войдите снова.',
  refresh_reused: 'Сессия завершена из соображений безопасности. Войдите снова.',
  sms_failed: 'Не удалось отправить код подтверждения. Попробуйте позже.',
  // Abuse bounds (issue 29, docs/decisions/0024).
  phone_prefix_not_allowed: (body) => {
    const prefixes = Array.isArray(body.allowed_prefixes) ? body.allowed_prefixes.join(', ') : '+79';
    return `Коды отправляются только на номера, которые начинаются с ${prefixes}.`;
  },
  password_too_weak:
    'Этот пароль слишком распространён или легко угадывается. Придумайте длиннее, из нескольких не связанных слов.',
  password_change_required: 'Ваш пароль больше не отвечает требованиям. Сначала задайте новый пароль.',

  // The privacy policy and consent (152-ФЗ, issue 28 part 6).
  policy_version_outdated:
    'Политика обработки персональных данных изменилась. Прочитайте новую версию и подтвердите согласие.',
} satisfies ErrorCodeTexts;

export const AUTH_FIELD_RULES: readonly FieldRule[] = [
  // The privacy policy and «Мои данные» (issue 28 part 6).
  exact('Policy version must be a string.', 'Неверная версия политики.'),
  exact('Policy version is not valid.', 'Неверная версия политики.'),
  exact('Format must be json or csv.', 'Неизвестный формат файла.'),
];
