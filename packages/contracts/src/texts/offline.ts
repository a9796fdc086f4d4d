/**
 * No network, a screen that cannot load, an error screen (issue 32 items 1 and 2).
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

/** A phone without a network, a screen that cannot load, an error screen (issue 32 items 1 and 2). */
export const OFFLINE_TEXTS = {
  banner: 'Нет связи. Данные обновятся, когда связь вернётся.',
  noNetwork: 'Нет связи',
  screenFailed: 'Экран не открылся',
  screenFailedText: 'Что-то пошло не так. Попробуйте ещё раз или вернитесь на главный экран.',
  chunkFailedText: 'Экран не загрузился: нет связи. Он откроется сам, когда связь вернётся.',
  notFoundTitle: 'Такой страницы нет',
  retry: 'Повторить',
  home: 'На главный экран',
} as const;

/**
 * What an action says offline (the opening, the hold, a setting): apart from OFFLINE_TEXTS, whose banner and error
 * screens the sign-in entry draws, so that these stay out of the /login budget.
 */
export const OFFLINE_ACTION_TEXTS = {
  openOffline: 'Нет связи: открыть из приложения нельзя. Позвоните на шлагбаум — он откроется по звонку.',
  openNetworkFailed:
    'Нет связи: команда не отправлена и не будет отправлена позже. Позвоните на шлагбаум — он откроется по звонку.',
  sendOffline: 'Нет связи: ничего не отправлено. Отправьте, когда связь вернётся.',
  callBarrier: 'Позвонить на шлагбаум',
} as const;
