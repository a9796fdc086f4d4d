/**
 * Errors of barriers, their staff, access requests, users of a barrier, guest passes and searches.
 * Russian texts by error code (error-codes.ts); the whole catalogue is error-texts.ts.
 */
import { type ErrorCodeTexts, exact, type FieldRule, numberOf } from './rules.ts';

export const BARRIER_ERROR_TEXTS = {
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

  guest_pass_unavailable:
    'Ссылка пропуска недействительна: пропуск уже использован, отозван или его время истекло. Попросите жителя прислать новую.',
  guest_pass_not_found: 'Гостевой пропуск не найден.',

  // Privacy (issue 28).
  lookup_limit: (body) => {
    const seconds = numberOf(body, 'retry_after');
    const minutes = seconds === undefined ? undefined : Math.max(1, Math.ceil(seconds / 60));
    return minutes === undefined
      ? 'Слишком много поисков по номеру. Попробуйте позже.'
      : `Слишком много поисков по номеру. Попробуйте через ${minutes} мин.`;
  },

  // Address searches of the public list, bounded (issue 29 part 8).
  too_many_searches: 'Слишком много поисков подряд. Подождите минуту и повторите поиск.',
  search_timeout: 'Поиск занял слишком много времени. Уточните адрес и повторите поиск.',
} satisfies ErrorCodeTexts;

export const BARRIER_FIELD_RULES: readonly FieldRule[] = [
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
];
