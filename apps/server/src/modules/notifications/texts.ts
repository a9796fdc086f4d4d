/**
 * What each event says and which screen it opens (issue 43). A text names the barrier by its address, which
 * every role on it sees; never a phone number, a resident's name or who acted (a dispatcher sees none of them).
 */
import type { EventKind, PushPayload } from '@propusk/contracts/notifications';

const MAX_ADDRESS = 80;

function shortAddress(address: string | null): string {
  if (!address) return 'Шлагбаум';
  return address.length > MAX_ADDRESS ? `${address.slice(0, MAX_ADDRESS - 1)}…` : address;
}

/** The app's screen with the barrier it is about (the screens read `barrier_id` from the query). */
const at = (path: string, barrierId: number | null) =>
  barrierId === null ? path : `${path}?barrier_id=${barrierId}`;

export function notificationText(
  kind: EventKind,
  barrier: { id: number; address: string } | null,
  params: Record<string, string | number>,
): PushPayload {
  const id = barrier?.id ?? null;
  const where = shortAddress(barrier?.address ?? null);
  const make = (title: string, body: string, url: string): PushPayload => ({ kind, title, body, url });
  switch (kind) {
    case 'unit_silent':
      return make(
        'Устройство не отвечает',
        `${where}: устройство не отвечает на команды.`,
        at('/device-log-admin', id),
      );
    case 'power_lost':
      return make(
        'Пропало питание',
        `${where}: устройство сообщило, что пропало питание.`,
        at('/device-log-admin', id),
      );
    case 'power_restored':
      return make(
        'Питание восстановлено',
        `${where}: питание устройства восстановлено.`,
        at('/device-log-admin', id),
      );
    case 'hold_started':
      return make(
        'Шлагбаум удерживается открытым',
        `${where}: включено удержание открытым.`,
        '/emergency-hold',
      );
    case 'hold_ended':
      return make('Удержание снято', `${where}: удержание открытым снято.`, '/emergency-hold');
    case 'sms_budget_80':
      return make(
        'Израсходовано 80 % СМС недели',
        `${where}: израсходовано 80 % недельного лимита СМС.`,
        at('/barrier-settings', id),
      );
    case 'import_finished':
      return make(
        'Импорт завершён',
        `${where}: импорт жильцов завершён${params.rows ? `, строк: ${params.rows}` : ''}.`,
        at('/barrier-users', id),
      );
    case 'access_request_new':
      return make('Новая заявка на доступ', `${where}: новая заявка на доступ.`, '/admin-requests');
    case 'request_accepted':
      return make('Заявка принята', `${where}: доступ открыт.`, at('/mybarrier', id));
    case 'request_rejected':
      return make('Заявка отклонена', `${where}: заявка на доступ отклонена.`, '/requests');
    case 'invitation':
      return make('Приглашение', `Вас пригласили: ${where}.`, '/requests');
    case 'access_ending':
      return make(
        'Доступ скоро закончится',
        `${where}: временный доступ закончится в течение суток.`,
        at('/mybarrier', id),
      );
    case 'guest_pass_used':
      return make(
        'Гость воспользовался пропуском',
        `${where}: гостевой пропуск использован.`,
        at('/mybarrier', id),
      );
    case 'sms_share_used':
      return make(
        'Ваша доля СМС израсходована',
        `${where}: ваша доля СМС на эту неделю израсходована.`,
        at('/mybarrier', id),
      );
  }
}
