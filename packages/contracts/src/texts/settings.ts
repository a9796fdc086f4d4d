/**
 * Device settings sent from «Настройки шлагбаума».
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** Why a sent setting was not done (`SettingCommandFailure` of contracts/settings). */
export const SETTING_FAILURE_LABELS: Readonly<Record<string, string>> = {
  no_reply: 'устройство не ответило',
  wrong_password: 'устройство не приняло пароль',
  not_understood: 'устройство не поняло команду',
  not_sent: 'команда не была отправлена',
};

/** Error and success texts (spec.md section 8). */
export const SETTING_MESSAGES = {
  settingsLoadFailed: 'Ошибка при загрузке настроек',
  /** The preview's label, as spec.md names it (issue 41 item 1): the SMS the device will get follows it. */
  commandLabel: 'Команда:',
  // Issue 32 item 5: no placeholder of a command on the screen; the SMS text shows once the fields are filled.
  commandPending: 'появится, когда будут заполнены все поля.',
  /** The settings list searched for a name it does not hold: the spec's words, then what to do. */
  nothingFound: 'Нет результатов\nПроверьте название настройки.',
  settingSendFailed: 'Ошибка при отправке настройки.',
  settingSendNetwork: 'Ошибка сети при отправке настройки.',
  // The spec's words (issue 41 item 1; its straight quotes as «» of every Russian text), and on their own line
  // what issue 12 asks: sending only queues the SMS; the device's answer is shown when it comes.
  settingSent: (setting: string) => `Настройка «${setting}» успешно отправлена.`,
  settingAwaitingDevice: 'Ждём ответа устройства: настройка ещё не подтверждена.',
  settingConfirmed: (setting: string) => `Настройка «${setting}»: подтверждено устройством.`,
  settingFailed: (setting: string, reason: string) => `Настройка «${setting}» не выполнена: ${reason}.`,
} as const;
