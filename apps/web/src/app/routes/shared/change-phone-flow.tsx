import { Button, Stack, Text } from '@mantine/core';
import { AUTH_MESSAGES } from '@propusk/contracts/texts/auth';
import { PROFILE_MESSAGES, PROFILE_VALIDATION } from '@propusk/contracts/texts/profile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { PhoneInput } from '../../../components/phone-input';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { requestCode } from '../../../features/auth/api/auth-api';
import { CodeForm } from '../../../features/auth/components/code-form';
import { SendCodeStep } from '../../../features/auth/components/send-code-step';
import { changePhone, profileQueryKey, profileQueryOptions } from '../../../features/users/api/profile-api';
import { useSubmission } from '../../../hooks/use-submission';
import { errorMessage } from '../../../lib/errors';
import type { AppPath } from '../../../lib/paths';
import { formatPhone, isCompletePhone } from '../../../lib/phone';
import { readStored, writeStored } from '../../../lib/storage';

type Step =
  | { kind: 'send-old' }
  | { kind: 'verify-old'; oldToken: string }
  | { kind: 'new-phone'; oldToken: string }
  | { kind: 'verify-new'; oldToken: string; newPhone: string; newToken: string }
  | { kind: 'done'; phone: string };

const STEP_NUMBER: Record<Step['kind'], number> = {
  'send-old': 1,
  'verify-old': 2,
  'new-phone': 3,
  'verify-new': 4,
  done: 4,
};

/**
 * 'Смена номера телефона' of both areas (/change-phone and /change-phone-admin): the current phone from the
 * profile, else the stored one; back and the last step lead to that area's profile.
 */
export function ChangePhoneScreen({ profilePath }: { profilePath: AppPath }) {
  const navigate = useNavigate();
  const profile = useQuery(profileQueryOptions);
  const currentPhone = profile.data?.phone ?? readStored('phone');
  return (
    <AppLayout title="Смена номера телефона" back={{ to: profilePath, label: 'Назад' }}>
      {currentPhone ? (
        <ChangePhoneFlow currentPhone={currentPhone} onDone={() => navigate(profilePath)} />
      ) : (
        <QueryStatus isPending={profile.isPending} error={null} />
      )}
    </AppLayout>
  );
}

/**
 * The four-step phone change (spec.md section 4 "Other flows"): a code to the current phone, its check, the new
 * phone, the new phone's code, then the change.
 */
export function ChangePhoneFlow({ currentPhone, onDone }: { currentPhone: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: 'send-old' });

  return (
    <Stack gap="sm">
      <Text size="sm" c="gray.7" data-testid="change-phone-step">
        Шаг {STEP_NUMBER[step.kind]} из 4
      </Text>
      {step.kind === 'send-old' ? (
        <SendCodeStep
          phone={currentPhone}
          mode="change_phone_old"
          explanation="Отправим код подтверждения на текущий номер."
          onSent={(oldToken) => setStep({ kind: 'verify-old', oldToken })}
        />
      ) : null}
      {step.kind === 'verify-old' ? (
        <CodeForm
          phone={currentPhone}
          mode="change_phone_old"
          initialToken={step.oldToken}
          verifyErrorFallback={AUTH_MESSAGES.codeConfirmFailed}
          onVerified={async (oldToken) => setStep({ kind: 'new-phone', oldToken })}
        />
      ) : null}
      {step.kind === 'new-phone' ? (
        <NewPhoneStep
          onSent={(newPhone, newToken) =>
            setStep({ kind: 'verify-new', oldToken: step.oldToken, newPhone, newToken })
          }
        />
      ) : null}
      {step.kind === 'verify-new' ? (
        <CodeForm
          key={step.newPhone}
          phone={step.newPhone}
          mode="change_phone_new"
          initialToken={step.newToken}
          verifyErrorFallback={PROFILE_MESSAGES.newPhoneCodeInvalid}
          wrongCodeText={PROFILE_MESSAGES.newPhoneCodeInvalid}
          onVerified={async (newToken) => {
            try {
              const result = await changePhone({
                new_phone: step.newPhone,
                old_verification_token: step.oldToken,
                new_verification_token: newToken,
              });
              const phone = result?.phone ?? step.newPhone;
              writeStored('phone', phone);
              writeStored('verification_token', null);
              await queryClient.invalidateQueries({ queryKey: profileQueryKey });
              setStep({ kind: 'done', phone });
            } catch (caught) {
              return errorMessage(caught, { fallback: PROFILE_MESSAGES.phoneChangeFailed });
            }
          }}
        />
      ) : null}
      {step.kind === 'done' ? (
        <>
          <SuccessLine message={PROFILE_MESSAGES.phoneChanged} />
          <Text>
            Новый номер: <b>{formatPhone(step.phone)}</b>
          </Text>
          <Button onClick={onDone}>Вернуться в профиль</Button>
        </>
      ) : null}
    </Stack>
  );
}

function NewPhoneStep({ onSent }: { onSent: (newPhone: string, newToken: string) => void }) {
  const [value, setValue] = useState('+7');
  const [isTouched, setIsTouched] = useState(false);
  const submission = useSubmission();
  const isValid = isCompletePhone(value);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setIsTouched(true);
    if (!isValid) return;
    const newPhone = value;
    await submission.run(async () => {
      try {
        const response = await requestCode(newPhone, 'change_phone_new');
        writeStored('verification_token', response.verification_token);
        onSent(newPhone, response.verification_token);
      } catch (caught) {
        return errorMessage(caught, { fallback: AUTH_MESSAGES.codeSendError, fields: ['phone', 'mode'] });
      }
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <PhoneInput
          label="Новый номер телефона"
          autoComplete="off"
          value={value}
          onChange={setValue}
          onBlur={() => setIsTouched(true)}
          error={isTouched && !isValid ? PROFILE_VALIDATION.newPhone : undefined}
          required
        />
        <ErrorLine message={submission.error} />
        <Button type="submit" loading={submission.isBusy} disabled={!isValid} fullWidth>
          Отправить код
        </Button>
      </Stack>
    </form>
  );
}
