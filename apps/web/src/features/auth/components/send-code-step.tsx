import { Button, Stack, Text } from '@mantine/core';
import type { VerificationMode } from '@propusk/contracts/auth';
import { AUTH_MESSAGES } from '@propusk/contracts/texts/auth';
import { ErrorLine } from '../../../components/status-line';
import { useSubmission } from '../../../hooks/use-submission';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import { writeStored } from '../../../lib/storage';
import { requestCode } from '../api/auth-api';

interface SendCodeStepProps {
  phone: string;
  mode: VerificationMode;
  /** What the code is for, shown above the button. */
  explanation: string;
  buttonLabel?: string;
  onSent: (verificationToken: string) => void;
}

/** The first step of the code flows (password reset, phone change, account deletion): send the code. */
export function SendCodeStep({
  phone,
  mode,
  explanation,
  buttonLabel = 'Отправить код',
  onSent,
}: SendCodeStepProps) {
  const submission = useSubmission();

  function send() {
    return submission.run(async () => {
      try {
        const response = await requestCode(phone, mode);
        writeStored('verification_token', response.verification_token);
        onSent(response.verification_token);
      } catch (caught) {
        return errorMessage(caught, { fallback: AUTH_MESSAGES.codeSendError, fields: ['phone', 'mode'] });
      }
    });
  }

  return (
    <Stack gap="sm">
      <Text>{explanation}</Text>
      <Text>
        Телефон: <b>{formatPhone(phone)}</b>
      </Text>
      <ErrorLine message={submission.error} />
      <Button onClick={send} loading={submission.isBusy} fullWidth>
        {buttonLabel}
      </Button>
    </Stack>
  );
}
