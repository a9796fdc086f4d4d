/**
 * The change history of a barrier (spec.md section 3).
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** spec.md section 3, action types of the change history. */
export const ACTION_TYPE_LABELS: Readonly<Record<string, string>> = {
  add_phone: 'Добавление номера',
  delete_phone: 'Удаление номера',
  update_phone: 'Обновление номера',
  barrier_setting: 'Настройка шлагбаума',
};

/** History of settings that are not device commands (device checks), by the `setting` of the action. */
export const CHECK_SETTING_LABELS: Readonly<Record<string, string>> = {
  device_check: 'Проверка устройства',
  device_audit: 'Проверка по расписанию',
  device_audit_check: 'Проверка устройства по расписанию',
  device_repair: 'Исправление устройства',
  device_audit_repair: 'Исправление после проверки',
  alarm_layout: 'Номер шлюза в ячейку 1 для сообщений о питании',
  device_factory_reset: 'Устройство сброшено к заводским настройкам',
  gate_open: 'Открытие шлагбаума',
  emergency_hold: 'Экстренное открытие',
  emergency_hold_end: 'Завершение экстренного открытия',
};

/** Staff changes in a barrier's history (`barrier_setting` actions whose setting is one of these). */
export const STAFF_CHANGE_LABELS: Readonly<Record<string, string>> = {
  staff_added: 'Добавлен администратор',
  staff_role: 'Изменена роль администратора',
  staff_removed: 'Удалён администратор',
};

/** spec.md section 3, action reasons; an unknown reason is shown raw, a missing one as '-'. */
export const ACTION_REASON_LABELS: Readonly<Record<string, string>> = {
  manual: 'Ручное изменение',
  barrier_exit: 'Выход из шлагбаума',
  access_granted: 'Выдан доступ',
  primary_phone_change: 'Смена основного номера',
  schedule_update: 'Обновление расписания',
  end_time: 'Окончание доступа',
  barrier_deleted: 'Удаление шлагбаума',
  user_deleted: 'Удаление пользователя',
  guest_pass: 'Гостевой пропуск',
  // Issue 29 item 2 (docs/decisions/0023).
  primary_taken: 'Номер стал основным номером его владельца',
};

/** Error and success texts (spec.md section 8). */
export const HISTORY_MESSAGES = {
  /** The spec's 'Нет данных' (issue 41 item 1), then what to do next on its own line (issue 32 item 5). */
  empty: 'Нет данных\nИзменений не найдено. Выберите другой период или другой тип действия.',
  historyLoadFailed: 'Ошибка при загрузке истории.',
  historyNetwork: 'Ошибка сети.',
  historyDetailFailed: 'Не удалось загрузить детали действия.',
  historyDetailNetwork: 'Ошибка сети при получении деталей.',
  reversedRange: 'Дата начала позже даты конца.',
} as const;
