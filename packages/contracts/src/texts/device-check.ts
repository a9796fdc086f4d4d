/**
 * «Проверить устройство» and the device profile.
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** "Проверить устройство" and the device profile. */
/** «Проверить устройство»: the move to the alarm layout (issue 30 item 5). */
export const ALARM_LAYOUT_TEXTS = {
  title: 'Сообщения о питании',
  explain:
    'Устройство присылает сообщение о пропаже питания только на номер в ячейке 1, а тревоги — на ячейки 1–6. Чтобы сервер их получал, в ячейку 1 записывается номер шлюза, а жители переносятся из ячеек 1–6.',
  gateway: (number: string) => `Номер шлюза в ячейку 1: ${number}`,
  moves: (count: number) => `Перенести жителей из ячеек 1–6: ${count}`,
  move: (from: number, to: number) => `ячейка ${from} → ${to}`,
  staying: (slots: string) => `Нет места, останутся в ячейках: ${slots}`,
  sms: (count: number) => `СМС для переноса: ${count}`,
  apply: 'Перенести',
  confirm: 'Подтвердить перенос',
  cancel: 'Отмена',
  done: 'Номер шлюза записан в ячейку 1.',
  queued: (count: number) => `Перенос отправлен на устройство, СМС: ${count}.`,
  applyFailed: 'Не удалось выполнить перенос.',
  // Issue 32 item 6: the configured gateway number changed after the move.
  rewriteExplain: (held: string, gateway: string) =>
    `Номер шлюза изменился: в ячейке 1 устройства записан ${held}, а сервер теперь получает СМС на ${gateway}. Пока ячейка 1 не перезаписана, сообщения о питании уходят на старый номер.`,
  rewriteSms: (count: number) => `СМС для перезаписи ячейки 1: ${count}`,
  rewrite: 'Перезаписать ячейку 1',
  rewriteConfirm: 'Подтвердить перезапись',
  rewriteQueued: (count: number) => `Новый номер шлюза отправлен на устройство, СМС: ${count}.`,
  // The deployment has no gateway number any more: slot 1 still holds the old one, which can open the gate.
  clearExplain: (held: string) =>
    `Номер шлюза больше не задан на сервере, а в ячейке 1 устройства остался ${held}. Этот номер по-прежнему открывает шлагбаум — удалите его из устройства.`,
  clearSms: (count: number) => `СМС для очистки ячейки 1: ${count}`,
  clear: 'Удалить номер из ячейки 1',
  clearConfirm: 'Подтвердить удаление',
  clearQueued: (count: number) => `Удаление номера шлюза отправлено на устройство, СМС: ${count}.`,
  loadFailed: 'Не удалось загрузить план переноса.',
} as const;

export const DEVICE_CHECK_TEXTS = {
  title: 'Проверка устройства',
  // Issue 30 item 4: the administrator declares that the unit's reset button was pressed.
  factoryResetTitle: 'Сброс устройства',
  factoryResetHint:
    'Если на устройстве нажали кнопку сброса, оно отвечает только на заводской пароль и не слышит команды сервера.',
  factoryReset: 'Устройство сброшено к заводским настройкам',
  factoryResetConfirm: (model: string, factoryPassword: string) =>
    `Сервер будет писать устройству заводским паролем (у ${model} — ${factoryPassword}), вернёт в устройство пароль, сохранённый на сервере, прочитает номера и исправит расхождения. Это займёт несколько СМС. Если устройство не сбрасывали, оно не примет эти команды. Продолжить?`,
  // A model whose factory password no source gives: the server cannot speak it (device_factory_password_unknown).
  factoryResetUnknown:
    'Заводской пароль этой модели неизвестен. Если устройство сбросили, узнайте его пароль, введите его в настройках шлагбаума и нажмите «Проверить устройство».',
  factoryResetConfirmLabel: 'Да, устройство сброшено',
  factoryResetDone: 'Пароль возвращается в устройство, номера читаются — ход проверки ниже.',
  factoryResetFailed: 'Не удалось отправить команды после сброса.',
  panelTitle: 'Номера в устройстве',
  start: 'Проверить устройство',
  startFull: 'Проверить все ячейки',
  startHint:
    'Сервер прочитает номера из устройства и сравнит их с базой. Чтение занятых ячеек стоит 1 СМС на каждые 10 ячеек.',
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
  /** Issue 41: a check that read part of the unit says which part, and how to read the rest. */
  inStepRange: (to: number) => `Ячейки 1–${to} совпадают с базой.`,
  notRead: (from: number, to: number) =>
    `Ячейки ${from}–${to} не читались: номер, записанный туда вручную, эта проверка не видит. Чтобы прочитать всё устройство, нажмите «Проверить все ячейки».`,
  differences: 'Расхождения',
  slot: 'Ячейка',
  onDevice: 'В устройстве',
  expected: 'Должно быть',
  empty: 'пусто',
  /** A slot whose content the unit reported is not a phone number: its raw text follows under «Ответ устройства». */
  notANumber: 'не номер телефона',
  noSlot: '—',
  actions: { remove: 'удалить', write: 'записать' } as Readonly<Record<string, string>>,
  repairCost: (sms: number) => `Исправление: ${sms} СМС.`,
  /** The repair's SMS per kind (issue 32 item 5): numbers apart from the clock and settings. */
  repairNumbersCost: (sms: number) => `Номера: ${sms} СМС (сначала удаления).`,
  repairClockCost: (sms: number) => `Часы и настройки: ${sms} СМС.`,
  /**
   * Numbers in step, yet the plan sends something: the clock or a setting (issue 32 item 5), not a number fix.
   */
  clockTitle: 'Часы и настройки',
  clockRepairCost: (sms: number) => `Часы или настройки устройства нужно обновить: ${sms} СМС.`,
  repair: 'Исправить',
  confirmRepair: (sms: number) => `Отправить на устройство ${sms} СМС?`,
  confirm: 'Да, исправить',
  cancel: 'Отмена',
  startFailed: 'Не удалось начать проверку.',
  repairFailed: 'Не удалось исправить устройство.',
  loadFailed: 'Не удалось загрузить проверку устройства.',
  audit: 'Автоматическая проверка',
  auditHint:
    'Сервер сам читает номера из устройства и исправляет расхождения, если позволяет недельный лимит СМС.',
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
  repliesHint:
    'По одной форме в строке, как отвечает устройство; на месте ячейки и номера — подстановки, как в ответах по руководству.',
  documentedReplies: 'Ответ устройства по руководству',
  unverifiedTitle: 'Не проверено на устройстве:',
  replyKinds: {
    add: 'запись номера',
    delete: 'удаление номера',
  } as Readonly<Record<string, string>>,
  saveProfile: 'Сохранить профиль',
  profileSaved: 'Профиль устройства сохранён.',
  profileFailed: 'Не удалось сохранить профиль устройства.',
  profileLoadFailed: 'Не удалось загрузить профиль устройства.',
} as const;
