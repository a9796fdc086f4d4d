/**
 * Texts of where a person lands and of the gate one tap away (issue 32 item 4): the rows of «Мои шлагбаумы»,
 * the login screen after an ended session. Its own small catalogue, so that the login bundle carries only these.
 */
export const LANDING_TEXTS = {
  call: 'Позвонить',
  callBarrier: (address: string) => `Позвонить на шлагбаум: ${address}`,
  openBarrier: (address: string) => `Открыть шлагбаум: ${address}`,
  sessionEnded: 'Сеанс завершён, войдите снова.',
} as const;
