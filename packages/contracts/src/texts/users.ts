/**
 * The administrator's users of a barrier: search, invite, block, delete.
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** Validation messages (spec.md section 5). */
export const USER_VALIDATION = {
  blockReason: 'Укажите причину блокировки.',
} as const;

/** Error and success texts (spec.md section 8). */
export const USER_MESSAGES = {
  userNotFound: 'Пользователь не найден',
  userLoadFailed: 'Не удалось получить пользователя',
  userDeleteFailed: 'Ошибка удаления пользователя.',
  blockFailed: 'Ошибка блокировки.',
  unblockFailed: 'Ошибка разблокировки',
  inviteFailed: 'Ошибка отправки заявки',
  inviteSent: 'Заявка отправлена успешно',
  /** The spec's words (issue 41 item 1), then what to do next on its own line (issue 32 item 5). */
  emptyUsers: 'Нет пользователей\nИзмените поиск или пригласите жителя по номеру телефона.',
  /** «Заблокированные» (issue 41 major 3). */
  blockedTitle: 'Заблокированные',
  blockedHint:
    'Блокировка закрывает человеку все ваши шлагбаумы. Разблокировка доступ не возвращает: пригласите его снова.',
  emptyBlocked: 'Заблокированных нет.',
  unblock: 'Разблокировать',
  unblockConfirm:
    'Разблокировать? Доступ не вернётся сам: после разблокировки человека можно пригласить снова.',
  unblocked: (name: string) => `${name} разблокирован. Чтобы вернуть доступ, пригласите его снова.`,
  blockedReason: 'Причина:',
  blockedAt: 'Заблокирован:',
} as const;
