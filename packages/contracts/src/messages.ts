/**
 * Russian texts shown to people, exactly as spec.md writes them, shared by the web client's user and
 * administrator areas. The server answers in English (DESIGN.md section 2); the client translates the texts
 * listed in SERVER_TEXT_TRANSLATIONS and shows any other server text as given.
 */

/** spec.md section 8, "Server text translations" and the access-request one. */
export const SERVER_TEXT_TRANSLATIONS: Readonly<Record<string, string>> = {
  'A check of this device is already reading it.': 'Проверка устройства уже идёт.',
  'There is no finished check to repair from.':
    'Нет завершённой проверки, по которой можно исправить устройство.',
  'Verification code was already sent. Try again later.': 'Код уже был отправлен. Попробуйте позже.',
  'Invalid verification code.': 'Неверный код подтверждения.',
  'Phone number is already in use.': 'Этот номер уже используется.',
  'This user already has access to the barrier.': 'У вас уже есть доступ к шлагбауму.',
  'Outcome must be one of: sent, gateway_failed, confirmed, refused, unrecognised.':
    'Результат должен быть одним из: отправлено, шлюз не принял, подтверждено, неверный пароль, не распознано.',
};

/** Appended when a response carries `retry_after`. */
export const retryAfterHint = (seconds: number) => `Повторите через ${seconds} секунд.`;

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
  gate_open: 'Открытие шлагбаума',
  emergency_hold: 'Экстренное открытие',
  emergency_hold_end: 'Завершение экстренного открытия',
};

/** A barrier's staff roles (issues 14 and 16), as screens name them. */
export const STAFF_ROLE_LABELS: Readonly<Record<string, string>> = {
  owner: 'Владелец',
  manager: 'Управляющий',
  operator: 'Оператор',
  dispatcher: 'Диспетчер',
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

export const ACCESS_REQUEST_STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'Ожидает',
  accepted: 'Принята',
  rejected: 'Отклонена',
  cancelled: 'Отменена',
};

export const ROLE_LABELS: Readonly<Record<string, string>> = {
  user: 'Пользователь',
  admin: 'Администратор',
};

