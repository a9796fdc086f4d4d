/**
 * «Свои модели устройств» (issue 42 item 4): Russian texts of the editor, the list and the banner that every
 * screen of a barrier on a defined model shows until a conformance run verified it.
 */
export const DEFINED_MODEL_TEXTS = {
  title: 'Свои модели устройств',
  link: 'Свои модели устройств',
  explain:
    'Если вашего устройства нет в списке моделей, опишите его команды сами: шаблоны с подстановками (ниже). Модель можно поставить на свой шлагбаум; пока «Проверка устройства по модели» не подтвердит все формы, шлагбаум помечен «не проверено на устройстве».',
  parametersTitle: 'Подстановки в шаблонах',
  filePlaceholder: 'Выберите файл JSON',
  empty: 'Своих моделей пока нет.',
  create: 'Новая модель',
  edit: 'Изменить',
  remove: 'Удалить',
  removeConfirm: 'Удалить модель? Шлагбаумов на ней нет.',
  exportFile: 'Скачать файл',
  importFile: 'Загрузить из файла',
  save: 'Сохранить модель',
  cancel: 'Отмена',
  saved: 'Модель сохранена.',
  saveFailed: 'Модель не сохранена.',
  loadFailed: 'Не удалось загрузить модели.',
  inUse: (count: number) => `На шлагбаумах: ${count}`,
  capacity: (count: number) => `Номеров: до ${count}`,
  previewTitle: 'Как будут выглядеть команды',
  previewSms: (units: number, limit: number) => `${units} из ${limit} знаков одной СМС`,
  problemsTitle: 'Что нужно исправить',
  unverified: 'не проверено на устройстве',
  unverifiedText: (name: string | null) =>
    `Модель ${name ? `«${name}» ` : ''}описана администратором, и её команды ещё не подтверждены этим устройством. Запустите «Проверку устройства по модели» на экране шлагбаума: когда все формы подтвердятся, пометка исчезнет.`,
  fields: {
    name: 'Название модели',
    addressing: 'Как устройство хранит номера',
    addressingSlot: 'По ячейкам',
    addressingNumber: 'Списком, без ячеек',
    capacity: 'Сколько номеров хранит',
    slotDigits: 'Цифр в номере ячейки',
    numberFormat: 'Как писать номер в командах',
    hasPassword: 'У устройства есть пароль',
    passwordDigits: 'Цифр в пароле',
    factoryPassword: 'Заводской пароль',
    windows: 'Есть окна времени (номер действует с и до)',
    clockOrder: 'Порядок цифр времени в команде часов',
    readPerSms: 'Ячеек в одном ответе на чтение диапазона',
    batch: 'Несколько номеров в одной СМС',
    settings: 'Настройки: по одной на строке, «Название = команда»',
    repliesHint: 'По одной форме на строке; пусто — устройство не отвечает этим',
  },
  forms: {
    add: 'Команда записи номера',
    add_window: 'Команда записи номера с окном времени',
    delete: 'Команда удаления номера',
    set_clock: 'Команда установки часов',
    read: 'Команда чтения номеров',
    open: 'Команда открытия',
  },
  replies: {
    add: 'Ответ на запись номера',
    add_window: 'Ответ на запись с окном',
    delete: 'Ответ на удаление номера',
    set_clock: 'Ответ на установку часов',
    refused: 'Ответ на неверный пароль',
    format_error: 'Ответ «команда не понята»',
    read_line: 'Строка ответа на чтение',
    read_empty: 'Строка ответа на чтение: пустая ячейка',
    open: 'Ответ на открытие',
  },
} as const;

/**
 * The parameters a defined model's templates take, by name (written `{name}` in a template): what each stands
 * for. The names are syntax the operator types, shown verbatim beside these words (never inside a sentence).
 */
export const DEFINED_MODEL_PARAMETER_LABELS = {
  pwd: 'пароль устройства',
  slot: 'ячейка',
  number: 'номер телефона',
  start: 'начало окна времени',
  end: 'конец окна времени',
  time: 'часы устройства',
  from: 'первая ячейка чтения',
  to: 'последняя ячейка чтения',
} as const;
