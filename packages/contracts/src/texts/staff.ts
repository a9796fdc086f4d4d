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
