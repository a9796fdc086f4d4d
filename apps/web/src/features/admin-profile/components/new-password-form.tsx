import { Button, PasswordInput, Stack } from '@mantine/core';
import { PASSWORD_MIN_LENGTH } from '@propusk/contracts/auth';
import { AUTH_VALIDATION } from '@propusk/contracts/texts/auth';
import { PASSWORD_MESSAGES, PASSWORD_VALIDATION } from '@propusk/contracts/texts/passwords';
import { type FormEvent, useState } from 'react';
import { ErrorLine } from '../../../components/status-line';
import { useSubmission } from '../../../hooks/use-submission';

export interface NewPasswordValues {
  oldPassword: string;
  newPassword: string;
  repeatPassword: string;
}

export type NewPasswordErrors = Partial<Record<keyof NewPasswordValues, string>>;

/**
 * spec.md section 5: the old password not empty, the new one long enough (12 characters since issue 29 part 9;
 * the server also refuses common passwords), repeated exactly.
 */
export function validateNewPassword(values: NewPasswordValues): NewPasswordErrors {
  const errors: NewPasswordErrors = {};
  if (!values.oldPassword) errors.oldPassword = AUTH_VALIDATION.adminPasswordEmpty;
  if (values.newPassword.length < PASSWORD_MIN_LENGTH)
    errors.newPassword = PASSWORD_VALIDATION.newPasswordTooShort;
  if (values.repeatPassword !== values.newPassword)
    errors.repeatPassword = PASSWORD_VALIDATION.newPasswordsMismatch;
  return errors;
}

const FIELDS = [
  { key: 'oldPassword', label: 'Текущий пароль', autoComplete: 'current-password' },
  { key: 'newPassword', label: 'Новый пароль', autoComplete: 'new-password' },
  { key: 'repeatPassword', label: 'Повторите новый пароль', autoComplete: 'new-password' },
] as const;

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
  const submission = useSubmission();
  const errors = isSubmitted ? validateNewPassword(values) : {};

  async function submit(event: FormEvent) {
    event.preventDefault();
    setIsSubmitted(true);
    if (Object.keys(validateNewPassword(values)).length > 0) return;
    await submission.run(() => onSubmit(values).catch(() => PASSWORD_MESSAGES.passwordChangeFailed));
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {FIELDS.map((field) => (
          <PasswordInput
            key={field.key}
            label={field.label}
            value={values[field.key]}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setValues((current) => ({ ...current, [field.key]: value }));
            }}
            error={errors[field.key]}
            autoComplete={field.autoComplete}
            required
          />
        ))}
        <ErrorLine message={submission.error} />
        <Button type="submit" loading={submission.isBusy} fullWidth>
          Сменить пароль
        </Button>
      </Stack>
    </form>
  );
}
