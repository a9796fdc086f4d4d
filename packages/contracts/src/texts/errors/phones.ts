/**
 * Errors of phones, schedules, limits and the barrier's weekly SMS limit.
 * Russian texts by error code (error-codes.ts); the whole catalogue is error-texts.ts.
 */
import { type ErrorCodeTexts, exact, type FieldRule, numberOf } from './rules.ts';

export const PHONE_ERROR_TEXTS = {
  phone_not_found: 'Номер не найден.',
  // Blocks, shares of the weekly SMS limit (issue 29, docs/decisions/0023).
  phone_blocked_on_barrier: 'Этот номер заблокирован владельцем шлагбаума: его нельзя добавить на шлагбаум.',
  phone_of_other_account:
    'Этим номером входит в Пропуск другой человек: добавить его может только он сам — пусть запросит доступ к шлагбауму.',
  // No free oracles (issue 40 item 4, docs/decisions/0030).
  account_answers_limit: (body) => {
    const seconds = numberOf(body, 'retry_after');
    const hours = seconds === undefined ? undefined : Math.max(1, Math.ceil(seconds / 3600));
    return `Сегодня вы уже много раз вводили номера, которыми входит в Пропуск другой человек. Добавлять номера снова можно будет ${hours === undefined ? 'позже' : `через ${hours} ч.`} Если номер принадлежит члену семьи, пусть он сам запросит доступ к шлагбауму.`;
  },
  sms_resident_share_used: (body) => {
    const left = numberOf(body, 'left');
    const share = numberOf(body, 'share');
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
    const minutes = numberOf(body, 'minimum_minutes');
    return minutes === undefined
      ? 'Интервалы расписания на этом шлагбауме слишком короткие.'
      : `Интервалы расписания на этом шлагбауме должны быть не короче ${minutes} мин.`;
  },
  no_free_slot: 'В устройстве шлагбаума нет свободной ячейки.',
  sms_weekly_limit: 'Будет превышен недельный лимит СМС этого шлагбаума.',
} satisfies ErrorCodeTexts;

export const PHONE_FIELD_RULES: readonly FieldRule[] = [
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
];
