/**
 * Texts of where a person lands and of the gate one tap away (issue 32 item 4): the rows of «Мои шлагбаумы»,
 * the barrier list's rows. The line /login shows after an ended session is in session-texts.ts: a module the
 * first load shares with a lazy screen is carried by the first load whole.
 */
export const LANDING_TEXTS = {
  call: 'Позвонить',
  callBarrier: (address: string) => `Позвонить на шлагбаум: ${address}`,
  openBarrier: (address: string) => `Открыть шлагбаум: ${address}`,
} as const;
