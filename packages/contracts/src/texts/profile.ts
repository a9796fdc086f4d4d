/**
 * A person's own profile: role, number privacy, changing the number, deleting the account.
 * Russian texts shown to people, word for word as spec.md writes them where it gives them.
 */

export const ROLE_LABELS: Readonly<Record<string, string>> = {
  user: 'Пользователь',
  admin: 'Администратор',
};

export const PHONE_PRIVACY_LABELS: Readonly<Record<string, string>> = {
  public: 'Виден всем',
  protected: 'Виден пользователям моих шлагбаумов',
  private: 'Скрыт от всех',
};

/** Validation messages (spec.md section 5). */
export const PROFILE_VALIDATION = {
  // The spec's words (issue 41 item 1); the field's placeholder shows an example.
  newPhone: 'Введите корректный номер телефона в формате +7XXXXXXXXXX.',
} as const;

/** Error and success texts (spec.md section 8). */
export const PROFILE_MESSAGES = {
  newPhoneCodeInvalid: 'Код для нового номера неверный',
  phoneChangeFailed: 'Не удалось изменить номер телефона',
  phoneChanged: 'Номер телефона успешно обновлён!',
  accountDeleteFailed: 'Ошибка удаления аккаунта',
  accountDeleted: 'Профиль успешно удалён.',
} as const;
