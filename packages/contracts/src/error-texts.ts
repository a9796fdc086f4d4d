/**
 * What a person reads when a call fails: a Russian text for every error code the server can send
 * (error-codes.ts; the type makes a missing one a compile error, and a test walks every code the server's
 * source throws), and for every field message of the request schemas. The spec's own translations
 * (spec.md section 8) are kept word for word.
 */
// Only the type: the catalogue imports the schema modules (and so zod), which the login screen must not load.
import type { ErrorCode } from './error-codes.ts';

type Body = Record<string, unknown>;

/** The clean-text rule's message (issue 29 part 6): the body's code and the field's message say the same. */
const CLEAN_TEXT_TEXT =
  'Используйте только буквы, цифры, пробелы и знаки препинания: без ссылок, эмодзи и служебных символов.';
type ErrorText = string | ((body: Body) => string);

const number = (body: Body, key: string): number | undefined =>
  typeof body[key] === 'number' ? (body[key] as number) : undefined;

export const ERROR_CODE_TEXTS: Readonly<Record<ErrorCode, ErrorText>> = {
  not_authenticated: 'Требуется вход в систему.',
  token_invalid: 'Сессия истекла. Войдите снова.',
  permission_denied: 'Недостаточно прав для этого действия.',
  not_found: 'Не найдено.',
  malformed_json: 'Сервер не смог прочитать запрос.',
  bad_request: 'Сервер не смог прочитать запрос.',
  text_not_allowed: CLEAN_TEXT_TEXT,
  payload_too_large: 'Слишком большой запрос.',
  unsupported_media_type: 'Сервер не смог прочитать запрос.',
  method_not_allowed: 'Это действие недоступно.',
  internal_error: 'Внутренняя ошибка сервера. Попробуйте позже.',
  database_unavailable: 'Сервер временно недоступен. Попробуйте позже.',
  service_unavailable: 'Сервер временно недоступен. Попробуйте позже.',
  too_many_requests: 'Слишком много запросов. Попробуйте позже.',
  too_many_log_entries: 'Слишком много записей журнала. Попробуйте позже.',

  code_already_sent: 'Код уже был отправлен. Попробуйте позже.',
  invalid_code: 'Неверный код подтверждения.',
  code_attempts_exhausted: 'Слишком много неверных попыток для этого кода. Запросите новый код.',
  too_many_failures: 'Слишком много неудачных попыток. Попробуйте позже.',
  daily_code_limit: 'На этот номер за сутки отправлено слишком много кодов. Попробуйте завтра.',
  sms_budget_exhausted: 'Сервис временно не может отправить код. Попробуйте позже.',
  verification_token_invalid: 'Код подтверждения недействителен. Запросите новый код.',
  verification_expired: 'Срок действия кода истёк. Запросите новый код.',
  verification_not_verified: 'Код ещё не подтверждён.',
  verification_token_used: 'Этот код уже использован. Запросите новый код.',
  user_not_found: 'Пользователь не найден.',
  user_blocked: 'Пользователь заблокирован.',
  admin_only: 'Это действие доступно только администраторам.',
  not_own_phone: 'Этот номер не принадлежит вашему аккаунту.',
  phone_in_use: 'Этот номер уже используется.',
  password_required: 'Сначала подтвердите пароль.',
  invalid_credentials: 'Неверный номер телефона или пароль.',
  refresh_invalid: 'Сессия истекла. Войдите снова.',
  refresh_reused: 'Сессия завершена из соображений безопасности. Войдите снова.',
  // The spec's client shows the English detail as it is: it says whom to ask, never a command (issue 29 part 11).
  admin_password_reset_cli:
    'Пароль администратора нельзя сбросить по SMS. Попросите оператора сервера задать вам новый пароль.',
  webhook_replayed: 'Этот подписанный запрос уже был принят.',
  sms_failed: 'Не удалось отправить код подтверждения. Попробуйте позже.',
  // Abuse bounds (issue 29, docs/decisions/0024).
  phone_prefix_not_allowed: (body) => {
    const prefixes = Array.isArray(body.allowed_prefixes) ? body.allowed_prefixes.join(', ') : '+79';
    return `Коды отправляются только на номера, которые начинаются с ${prefixes}.`;
  },
  guest_pass_code_limit:
    'По этой гостевой ссылке сегодня отправлено слишком много кодов. Попросите у жителя новую ссылку или попробуйте завтра.',
  guest_pass_resident_code_limit:
    'По гостевым ссылкам этого жителя сегодня отправлено слишком много кодов. Попробуйте завтра.',
  password_too_weak:
    'Этот пароль слишком распространён или легко угадывается. Придумайте длиннее, из нескольких не связанных слов.',
  password_change_required: 'Ваш пароль больше не отвечает требованиям. Сначала задайте новый пароль.',

  same_phone: 'Новый номер совпадает с текущим.',
  phone_on_own_barrier: 'Новый номер уже записан на одном из ваших шлагбаумов.',
  wrong_old_password: 'Старый пароль неверен.',
  owns_barriers: 'Сначала удалите свои шлагбаумы, затем аккаунт.',

  barrier_not_found: 'Шлагбаум не найден',
  barrier_no_access: 'У вас нет доступа к этому шлагбауму.',
  owner_cannot_leave: 'Владелец не может выйти из своего шлагбаума.',
  device_phone_taken: 'Шлагбаум с этим номером устройства уже есть.',
  barrier_permission_denied: 'Недостаточно прав для этого действия.',

  staff_not_admin:
    'Среди ваших пользователей нет администратора с этим номером. Пусть он сначала отправит заявку на доступ к вашему шлагбауму или примет ваше приглашение.',
  staff_is_owner: 'Это владелец шлагбаума: у него уже есть все права.',
  staff_already_added: 'Этот администратор уже добавлен к шлагбауму.',
  staff_not_found: 'Этот администратор не добавлен к шлагбауму.',

  access_request_not_found: 'Заявка не найдена.',
  access_request_pending: 'Заявка на этот шлагбаум уже отправлена и ждёт ответа.',
  already_has_access: 'У вас уже есть доступ к шлагбауму.',
  request_only_for_self: 'Запрос доступа можно отправить только за себя.',
  blocked_on_barrier: 'Пользователь заблокирован администратором этого шлагбаума.',
  access_request_processed: 'Эта заявка уже обработана.',
  access_request_only_receiver: 'Принять или отклонить заявку может только получатель.',
  access_request_only_sender: 'Отменить заявку может только отправитель.',
  phone_invitation_waiting: 'Приглашение на этот номер уже ждёт регистрации.',
  phone_invitation_processed: 'Это приглашение больше не ожидает.',
  phone_invitation_not_found: 'Приглашение не найдено.',
  phone_invitation_limit: 'Слишком много приглашений по номеру. Попробуйте позже.',
  barrier_not_public: 'Этот шлагбаум не принимает запросы доступа.',

  cannot_remove_owner: 'Владельца нельзя удалить из его шлагбаума.',
  user_not_on_barrier: 'У этого пользователя нет доступа к шлагбауму.',
  cannot_block_self: 'Нельзя заблокировать самого себя.',

  phone_not_found: 'Номер не найден.',
  // Blocks, shares of the weekly SMS limit (issue 29, docs/decisions/0023).
  phone_blocked_on_barrier: 'Этот номер заблокирован владельцем шлагбаума: его нельзя добавить на шлагбаум.',
  phone_of_other_account:
    'Этим номером входит в Пропуск другой человек: добавить его может только он сам — пусть запросит доступ к шлагбауму.',
  sms_resident_share_used: (body) => {
    const left = number(body, 'left');
    const share = number(body, 'share');
    return `Ваша доля СМС на этой неделе израсходована${share === undefined ? '' : ` (${share} СМС на жителя)`}: осталось ${left ?? 0}. Изменения номеров и открытия снова станут доступны, когда пройдёт неделя с прошлых изменений; срочное — через администратора шлагбаума.`;
  },
  sms_residents_pool_used:
    'Жители израсходовали свою часть недельного лимита СМС этого шлагбаума. Попробуйте позже или обратитесь к администратору.',
  phone_duplicate: 'Этот номер уже есть на шлагбауме.',
  phone_deleted: 'Этот номер уже удалён.',
  phone_no_schedule: 'У этого номера нет расписания.',
  primary_phone_cannot_be_deleted:
    'Основной номер нельзя удалить: выйдите из шлагбаума или удалите пользователя.',
  limit_user_phones: 'Достигнут лимит номеров на пользователя для этого шлагбаума.',
  limit_user_temporary: 'Достигнут лимит временных номеров на пользователя для этого шлагбаума.',
  limit_barrier_temporary: 'Достигнут лимит временных номеров для этого шлагбаума.',
  limit_user_schedule: 'Достигнут лимит номеров по расписанию на пользователя для этого шлагбаума.',
  limit_barrier_schedule: 'Достигнут лимит номеров по расписанию для этого шлагбаума.',
  schedule_interval_too_short: (body) => {
    const minutes = number(body, 'minimum_minutes');
    return minutes === undefined
      ? 'Интервалы расписания на этом шлагбауме слишком короткие.'
      : `Интервалы расписания на этом шлагбауме должны быть не короче ${minutes} мин.`;
  },
  no_free_slot: 'В устройстве шлагбаума нет свободной ячейки.',
  sms_weekly_limit: 'Будет превышен недельный лимит SMS этого шлагбаума.',

  action_not_found: 'Действие не найдено.',
  export_too_large: 'Слишком много строк для выгрузки (больше 50 000). Сузьте период или фильтры.',

  guest_pass_unavailable:
    'Ссылка пропуска недействительна: пропуск уже использован, отозван или его время истекло. Попросите жителя прислать новую.',
  guest_pass_not_found: 'Гостевой пропуск не найден.',

  device_model_unknown: 'Модель устройства шлагбаума неизвестна.',
  device_password_not_set: 'Пароль устройства этого шлагбаума не задан.',
  unknown_setting: 'Такой настройки нет у этой модели.',
  relay_dialect_unknown:
    'Язык команд устройства не подтверждён: то же значение на другой прошивке может оставить шлагбаум открытым. Сначала нажмите «Проверить устройство»: когда устройство ответит командами своей модели, настройка станет доступна.',
  setting_params_missing: 'Заполните все параметры настройки.',
  relay_not_supported: 'Устройство этой модели нельзя открыть из приложения.',
  too_many_openings: 'Слишком часто. Подождите и откройте снова.',
  emergency_hold_active: 'Шлагбаум удерживается открытым по экстренному открытию.',
  opening_too_late: 'Нажатие дошло с опозданием, шлагбаум не открывался. Нажмите «Открыть» ещё раз.',
  emergency_hold_not_found: 'Экстренное открытие не найдено.',
  emergency_hold_ended: 'Это экстренное открытие уже завершено.',
  no_barriers_to_hold: 'Нет шлагбаумов, которые можно открыть.',
  setting_command_not_found: 'Отправка настройки не найдена.',
  setting_params_invalid: (body) => {
    const params = body.params;
    const texts =
      params && typeof params === 'object'
        ? Object.values(params).filter((text): text is string => typeof text === 'string')
        : [];
    return texts.length > 0 ? texts.join(' ') : 'Неверные параметры настройки.';
  },
  device_check_running: 'Проверка устройства уже идёт.',
  device_check_not_ready: 'Нет завершённой проверки, по которой можно исправить устройство.',
  phone_not_in_error: 'Повторить можно только номер с ошибкой.',
  simulator_empty: 'Имитатор устройства ещё ничего не получил.',
  alarm_layout_unsupported: 'Эта модель устройства не присылает тревожных сообщений.',
  alarm_layout_no_gateway: 'Номер шлюза не задан в настройках сервера.',
  alarm_layout_no_room: 'В устройстве нет свободной ячейки для жителя из ячейки 1.',
  alarm_layout_done: 'Номер шлюза уже записан в ячейку 1.',
  alarm_layout_cost_changed: 'Число SMS для переноса изменилось: посмотрите план ещё раз.',
  import_file_missing: 'Выберите файл для загрузки.',
  import_file_invalid: 'Это не таблица: загрузите файл Эксель или текстовую таблицу, как в шаблоне.',
  import_file_too_large: 'Файл больше 2 МБ: разделите его на части.',
  import_file_unpacked_too_large:
    'Файл Эксель после распаковки слишком большой для таблицы жителей: сохраните в нём только лист с жителями или загрузите текстовую таблицу.',
  import_headers_invalid:
    'В первой строке нужны заголовки шаблона (обязателен «Телефон»). Скачайте шаблон и заполните его.',
  import_empty: 'В файле нет строк для загрузки.',
  import_too_many_rows: 'В файле больше 5000 строк: разделите его на части.',
  import_has_problems:
    'В некоторых строках ошибки: ничего не загружено. Исправьте их и загрузите файл снова.',
  import_file_changed: 'Файл отличается от проверенного: проверьте его снова.',
  // Privacy (issue 28).
  lookup_limit: (body) => {
    const seconds = number(body, 'retry_after');
    const minutes = seconds === undefined ? undefined : Math.max(1, Math.ceil(seconds / 60));
    return minutes === undefined
      ? 'Слишком много поисков по номеру. Попробуйте позже.'
      : `Слишком много поисков по номеру. Попробуйте через ${minutes} мин.`;
  },
  // The privacy policy and consent (152-ФЗ, issue 28 part 6).
  policy_version_outdated:
    'Политика обработки персональных данных изменилась. Прочитайте новую версию и подтвердите согласие.',
  // Address searches of the public list, bounded (issue 29 part 8).
  too_many_searches: 'Слишком много поисков подряд. Подождите минуту и повторите поиск.',
  search_timeout: 'Поиск занял слишком много времени. Уточните адрес и повторите поиск.',
};

