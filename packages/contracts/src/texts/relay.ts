/**
 * Opening the gate from the app and the emergency hold-open (issue 16).
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

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
  /** Issue 41: a tap for the usual reasons; the text may be added to. */
  reasonPresetsLabel: 'Частые причины',
  reasonPresets: [
    'Пожарная тревога',
    'Скорая помощь',
    'Аварийная служба',
    'Вывоз мусора',
    'Ремонт шлагбаума',
  ],
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
