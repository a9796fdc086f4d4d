/**
 * Access requests and invitations.
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

export const ACCESS_REQUEST_STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'Ожидает',
  accepted: 'Принята',
  rejected: 'Отклонена',
  cancelled: 'Отменена',
};

/** Error and success texts (spec.md section 8). */
export const REQUEST_MESSAGES = {
  /** Issue 40 item 4: a person mutes one administrator's invitations (docs/decisions/0030). */
  muteInvitations: 'Не получать приглашения от этого администратора',
  mutedTitle: 'Вы не получаете приглашения от этих администраторов:',
  unmuteInvitations: 'Снова получать',
  /** The spec's 'Нет данных' (issue 41 item 1), then what to do next on its own line (issue 32 item 5). */
  emptyIncoming:
    'Нет данных\nВходящих заявок нет. Здесь появятся приглашения и заявки, на которые нужно ответить.',
  emptyOutgoing:
    'Нет данных\nИсходящих заявок нет. Чтобы попросить доступ, найдите шлагбаум по адресу в разделе «Шлагбаумы».',
  emptyOutgoingAdmin:
    'Нет данных\nИсходящих заявок нет. Здесь появятся приглашения, которые вы отправите жителям.',
  requestSent: 'Запрос успешно отправлен.',
  /** A barrier card while the user's own request waits (issue 12). */
  requestPending: 'Заявка отправлена, ждёт решения',
  /** A barrier card while an invitation to it waits for the user's answer. */
  invitationPending: 'Вас пригласили: ответьте в разделе «Заявки»',
  invitedBy: (name: string) => `Пригласил: ${name}`,
  pendingRequestsCount: (count: number) => `Ожидают решения: ${count}`,
  requestFailed: 'Ошибка при отправке запроса',
  allRequestsLoaded: 'Все заявки загружены',
  /** Issue 41 major 2: an accepted request whose administrator has since blocked the user. */
  closedByAdmin: 'Администратор закрыл доступ к этому шлагбауму.',
  /** Issue 41: what answering a request did, shown above the list. */
  invitationAccepted: (address: string) => `Приглашение принято: шлагбаум ${address} теперь ваш.`,
  requestAccepted: (address: string) => `Заявка принята: доступ к шлагбауму ${address} выдан.`,
  toBarrier: 'Перейти к шлагбауму',
  /** Issue 41: the administrator's own invitations as a resident, told in the administrator's area. */
  ownInvitations: 'Вас пригласили в шлагбаум как жителя. Ответьте на приглашение в режиме «Пользователь».',
  openOwnInvitations: 'Открыть приглашения',
} as const;
