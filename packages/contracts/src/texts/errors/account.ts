/**
 * Errors of the own account (number and password change, deletion), the administrator's password reset, the
 * guest link's codes and the gateway's webhook: shown past the sign-in screens, so apart from auth.ts, out of
 * the login's budget. Russian texts by error code (error-codes.ts); the whole catalogue is error-texts.ts.
 */
import type { ErrorCodeTexts } from './rules.ts';

export const ACCOUNT_ERROR_TEXTS = {
  not_own_phone: 'Этот номер не принадлежит вашему аккаунту.',
  phone_in_use: 'Этот номер уже используется.',
  // The spec's client shows the detail as it is, so the server's detail is this very text: it says whom to ask,
  // never a command (issue 29 part 11, issue 40 item 9); profile.test.ts holds the two equal.
  admin_password_reset_cli:
    'Пароль администратора нельзя сбросить по СМС. Попросите оператора сервера задать вам новый пароль.',
  webhook_replayed: 'Этот подписанный запрос уже был принят.',
  guest_pass_code_limit:
    'По этой гостевой ссылке сегодня отправлено слишком много кодов. Попросите у жителя новую ссылку или попробуйте завтра.',
  guest_pass_resident_code_limit:
    'По гостевым ссылкам этого жителя сегодня отправлено слишком много кодов. Попробуйте завтра.',

  same_phone: 'Новый номер совпадает с текущим.',
  phone_on_own_barrier: 'Новый номер уже записан на одном из ваших шлагбаумов.',
  wrong_old_password: 'Старый пароль неверен.',
  owns_barriers: 'Сначала удалите свои шлагбаумы, затем аккаунт.',
} satisfies ErrorCodeTexts;
