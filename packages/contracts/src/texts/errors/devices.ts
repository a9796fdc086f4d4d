/**
 * Errors of devices: models, settings, opening, the emergency hold, device checks.
 * Russian texts by error code (error-codes.ts); the whole catalogue is error-texts.ts.
 */
import { type ErrorCodeTexts, exact, type FieldRule } from './rules.ts';

export const DEVICE_ERROR_TEXTS = {
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
  device_factory_password_unknown:
    'Заводской пароль этой модели устройства неизвестен: введите пароль устройства в настройках шлагбаума.',
  alarm_layout_unsupported: 'Эта модель устройства не присылает тревожных сообщений.',
  alarm_layout_no_gateway: 'Номер шлюза не задан в настройках сервера.',
  alarm_layout_no_room: 'В устройстве нет свободной ячейки для жителя из ячейки 1.',
  alarm_layout_done: 'Номер шлюза уже записан в ячейку 1.',
  alarm_layout_cost_changed: 'Число СМС для переноса изменилось: посмотрите план ещё раз.',
  conformance_running: 'Проверка устройства по модели уже идёт.',
  conformance_no_read_back: 'Модель не умеет читать номера: проверить устройство по модели нельзя.',
  conformance_no_free_slot: 'В устройстве нет свободной ячейки для тестового номера.',
  conformance_no_test_number: 'У вашей учётной записи нет номера телефона для тестового номера.',
  conformance_not_running: 'Проверка устройства по модели сейчас не идёт.',
  conformance_test_number_in_use:
    'Устройство хранит номера без ячеек: ваш номер уже записан на этом шлагбауме, и удаление тестового номера удалило бы его. Начните проверку с учётной записи, чей номер не записан на шлагбауме.',
  device_profile_file_invalid: (body) => {
    const problems = Array.isArray(body.problems)
      ? body.problems.filter((text): text is string => typeof text === 'string')
      : [];
    return ['Файл профиля не подходит: профиль шлагбаума не изменён.', ...problems].join(' ');
  },
  device_model_invalid: (body) => {
    const problems = Array.isArray(body.problems)
      ? body.problems.filter((text): text is string => typeof text === 'string')
      : [];
    return ['Модель не сохранена.', ...problems].join(' ');
  },
  device_model_not_found: 'Такой модели у вас нет.',
  device_model_in_use: 'Модель стоит на шлагбауме: удалить её нельзя, пока шлагбаум с ней не удалён.',
  device_model_name_taken: 'У вас уже есть модель с таким названием.',
  device_models_limit: 'Своих моделей — не больше 20.',
} satisfies ErrorCodeTexts;

export const DEVICE_FIELD_RULES: readonly FieldRule[] = [
  // Device checks, settings, the device log.
  exact(
    'Must be a whole number of days from 1 to 90, or null.',
    'Укажите число дней от 1 до 90 или выключите проверку.',
  ),
  exact('Setting is required.', 'Выберите настройку.'),
  [/^Outcome must be one of: .+\.$/, 'Неизвестный результат сообщения устройства.'],
  exact('Must be the preview’s digest.', 'Проверьте файл снова перед загрузкой.'),
];
