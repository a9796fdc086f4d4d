/**
 * A barrier's staff roles (issues 14 and 16).
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** A barrier's staff roles (issues 14 and 16), as screens name them. */
export const STAFF_ROLE_LABELS: Readonly<Record<string, string>> = {
  owner: 'Владелец',
  manager: 'Управляющий',
  operator: 'Оператор',
  dispatcher: 'Диспетчер',
};

/**
 * A screen the caller's role on the barrier does not grant (issue 32 item 7): the API answered 403
 * `barrier_permission_denied`. A 404 still says the barrier was not found.
 */
export const NO_ACCESS_TEXTS = {
  title: 'Нет доступа',
  askOwner:
    'Ваша роль на этом шлагбауме не открывает этот экран. Попросите владельца шлагбаума дать вам это право.',
  back: 'К шлагбауму',
  list: 'К списку шлагбаумов',
} as const;
