/**
 * The device's health and its conversation log.
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** The device's health (issue 10, part 5) as the administrator reads it. */
export const DEVICE_STATE_LABELS: Readonly<Record<string, string>> = {
  ok: 'в порядке',
  waiting: 'ожидает ответа',
  not_responding: 'не отвечает',
  wrong_password: 'неверный пароль',
  password_suspected: 'неверный пароль?',
  phone_elsewhere: 'номер занят',
};

/** What the administrator should check, per device state in trouble (docs/decisions/0025). */
export const DEVICE_STATE_HINTS: Readonly<Record<string, string>> = {
  not_responding:
    'Устройство не отвечает на команды. Проверьте питание устройства, баланс и покрытие сети его сим-карты.',
  wrong_password:
    'Устройство ответило, что пароль неверный. Исправьте пароль устройства в настройках шлагбаума.' +
    ' Если на устройстве нажимали кнопку сброса, нажмите «Устройство сброшено к заводским настройкам» на экране проверки устройства.',
  password_suspected:
    'Устройство на связи, но не отвечает на команды с паролем: так устройство встречает неверный пароль. Проверьте пароль устройства в настройках шлагбаума.' +
    ' Если на устройстве нажимали кнопку сброса, нажмите «Устройство сброшено к заводским настройкам» на экране проверки устройства.',
  phone_elsewhere:
    'Устройство с этим номером уже подтвердило команды другого шлагбаума, поэтому команды этого шлагбаума не отправляются. Проверьте номер сим-карты устройства; если шлагбаум создан с ошибкой, удалите его и создайте с верным номером.',
};

/** The flag on the barrier list and the note beside a waiting phone, for a device in trouble only. */
export const DEVICE_PROBLEM_LABELS: Readonly<Record<string, string>> = {
  not_responding: 'Устройство не отвечает',
  wrong_password: 'Неверный пароль устройства',
  password_suspected: 'Возможно, неверный пароль устройства',
  phone_elsewhere: 'Номер устройства принадлежит другому шлагбауму',
};

/** The device conversation log ("Журнал устройства"). */
export const DEVICE_MESSAGE_DIRECTION_LABELS: Readonly<Record<string, string>> = {
  out: 'Отправлено устройству',
  in: 'Получено от устройства',
  notice: 'СМС администратору',
};

export const DEVICE_MESSAGE_OUTCOME_LABELS: Readonly<Record<string, string>> = {
  sent: 'отправлено',
  gateway_failed: 'шлюз не принял',
  confirmed: 'подтверждено',
  refused: 'неверный пароль',
  format_error: 'команда не понята',
  unrecognised: 'не распознано',
  late: 'поздний ответ',
  acknowledged: 'ответ получен, проверяется списком',
  power_failure: 'нет питания',
  power_restored: 'питание восстановлено',
  alarm: 'тревога',
  notice_sent: 'СМС отправлено',
  notice_over_limit: 'не отправлено: недельный лимит СМС израсходован',
  notice_daily_limit: 'не отправлено: достигнут предел СМС за сутки',
};

export const DEVICE_LOG_TEXTS = {
  /** 'Нет данных' as every empty list of spec.md (issue 41 item 1), then what to do next (issue 32 item 5). */
  empty:
    'Нет данных\nСообщений нет. Они появятся, когда сервер отправит устройству команду; с фильтром выберите «Все сообщения».',
  title: 'Журнал устройства',
  allOutcomes: 'Все сообщения',
  outcomeFilter: 'Результат',
  unrecognisedCount: (count: number) => `Нераспознанных ответов: ${count}`,
  loadFailed: 'Не удалось загрузить журнал устройства.',
  healthTitle: 'Состояние устройства',
  healthLoadFailed: 'Не удалось загрузить состояние устройства.',
  state: 'Состояние',
  lastReply: 'Последний ответ',
  noReply: 'ещё не было',
  waitingCommands: 'Команд в очереди',
  oldestAge: 'старейшая ждёт',
  failuresInRow: 'Неудач подряд',
  power: 'Питание',
  powerLost: (since: string) => `нет питания с ${since}`,
  powerRestored: (at: string) => `питание восстановлено в ${at}`,
  /** Issue 41 major 4: the health of a unit without power, on every screen (displayed-health.ts). */
  powerLostState: 'нет питания',
  powerLostFlag: 'Нет питания',
  powerLostHint:
    'Устройство сообщило, что пропало питание: пока его нет, шлагбаум не открывается по звонку и номера на устройство не записываются. Проверьте питание устройства.',
  alarmsToday: 'Тревог за сутки',
  gatewayNumber: 'Номер шлюза в ячейке 1',
  gatewayNumberHint: 'На этот номер устройство присылает сообщения о пропаже питания и тревоги.',
  commandKind: 'Команда',
  commandKindOther: 'другая',
  gatewayId: 'Номер сообщения в шлюзе',
} as const;

/** Command kinds as the log names them. */
export const DEVICE_COMMAND_KIND_LABELS: Readonly<Record<string, string>> = {
  add: 'добавление номера',
  add_window: 'добавление номера с окном',
  delete: 'удаление номера',
  set_clock: 'установка часов',
  setting: 'настройка',
  // Issue 32 item 5: every kind the queue holds reads in Russian («Команда: read #17» was a raw kind and id).
  read: 'чтение номеров',
  password_probe: 'проверка пароля',
  relay_open: 'открытие шлагбаума',
  relay_open_off: 'выключение реле после открытия',
  relay_hold: 'экстренное открытие',
  relay_release: 'завершение экстренного открытия',
};
