/**
 * Phones and their schedules (spec.md section 3).
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

export const PHONE_TYPE_LABELS: Readonly<Record<string, string>> = {
  primary: 'Основной',
  permanent: 'Постоянный',
  temporary: 'Временный',
  schedule: 'По расписанию',
};

export const PHONE_STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'Отправляется на шлагбаум',
  ok: 'Активен',
  error: 'Ошибка',
};

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;

export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_LABELS: Readonly<Record<Weekday, string>> = {
  monday: 'Понедельник',
  tuesday: 'Вторник',
  wednesday: 'Среда',
  thursday: 'Четверг',
  friday: 'Пятница',
  saturday: 'Суббота',
  sunday: 'Воскресенье',
};

/** Validation messages (spec.md section 5). */
export const PHONE_VALIDATION = {
  phoneNameAndNumberRequired: 'Введите имя и номер телефона.',
  // The spec's words (issue 41 item 1); the field's placeholder shows an example.
  phoneFormat: 'Номер телефона должен быть в формате +7XXXXXXXXXX.',
  temporaryRequired: 'Укажите время начала и конца.',
  temporaryOrder: 'Время начала должно быть раньше времени конца.',
  scheduleInvalid: 'Есть интервалы в расписании с некорректным временем.',
  intervalInvalid: 'Неверный интервал.',
} as const;

/** Error and success texts (spec.md section 8). */
export const PHONE_MESSAGES = {
  phoneDeleteFailed: 'Ошибка удаления номера',
  phoneSaveFailed: 'Ошибка при сохранении номера.',
  /** The spec's words (issue 41 item 1), then what to do next on its own line (issue 32 item 5). */
  emptyPhones: 'Нет номеров\nДобавьте номер кнопкой «Добавить номер».',
  emptyExtraPhones:
    'Нет дополнительных номеров\nНомер родственника или гостя добавьте кнопкой «Добавить номер».',
} as const;
