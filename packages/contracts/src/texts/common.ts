/**
 * Lines every area shows: loading and network failures, empty lists, missing names.
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

export const NAME_FALLBACK = 'Без имени';

export const PHONE_FALLBACK = '-';

/** Validation messages (spec.md section 5). */
export const COMMON_VALIDATION = {
  nameRequired: 'Введите имя.',
} as const;

/** Error and success texts (spec.md section 8). */
export const COMMON_MESSAGES = {
  network: 'Ошибка сети',
  loadFailed: 'Ошибка загрузки данных',
  /** Issue 41: a failed read offers another try beside its error line. */
  retry: 'Повторить',
  updateFailed: 'Ошибка при обновлении',
  barrierNotFound: 'Шлагбаум не найден',
} as const;
