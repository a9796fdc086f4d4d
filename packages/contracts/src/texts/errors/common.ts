/**
 * Errors any call can meet (sign-in, malformed requests, a server down) and the common field messages.
 * Russian texts by error code (error-codes.ts); the whole catalogue is error-texts.ts.
 */
import { type ErrorCodeTexts, exact, type FieldRule } from './rules.ts';

/** The clean-text rule's message (issue 29 part 6): the body's code and the field's message say the same. */
const CLEAN_TEXT_TEXT =
  'Используйте только буквы, цифры, пробелы и знаки препинания: без ссылок, эмодзи и служебных символов.';

export const COMMON_ERROR_TEXTS = {
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
} satisfies ErrorCodeTexts;

export const COMMON_FIELD_RULES: readonly FieldRule[] = [
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
  // The spec's words (issue 41 item 1); joined with other field messages, so on one line.
  exact('Phone must be in the format +7XXXXXXXXXX.', 'Номер телефона должен быть в формате +7XXXXXXXXXX.'),
  exact('Must be a positive number.', 'Должно быть положительное число.'),
  exact('Must be a whole number.', 'Должно быть целое число.'),
  exact('Must be a number.', 'Должно быть число.'),
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
];
