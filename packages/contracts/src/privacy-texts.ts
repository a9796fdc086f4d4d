/**
 * What a person reads on the consent screens and in «Мои данные» (issue 28 part 6): Russian, shown as is.
 * No zod here: the login screens import these texts.
 */

/** What the profile screen says about the download (Russian, shown as is). */
export const MY_DATA_TEXTS = {
  title: 'Мои данные',
  description:
    'Всё, что сервер хранит о вас: профиль, номера на шлагбаумах с расписаниями, заявки, история номеров, открытия, гостевые пропуска и согласия.',
  json: 'Скачать JSON',
  csv: 'Скачать CSV',
  failed: 'Не удалось скачать данные. Попробуйте позже.',
} as const;

/** The consent screens (first login and the later one), Russian, shown as is. */
export const CONSENT_TEXTS = {
  title: 'Согласие на обработку персональных данных',
  intro: 'Прочитайте политику оператора. Без согласия с ней пользоваться Пропуском нельзя.',
  changedIntro: 'Чтобы продолжить, прочитайте политику обработки персональных данных и подтвердите согласие.',
  accept: 'Принимаю',
  decline: 'Не принимаю',
  declinedTitle: 'Вход отменён',
  declined: 'Без согласия на обработку персональных данных аккаунт не создаётся. Данные о вас не сохранены.',
  declinedLater:
    'Без согласия пользоваться Пропуском нельзя. Вы вышли из аккаунта. Чтобы удалить аккаунт и данные о себе, войдите снова и примите политику или обратитесь к оператору.',
  backToLogin: 'Вернуться ко входу',
  loadFailed: 'Не удалось загрузить политику. Попробуйте позже.',
  saveFailed: 'Не удалось сохранить согласие. Попробуйте позже.',
} as const;