export const PHONE_PRIVACY_LABELS: Readonly<Record<string, string>> = {
  public: 'Виден всем',
  protected: 'Виден пользователям моих шлагбаумов',
  private: 'Скрыт от всех',
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

export const NAME_FALLBACK = 'Без имени';
export const PHONE_FALLBACK = '-';

/** Validation messages of spec.md section 5. */
export const VALIDATION = {
  code: 'Код должен содержать 6 цифр.',
  adminPasswordEmpty: 'Пароль не должен быть пустым.',
  // spec.md says 6; issue 29 part 9 raised the rule to 12 (docs/decisions/0024).
  newPasswordTooShort: 'Пароль должен содержать минимум 12 символов.',
  newPasswordsMismatch: 'Новые пароли не совпадают.',
  newPhone: 'Введите корректный номер телефона в формате +7XXXXXXXXXX.',
  /** Not in spec.md (its login field just does nothing): issue 12 item 11. */
  phoneIncomplete: 'Введите номер полностью: +7 и 10 цифр',
  phoneNameAndNumberRequired: 'Введите имя и номер телефона.',
  phoneFormat: 'Номер телефона должен быть в формате +7XXXXXXXXXX.',
  temporaryRequired: 'Укажите время начала и конца.',
  temporaryOrder: 'Время начала должно быть раньше времени конца.',
  scheduleInvalid: 'Есть интервалы в расписании с некорректным временем.',
  intervalInvalid: 'Неверный интервал.',
  nameRequired: 'Введите имя.',
  devicePasswordSettings: 'Пароль устройства должен содержать ровно 4 цифры',
  devicePasswordCreate: 'Пароль должен состоять из 4 цифр.',
  address: 'Укажите корректный адрес.',
  devicePhone: 'Неверный формат номера.',
  devicePhonesAmount: 'Укажите число от 1 до 10000.',
  blockReason: 'Укажите причину блокировки.',
} as const;

/** Error and success texts of spec.md section 8. */
export const MESSAGES = {
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
  requestSent: 'Запрос успешно отправлен.',
  /** A barrier card while the user's own request waits (issue 12). */
  requestPending: 'Заявка отправлена, ждёт решения',
  /** A barrier card while an invitation to it waits for the user's answer. */
  invitationPending: 'Вас пригласили: ответьте в разделе «Заявки»',
  invitedBy: (name: string) => `Пригласил: ${name}`,
  pendingRequestsCount: (count: number) => `Ожидают решения: ${count}`,
  reversedRange: 'Дата начала позже даты конца.',
  requestFailed: 'Ошибка при отправке запроса',
  network: 'Ошибка сети',
  loadFailed: 'Ошибка загрузки данных',
  barrierNotFound: 'Шлагбаум не найден',
  userLoadFailed: 'Не удалось получить пользователя',
  passwordVerificationFailed: 'Ошибка верификации пароля.',
  serverUnreachable: 'Не удалось связаться с сервером.',
  adminLoginFailed: 'Ошибка входа',
  passwordResetFailed: 'Ошибка сброса пароля',
  newPhoneCodeInvalid: 'Код для нового номера неверный',
  phoneChangeFailed: 'Не удалось изменить номер телефона',
  codeSendError: 'Ошибка отправки кода',
  passwordChangeFailed: 'Ошибка при смене пароля',
  phoneDeleteFailed: 'Ошибка удаления номера',
  leaveFailed: 'Не удалось выйти из шлагбаума',
  phoneSaveFailed: 'Ошибка при сохранении номера.',
  limitsLoadFailed: 'Ошибка загрузки лимитов',
  limitsUpdateFailed: 'Ошибка при обновлении лимитов',
  barrierDeleteFailed: 'Не удалось удалить шлагбаум',
  updateFailed: 'Ошибка при обновлении',
  userNotFound: 'Пользователь не найден',
  blockFailed: 'Ошибка блокировки.',
  unblockFailed: 'Ошибка разблокировки',
  inviteFailed: 'Ошибка отправки заявки',
  userDeleteFailed: 'Ошибка удаления пользователя.',
  codeConfirmFailed: 'Ошибка подтверждения кода',
  accountDeleteFailed: 'Ошибка удаления аккаунта',
  accessCheckFailed: 'Ошибка при проверке доступа.',
  phoneChanged: 'Номер телефона успешно обновлён!',
  passwordChanged: 'Пароль успешно изменён',
  /** Issue 29 part 9: an administrator whose password no longer meets the rule. */
  passwordChangeRequired:
    'Ваш пароль слишком короткий или легко угадывается. Задайте новый пароль (не короче 12 символов), чтобы продолжить работу.',
  barrierLeft: 'Вы успешно вышли из шлагбаума.',
  barrierUpdated: 'Шлагбаум успешно обновлён.',
  limitsUpdated: 'Лимиты успешно обновлены.',
  inviteSent: 'Заявка отправлена успешно',
  accountDeleted: 'Профиль успешно удалён.',
  emptyResults: 'Нет результатов',
  emptyData: 'Нет данных',
  emptyUsers: 'Нет пользователей',
  emptyPhones: 'Нет номеров',
  emptyExtraPhones: 'Нет дополнительных номеров',
  allRequestsLoaded: 'Все заявки загружены',
  barrierCreateFailed: 'Ошибка при создании.',
  barrierCreateNetwork: 'Ошибка сети.',
  barrierCreated: 'Шлагбаум успешно создан.',
  settingsLoadFailed: 'Ошибка при загрузке настроек',
  settingSendFailed: 'Ошибка при отправке настройки.',
  settingSendNetwork: 'Ошибка сети при отправке настройки.',
  // issue 12: sending only queues the SMS; success is the device's answer, shown when it comes.
  settingSent: (setting: string) => `Настройка '${setting}': отправлено, ждём ответа устройства.`,
  settingConfirmed: (setting: string) => `Настройка '${setting}': подтверждено устройством.`,
  settingFailed: (setting: string, reason: string) => `Настройка '${setting}' не выполнена: ${reason}.`,
  historyLoadFailed: 'Ошибка при загрузке истории.',
  historyNetwork: 'Ошибка сети.',
  historyDetailFailed: 'Не удалось загрузить детали действия.',
  historyDetailNetwork: 'Ошибка сети при получении деталей.',
} as const;

/** Why a sent setting was not done (`SettingCommandFailure` of contracts/settings). */
export const SETTING_FAILURE_LABELS: Readonly<Record<string, string>> = {
  no_reply: 'устройство не ответило',
  wrong_password: 'устройство не приняло пароль',
  not_understood: 'устройство не поняло команду',
  not_sent: 'команда не была отправлена',
};

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

/** The device's health (issue 10, part 5) as the administrator reads it. */
export const DEVICE_STATE_LABELS: Readonly<Record<string, string>> = {
  ok: 'в порядке',
  waiting: 'ожидает ответа',
  not_responding: 'не отвечает',
  wrong_password: 'неверный пароль',
  password_suspected: 'неверный пароль?',
};

/** What the administrator should check, per device state in trouble (docs/decisions/0025). */
export const DEVICE_STATE_HINTS: Readonly<Record<string, string>> = {
  not_responding:
    'Устройство не отвечает на команды. Проверьте питание устройства, баланс и покрытие сети его сим-карты.',
  wrong_password:
    'Устройство ответило, что пароль неверный. Исправьте пароль устройства в настройках шлагбаума.',
  password_suspected:
    'Устройство на связи, но не отвечает на команды с паролем: так устройство встречает неверный пароль. Проверьте пароль устройства в настройках шлагбаума.',
};

/** The flag on the barrier list and the note beside a waiting phone, for a device in trouble only. */
export const DEVICE_PROBLEM_LABELS: Readonly<Record<string, string>> = {
  not_responding: 'Устройство не отвечает',
  wrong_password: 'Неверный пароль устройства',
  password_suspected: 'Возможно, неверный пароль устройства',
};

/** The device conversation log ("Журнал устройства"). */
export const DEVICE_MESSAGE_DIRECTION_LABELS: Readonly<Record<string, string>> = {
  out: 'Отправлено устройству',
  in: 'Получено от устройства',
};

export const DEVICE_MESSAGE_OUTCOME_LABELS: Readonly<Record<string, string>> = {
  sent: 'отправлено',
  gateway_failed: 'шлюз не принял',
  confirmed: 'подтверждено',
  refused: 'неверный пароль',
  format_error: 'команда не понята',
  unrecognised: 'не распознано',
  late: 'поздний ответ',
  power_failure: 'нет питания',
  power_restored: 'питание восстановлено',
  alarm: 'тревога',
};

export const DEVICE_LOG_TEXTS = {
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
  alarmsToday: 'Тревог за сутки',
  gatewayNumber: 'Номер шлюза в ячейке 1',
  gatewayNumberHint: 'На этот номер устройство присылает сообщения о пропаже питания и тревоги.',
  commandKind: 'Команда',
  gatewayId: 'Номер сообщения в шлюзе',
} as const;

/** Command kinds as the log names them. */
export const DEVICE_COMMAND_KIND_LABELS: Readonly<Record<string, string>> = {
  add: 'добавление номера',
  add_window: 'добавление номера с окном',
  delete: 'удаление номера',
  set_clock: 'установка часов',
  setting: 'настройка',
};

/** "Проверить устройство" and the device profile. */
export const DEVICE_CHECK_TEXTS = {
  title: 'Проверка устройства',
  panelTitle: 'Номера в устройстве',
  start: 'Проверить устройство',
  startFull: 'Проверить все ячейки',
  startHint:
    'Сервер прочитает номера из устройства и сравнит их с базой. Чтение занятых ячеек стоит 1 SMS на каждые 10 ячеек.',
  never: 'Устройство ещё не проверялось.',
  reading: (answered: number, total: number) => `Идёт чтение: получено ответов ${answered} из ${total}.`,
  ready: 'Проверка завершена.',
  repaired: 'Исправление отправлено на устройство.',
  cancelled: 'Проверка отменена.',
  failed: 'Проверка не удалась',
  failures: {
    no_reply: 'устройство не ответило.',
    refused: 'устройство не приняло пароль.',
    format_error: 'устройство не поняло команду.',
  } as Readonly<Record<string, string>>,
  inStep: 'Номера в устройстве совпадают с базой.',
  differences: 'Расхождения',
  slot: 'Ячейка',
  onDevice: 'В устройстве',
  expected: 'Должно быть',
  empty: 'пусто',
  noSlot: '—',
  actions: { remove: 'удалить', write: 'записать' } as Readonly<Record<string, string>>,
  repairCost: (sms: number) => `Исправление: ${sms} SMS (сначала удаления).`,
  repair: 'Исправить',
  confirmRepair: (sms: number) => `Отправить на устройство ${sms} SMS?`,
  confirm: 'Да, исправить',
  cancel: 'Отмена',
  startFailed: 'Не удалось начать проверку.',
  repairFailed: 'Не удалось исправить устройство.',
  loadFailed: 'Не удалось загрузить проверку устройства.',
  audit: 'Автоматическая проверка',
  auditHint:
    'Сервер сам читает номера из устройства и исправляет расхождения, если позволяет недельный лимит SMS.',
  auditOptions: [
    { value: 'off', label: 'Выключена' },
    { value: '1', label: 'Каждый день' },
    { value: '7', label: 'Раз в неделю' },
    { value: '30', label: 'Раз в 30 дней' },
  ],
  auditSaved: 'Автоматическая проверка сохранена.',
  auditFailed: 'Не удалось сохранить автоматическую проверку.',
  automatic: 'Проверка запущена автоматически.',
  profileTitle: 'Профиль устройства',
  profileHint:
    'Если устройство записывает номера или отвечает иначе, чем описано в руководстве, укажите это здесь — без изменения программы.',
  numberFormat: 'Формат номера в командах',
  documentedFormat: (format: string) => `По умолчанию для модели: ${format}`,
  repliesLabel: (kind: string) => `Дополнительные ответы устройства: ${kind}`,
  repliesHint: 'По одной форме в строке; вместо ячейки и номера — подстановки',
  documentedReplies: 'По руководству',
  replyKinds: {
    add: 'запись номера',
    delete: 'удаление номера',
  } as Readonly<Record<string, string>>,
  saveProfile: 'Сохранить профиль',
  profileSaved: 'Профиль устройства сохранён.',
  profileFailed: 'Не удалось сохранить профиль устройства.',
  profileLoadFailed: 'Не удалось загрузить профиль устройства.',
} as const;

/** Issue 16: opening the gate from the app and the emergency hold-open. */
export const RELAY_TEXTS = {
  open: 'Открыть',
  opening: 'Открывается…',
  opened: 'Открыто',
  openFailed: 'Не открылось',
  myOpenings: 'Мои открытия',
  openingsLog: 'Журнал открытий',
  noOpenings: 'Открытий пока нет.',
  openFailedFallback: 'Не удалось открыть шлагбаум.',
  loadFailed: 'Не удалось загрузить открытия.',
  emergency: 'Экстренное открытие',
  emergencyRule: 'Пункт 71 Правил противопожарного режима в РФ (ПП РФ № 1479)',
  emergencyLead:
    'Открывает выбранные шлагбаумы и удерживает их открытыми, пока вы не завершите. Команды уходят раньше всех остальных.',
  allBarriers: 'Все мои шлагбаумы',
  chooseBarriers: 'Выберите шлагбаумы',
  reason: 'Причина',
  reasonPlaceholder: 'Например: пожарная тревога, корпус 2',
  startHold: 'Открыть и удерживать',
  confirmHold: (count: string) =>
    `Открыть и удерживать открытыми ${count} по пункту 71 Правил противопожарного режима в РФ (ПП РФ № 1479)? Шлагбаумы будут открыты, пока вы не завершите.`,
  confirmYes: 'Да, открыть',
  endHold: 'Завершить',
  confirmEnd: 'Завершить экстренное открытие? Шлагбаумы закроются и вернутся к обычной работе.',
  confirmEndYes: 'Да, завершить',
  holdRunning: 'Экстренное открытие действует',
  holdEnded: 'Экстренное открытие завершено',
  startedBy: 'Начал',
  endedBy: 'Завершил',
  failedShout: 'Не подтверждено! Команда повторяется — если шлагбаум закрыт, откройте его вручную.',
  startFailed: 'Не удалось начать экстренное открытие.',
  endFailed: 'Не удалось завершить экстренное открытие.',
} as const;

export const OPENING_STATUS_LABELS: Readonly<Record<string, string>> = {
  sent: 'Отправлено',
  confirmed: 'Открыто',
  failed: 'Не открылось',
};

export const OPENING_FAILURE_LABELS: Readonly<Record<string, string>> = {
  expired: 'не отправлено вовремя',
  no_reply: 'устройство не ответило',
  wrong_password: 'неверный пароль устройства',
  not_understood: 'устройство не поняло команду',
  cancelled: 'отменено экстренным открытием',
  late: 'нажатие дошло с опозданием, не отправлено',
};

export const OPENING_VIA_LABELS: Readonly<Record<string, string>> = {
  app: 'из приложения',
  admin: 'администратором',
};

/** A barrier's state in an emergency hold, by phase. */
export const HOLD_STATE_LABELS: Readonly<Record<string, string>> = {
  'hold:sent': 'Отправлено',
  'hold:confirmed': 'Открыт, удерживается',
  'hold:failed': 'Ошибка',
  'end:sent': 'Закрывается',
  'end:confirmed': 'Закрыт, обычная работа',
  'end:failed': 'Не закрылся',
  refused: 'Не отправлено',
};

/** A phone without a network, a screen that cannot load, an error screen (issue 32 items 1 and 2). */
export const OFFLINE_TEXTS = {
  banner: 'Нет связи. Данные обновятся, когда связь вернётся.',
  noNetwork: 'Нет связи',
  openOffline: 'Нет связи: открыть из приложения нельзя. Позвоните на шлагбаум — он откроется по звонку.',
  openNetworkFailed:
    'Нет связи: команда не отправлена и не будет отправлена позже. Позвоните на шлагбаум — он откроется по звонку.',
  sendOffline: 'Нет связи: ничего не отправлено. Отправьте, когда связь вернётся.',
  callBarrier: 'Позвонить на шлагбаум',
  screenFailed: 'Экран не открылся',
  screenFailedText: 'Что-то пошло не так. Попробуйте ещё раз или вернитесь на главный экран.',
  chunkFailedText: 'Экран не загрузился: нет связи. Он откроется сам, когда связь вернётся.',
  notFoundTitle: 'Такой страницы нет',
  retry: 'Повторить',
  home: 'На главный экран',
} as const;

/** Widened access in force on a barrier, and the questions before widening it (issue 32 item 3). */
export const DANGER_TEXTS = {
  title: 'Внимание: шлагбаум открыт шире обычного',
  badges: {
    open_to_all: 'Открыт для всех',
    relay_always_on: 'Реле включено постоянно',
    emergency_hold: 'Экстренное открытие',
  },
  lines: {
    open_to_all: 'Шлагбаум открывается по звонку с любого номера — въехать может кто угодно.',
    relay_always_on: 'Реле не выключается само: шлагбаум стоит открытым до следующего звонка.',
    emergency_hold: 'Действует экстренное открытие: шлагбаум удерживается открытым.',
  },
  residentEnd: 'Вернуть обычную работу может администратор шлагбаума.',
  endOpenToAll: 'Вернуть доступ только по списку',
  endRelayAlwaysOn: 'Изменить время открытия',
  endHold: 'Завершить экстренное открытие',
  endFailed: 'Не удалось отправить настройку.',
  confirmOpenToAll:
    'Шлагбаум будет открываться по звонку с любого номера: въехать сможет кто угодно, пока вы не вернёте доступ только по списку. Открыть для всех?',
  confirmOpenToAllYes: 'Да, открыть для всех',
  confirmRelayAlwaysOn:
    'При времени 999 реле не выключается: шлагбаум будет стоять открытым до следующего звонка. Отправить?',
  confirmRelayAlwaysOnYes: 'Да, оставить открытым',
} as const;
