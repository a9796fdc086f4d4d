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
  // Issue 32 item 5: no placeholder of a command on the screen; the SMS text shows once the fields are filled.
  smsTextPending: 'Текст СМС появится, когда будут заполнены все поля.',
  settingSendFailed: 'Ошибка при отправке настройки.',
  settingSendNetwork: 'Ошибка сети при отправке настройки.',
  // issue 12: sending only queues the SMS; success is the device's answer, shown when it comes.
  settingSent: (setting: string) => `Настройка «${setting}»: отправлено, ждём ответа устройства.`,
  settingConfirmed: (setting: string) => `Настройка «${setting}»: подтверждено устройством.`,
  settingFailed: (setting: string, reason: string) => `Настройка «${setting}» не выполнена: ${reason}.`,
} as const;
