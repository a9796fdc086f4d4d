import { Button, PasswordInput, Stack } from '@mantine/core';
import { MESSAGES, VALIDATION } from '@propusk/contracts/messages';
import { type FormEvent, useState } from 'react';
import { ErrorLine } from '../../../components/status-line';

export interface NewPasswordValues {
  oldPassword: string;
  newPassword: string;
  repeatPassword: string;
}

export type NewPasswordErrors = Partial<Record<keyof NewPasswordValues, string>>;

/** spec.md section 5: the old password not empty, the new one at least 6 characters, repeated exactly. */
export function validateNewPassword(values: NewPasswordValues): NewPasswordErrors {
  const errors: NewPasswordErrors = {};
  if (!values.oldPassword) errors.oldPassword = VALIDATION.adminPasswordEmpty;
  if (values.newPassword.length < 6) errors.newPassword = VALIDATION.newPasswordTooShort;
  if (values.repeatPassword !== values.newPassword) errors.repeatPassword = VALIDATION.newPasswordsMismatch;
  return errors;
}

/** The last step of the password change: the old password and the new one twice. */
export function NewPasswordForm({
  onSubmit,
}: {
  /** Resolves to an error line to show, or anything else on success. */
  onSubmit: (values: NewPasswordValues) => Promise<unknown>;
}) {
  const [values, setValues] = useState<NewPasswordValues>({
    oldPassword: '',
    newPassword: '',
    repeatPassword: '',
  });
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const errors = isSubmitted ? validateNewPassword(values) : {};
  const set = (key: keyof NewPasswordValues, value: string) =>
    setValues((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setIsSubmitted(true);
    if (Object.keys(validateNewPassword(values)).length > 0) return;
    setIsBusy(true);
    setError(null);
    try {
      const failure = await onSubmit(values);
      if (typeof failure === 'string') setError(failure);
    } catch {
      setError(MESSAGES.passwordChangeFailed);
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <PasswordInput
          label="Текущий пароль"
          value={values.oldPassword}
          onChange={(event) => set('oldPassword', event.currentTarget.value)}
          error={errors.oldPassword}
          autoComplete="current-password"
          required
        />
        <PasswordInput
          label="Новый пароль"
          value={values.newPassword}
          onChange={(event) => set('newPassword', event.currentTarget.value)}
          error={errors.newPassword}
          autoComplete="new-password"
          required
        />
        <PasswordInput
          label="Повторите новый пароль"
          value={values.repeatPassword}
          onChange={(event) => set('repeatPassword', event.currentTarget.value)}
          error={errors.repeatPassword}
          autoComplete="new-password"
          required
        />
        <ErrorLine message={error} />
        <Button type="submit" loading={isBusy} fullWidth>
          Сменить пароль
        </Button>
      </Stack>
    </form>
  );
}