/** The Russian text of an error body that carries a known code, else undefined. */
export function errorCodeText(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const code = (body as Body).code;
  if (typeof code !== 'string' || !Object.hasOwn(ERROR_CODE_TEXTS, code)) return undefined;
  const text = ERROR_CODE_TEXTS[code as ErrorCode];
  return typeof text === 'function' ? text(body as Body) : text;
}

type FieldRule = readonly [pattern: RegExp, text: string | ((match: RegExpMatchArray) => string)];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exact = (english: string, russian: string): FieldRule => [
  new RegExp(`^${escapeRegExp(english)}$`),
  russian,
];

/**
 * The field messages of the request schemas (contracts), of the server's own checks and of the shared zod
 * error map (zod-messages.ts), each with its Russian text. Messages already in Russian (device sheets and
 * profiles, spec texts) pass through as they are.
 */
export const FIELD_MESSAGE_RULES: readonly FieldRule[] = [
  // The shared error map: what any schema says when it names no message of its own.
  exact('This field is required.', 'Обязательное поле.'),
  exact('Invalid value.', 'Неверное значение.'),
  exact('Invalid choice.', 'Выберите одно из допустимых значений.'),
  exact('Invalid format.', 'Неверный формат.'),
  exact('Unknown field.', 'Неизвестное поле.'),
  [/^Ensure this field has at least (\d+) characters\.$/, (m) => `Минимум символов: ${m[1]}.`],
  [/^Ensure this field has at most (\d+) characters\.$/, (m) => `Максимум символов: ${m[1]}.`],
  [/^Ensure this field has at least (\d+) items\.$/, (m) => `Минимум элементов: ${m[1]}.`],
  [/^Ensure this field has at most (\d+) items\.$/, (m) => `Максимум элементов: ${m[1]}.`],
  [/^Must be at least (-?[\d.]+)\.$/, (m) => `Значение должно быть не меньше ${m[1]}.`],
  [/^Must be at most (-?[\d.]+)\.$/, (m) => `Значение должно быть не больше ${m[1]}.`],
  exact('Must not contain control characters.', 'Текст не должен содержать управляющих символов.'),
  exact(
    'Use letters, digits, spaces and punctuation only: no links, emoji or special characters.',
    CLEAN_TEXT_TEXT,
  ),
  // Types named by field.
  [/^[A-Z][A-Za-z ]* must be a string\.$/, 'Значение должно быть строкой.'],
  [/^[A-Z][A-Za-z ]* must not be empty\.$/, 'Поле не должно быть пустым.'],
  [/^[A-Z][A-Za-z ]* is too long\.$/, 'Слишком длинное значение.'],
  [/^[A-Z][A-Za-z ]* must be at most (\d+) characters\.$/, (m) => `Максимум символов: ${m[1]}.`],
  [
    /^Password must be at least (\d+) characters\.$/,
    (m) => `Пароль должен содержать минимум ${m[1]} символов.`,
  ],
  exact('Password must not be empty.', 'Пароль не должен быть пустым.'),
  exact(
    'This password is too common or too easy to guess. Choose a longer one of several unrelated words.',
    'Этот пароль слишком распространён или легко угадывается. Придумайте длиннее, из нескольких не связанных слов.',
  ),
  // Common inputs.
  exact('Code must be 6 digits.', 'Код должен содержать 6 цифр.'),
  exact('Phone must be in the format +7XXXXXXXXXX.', 'Номер телефона должен быть в формате +7XXXXXXXXXX.'),
  exact('Must be a positive number.', 'Должно быть положительное число.'),
  exact('Must be a whole number.', 'Должно быть целое число.'),
  exact('Must be a whole number from 1 to 2147483647.', 'Должно быть целое число от 1 до 2147483647.'),
  exact('Must be true or false.', 'Должно быть «да» или «нет».'),
  exact('Page must be at least 1.', 'Номер страницы должен быть не меньше 1.'),
  exact('Page size must be at least 1.', 'Размер страницы должен быть не меньше 1.'),
  exact('Page size must be at most 100.', 'Размер страницы должен быть не больше 100.'),
  exact('Enter a date and time in ISO 8601 format.', 'Укажите дату и время.'),
  exact('The start date is after the end date.', 'Дата начала позже даты конца.'),
  exact('Query is required.', 'Введите адрес.'),
  [/^Enter at most (\d+) words\.$/, (m) => `Введите не больше ${m[1]} слов.`],
  exact('Count must be a whole number.', 'Количество должно быть целым числом.'),
  exact('Count must be between 1 and 20.', 'Количество должно быть от 1 до 20.'),
  // Fields of an error that also carries a code (phone_in_use, wrong_old_password).
  exact('Phone number is already in use.', 'Этот номер уже используется.'),
  exact('Old password is incorrect.', 'Старый пароль неверен.'),
  // Profile.
  exact('Provide full_name or phone_privacy.', 'Нечего сохранять.'),
  // Barriers.
  exact('Enter a valid address.', 'Укажите корректный адрес.'),
  exact('Device phone must be in the format +7XXXXXXXXXX.', 'Неверный формат номера.'),
  exact('Unknown device model.', 'Неизвестная модель устройства.'),
  exact('Device password must be exactly 4 digits.', 'Пароль должен состоять из 4 цифр.'),
  exact('Enter a whole number from 1 to 10000.', 'Укажите число от 1 до 10000.'),
  [
    /^The (.+) model holds at most (\d+) numbers\.$/,
    (m) => `Модель ${m[1]} вмещает не больше ${m[2]} номеров.`,
  ],
  exact('Provide additional_info, is_public or device_password.', 'Нечего сохранять.'),
  // Access requests.
  exact('Barrier must be a barrier id.', 'Не выбран шлагбаум.'),
  exact('User must be a user id.', 'Не выбран пользователь.'),
  exact('Type must be incoming or outgoing.', 'Неверный вид заявок.'),
  exact('Format must be csv or xlsx.', 'Неизвестный формат файла.'),
  exact('Unknown status.', 'Неизвестный статус.'),
  exact('Status must be one of: accepted, rejected, cancelled.', 'Неверный статус заявки.'),
  exact('Provide status or hidden_for_user.', 'Нечего сохранять.'),
  // Users of a barrier.
  exact('Enter the reason for blocking.', 'Укажите причину блокировки.'),
  // Phones and schedules.
  exact('Enter a name and a phone number.', 'Введите имя и номер телефона.'),
  exact('Enter a name.', 'Введите имя.'),
  [/^Type must be one of: .+\.$/, 'Выберите тип номера.'],
  exact('Enter the start and end time.', 'Укажите время начала и конца.'),
  exact(
    'The start time must be earlier than the end time.',
    'Время начала должно быть раньше времени конца.',
  ),
  exact('The end time must be in the future.', 'Время конца должно быть в будущем.'),
  exact(
    'Schedule must map weekdays (monday..sunday) to lists of {start_time, end_time} as HH:MM.',
    'Есть интервалы в расписании с некорректным временем.',
  ),
  exact(
    'Some schedule intervals have an invalid time.',
    'Есть интервалы в расписании с некорректным временем.',
  ),
  exact('Schedule intervals of one day must not overlap.', 'Интервалы одного дня не должны пересекаться.'),
  exact('Add at least one schedule interval.', 'Добавьте хотя бы один интервал расписания.'),
  exact('Choose the user.', 'Выберите пользователя.'),
  exact('This user has no access to the barrier.', 'У этого пользователя нет доступа к шлагбауму.'),
  exact(
    'Only temporary phones have a start and end time.',
    'Время начала и конца есть только у временных номеров.',
  ),
  exact('Provide name, start_time or end_time.', 'Нечего сохранять.'),
  // Guest passes.
  exact('A guest pass lasts at most 24 hours.', 'Гостевой пропуск действует не дольше суток.'),
  exact('A guest pass must start within 30 days.', 'Пропуск должен начинаться не позже чем через 30 дней.'),
  // Limits.
  exact('Must be a whole number, 0 or more, or null.', 'Укажите целое число от 0 или оставьте поле пустым.'),
  [
    /^Must not exceed the number of phones on the device \((\d+)\)\.$/,
    (m) => `Не больше числа номеров в устройстве (${m[1]}).`,
  ],
  [/^Must not exceed (\d+) minutes\.$/, (m) => `Не больше ${m[1]} минут.`],
  exact('Provide at least one limit.', 'Укажите хотя бы один лимит.'),
  // Device checks, settings, the device log.
  exact(
    'Must be a whole number of days from 1 to 90, or null.',
    'Укажите число дней от 1 до 90 или выключите проверку.',
  ),
  exact('Setting is required.', 'Выберите настройку.'),
  [/^Outcome must be one of: .+\.$/, 'Неизвестный результат сообщения устройства.'],
  exact('Must be the preview’s digest.', 'Проверьте файл снова перед загрузкой.'),
  // The privacy policy and «Мои данные» (issue 28 part 6).
  exact('Policy version must be a string.', 'Неверная версия политики.'),
  exact('Policy version is not valid.', 'Неверная версия политики.'),
  exact('Format must be json or csv.', 'Неизвестный формат файла.'),
];

const cyrillic = /[А-Яа-яЁё]/;

/**
 * The Russian text of one field message: from the rules, or the message itself when it is already Russian;
 * undefined for an English message no rule knows (the screen then shows its own fallback).
 */
export function fieldMessageText(message: string): string | undefined {
  for (const [pattern, text] of FIELD_MESSAGE_RULES) {
    const match = message.match(pattern);
    if (match) return typeof text === 'function' ? text(match) : text;
  }
  return cyrillic.test(message) ? message : undefined;
}
