/**
 * Widened access in force on a barrier (issue 32 item 3).
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

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
