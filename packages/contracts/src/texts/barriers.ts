/**
 * Barriers: the resident's barrier, the administrator's forms and limits.
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** The seven barrier limits (spec.md section 3) as the screens name them. */
export const LIMIT_LABELS: Readonly<Record<string, string>> = {
  user_phone_limit: 'Номеров на пользователя',
  user_temp_phone_limit: 'Временных номеров на пользователя',
  global_temp_phone_limit: 'Временных номеров на шлагбаум',
  user_schedule_phone_limit: 'Номеров по расписанию на пользователя',
  global_schedule_phone_limit: 'Номеров по расписанию на шлагбаум',
  schedule_interval_limit: 'Минимальный интервал расписания, минут',
  sms_weekly_limit: 'СМС в неделю',
};

export const NO_LIMIT_LABEL = 'Без ограничений';

/** Validation messages (spec.md section 5). */
export const BARRIER_VALIDATION = {
  address: 'Укажите корректный адрес.',
  devicePasswordCreate: 'Пароль должен состоять из 4 цифр.',
  devicePasswordSettings: 'Пароль устройства должен содержать ровно 4 цифры',
  devicePhone: 'Неверный формат номера.',
  devicePhonesAmount: 'Укажите число от 1 до 10000.',
} as const;

/** Error and success texts (spec.md section 8). */
export const BARRIER_MESSAGES = {
  /**
   * The spec's 'Нет данных' and 'Нет результатов' (issue 41 item 1), then what to do next on its own line
   * (issue 32 item 5).
   */
  emptyAdminBarriers: 'Нет данных\nШлагбаумов пока нет. Добавьте первый кнопкой «Создать шлагбаум».',
  emptySearch:
    'Нет результатов\nПо этому адресу шлагбаумов не нашлось. Проверьте адрес или попросите администратора шлагбаума пригласить вас по номеру телефона.',
  /** Issue 41 major 5: «Мои шлагбаумы» of a new resident, nothing typed: what to do next. */
  noBarriersYet: 'У вас пока нет шлагбаумов.',
  firstSteps:
    'Найдите свой шлагбаум по адресу и отправьте заявку администратору. Или дождитесь приглашения: оно появится в разделе «Заявки».',
  findBarrier: 'Найти шлагбаум',
  /** The public list with nothing typed and nothing public. */
  noPublicBarriers:
    'Открытых для поиска шлагбаумов пока нет. Попросите администратора шлагбаума пригласить вас по номеру телефона.',
  /** Issue 41 major 2: a barrier his administrator closed to him by a block. */
  closedByAdmin: 'Администратор закрыл вам доступ к этому шлагбауму.',
  closedReason: 'Причина:',
  closedAsk: 'Чтобы узнать подробности, свяжитесь с администратором.',
  callAdministrator: 'Позвонить администратору',
  administratorPhoneHidden: 'Администратор скрыл свой номер телефона.',
  accessCheckFailed: 'Ошибка при проверке доступа.',
  barrierCreateFailed: 'Ошибка при создании.',
  barrierCreateNetwork: 'Ошибка сети.',
  barrierCreated: 'Шлагбаум успешно создан.',
  barrierDeleteFailed: 'Не удалось удалить шлагбаум',
  barrierLeft: 'Вы успешно вышли из шлагбаума.',
  barrierUpdated: 'Шлагбаум успешно обновлён.',
  leaveFailed: 'Не удалось выйти из шлагбаума',
  limitsLoadFailed: 'Ошибка загрузки лимитов',
  limitsUpdateFailed: 'Ошибка при обновлении лимитов',
  limitsUpdated: 'Лимиты успешно обновлены.',
} as const;
