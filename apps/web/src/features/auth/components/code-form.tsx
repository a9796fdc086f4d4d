import { Button, Stack, Text } from '@mantine/core';
import type { VerificationMode } from '@propusk/contracts/auth';
import type { ErrorCode } from '@propusk/contracts/error-codes';
import { AUTH_MESSAGES, AUTH_VALIDATION, attemptsLeftText } from '@propusk/contracts/texts/auth';
import { type FormEvent, useState } from 'react';
import { CodeInput, isSixDigitCode } from '../../../components/code-input';
import { ResendCountdown } from '../../../components/resend-countdown';
import { ErrorLine, SuccessLine } from '../../../components/status-line';
import { useCountdown } from '../../../hooks/use-countdown';
import { useSubmission } from '../../../hooks/use-submission';
import { ApiError } from '../../../lib/api-client';
import { formatPhone } from '../../../lib/phone';
import { writeStored } from '../../../lib/storage';
import { CODE_VERIFIED_MESSAGE, requestCode, type VerifyCodeResponse, verifyCode } from '../api/auth-api';
import { resendErrorMessage, verifyErrorMessage } from '../api/auth-errors';

export const RESEND_COOLDOWN_SECONDS = 60;
const WRONG_CODE: ErrorCode = 'invalid_code';

interface CodeFormProps {
  phone: string;
  mode: VerificationMode;
  /** Token of the code already sent (null when the request failed: the resend button is the way out). */
  initialToken: string | null;
  initialError?: string | null;
  /** The server's `retry_after` of the code request, when known: the one countdown starts there. */
  initialSecondsLeft?: number | null;
  submitLabel?: string;
  /** Fallback line when the verify call fails without a usable text. */
  verifyErrorFallback?: string;
  /** Replaces the translation of a wrong code (the new-phone step says 'Код для нового номера неверный'). */
  wrongCodeText?: string;
  /**
   * Runs once the code is verified, with the verified token and the verify answer (a login's says whether the
   * privacy policy must be shown first). Resolves to an error line (a string) to show, or anything else when it
   * has moved on (navigated).
   */
  onVerified: (verificationToken: string, verified: VerifyCodeResponse) => Promise<unknown>;
}

/**
 * Code entry with 'Подтвердить', 'Отправить код повторно' and the 60 s countdown (spec.md section 4, steps 3
 * and 4). A resend replaces the verification token; 201 means success.
 */
export function CodeForm({
  phone,
  mode,
  initialToken,
  initialError,
  initialSecondsLeft,
  submitLabel = 'Подтвердить',
  verifyErrorFallback,
  wrongCodeText,
  onVerified,
}: CodeFormProps) {
  const [code, setCode] = useState('');
  const [isTouched, setIsTouched] = useState(false);
  const [token, setToken] = useState(initialToken);
  const { error, setError, isBusy, run } = useSubmission(initialError ?? null);
  const [notice, setNotice] = useState<string | null>(null);
  const { secondsLeft, restart } = useCountdown(
    RESEND_COOLDOWN_SECONDS,
    initialSecondsLeft ?? RESEND_COOLDOWN_SECONDS,
  );
  const codeError = isTouched && !isSixDigitCode(code) ? AUTH_VALIDATION.code : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setIsTouched(true);
    setNotice(null);
    if (!isSixDigitCode(code)) {
      setError(AUTH_VALIDATION.code);
      return;
    }
    if (!token) {
      setError(verifyErrorFallback ?? AUTH_MESSAGES.verificationFailed);
      return;
    }
    await run(async () => {
      try {
        const response = await verifyCode({ phone, code, verification_token: token });
        if (response?.message !== CODE_VERIFIED_MESSAGE) {
          return response?.message || verifyErrorFallback || AUTH_MESSAGES.verificationFailed;
        }
        return await onVerified(token, response);
      } catch (caught) {
        const isWrongCode = caught instanceof ApiError && caught.code === WRONG_CODE;
        const line =
          isWrongCode && wrongCodeText ? wrongCodeText : verifyErrorMessage(caught, verifyErrorFallback);
        // How many tries this code has left (issue 32 item 6).
        const left = isWrongCode ? (caught.body as { attempts_left?: unknown }).attempts_left : undefined;
        if (typeof left !== 'number') return line;
        // «Код для нового номера неверный» (spec) ends without a full stop: the tries are a sentence of their own.
        return `${/[.!?…]$/.test(line) ? line : `${line}.`} ${attemptsLeftText(left)}`;
      }
    });
  }

  async function resend() {
    setNotice(null);
    await run(async () => {
      try {
        const response = await requestCode(phone, mode);
        setToken(response.verification_token);
        writeStored('verification_token', response.verification_token);
        setCode('');
        setIsTouched(false);
        setNotice('Код отправлен повторно');
        restart(response.retry_after ?? RESEND_COOLDOWN_SECONDS);
      } catch (caught) {
        // The server says how long to wait: the countdown box shows it, the error line does not repeat it.
        if (caught instanceof ApiError && caught.retryAfter !== undefined) restart(caught.retryAfter);
        return resendErrorMessage(caught);
      }
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text>
          Телефон: <b data-testid="code-phone">{formatPhone(phone)}</b>
        </Text>
        {token ? (
          <CodeInput
            value={code}
            onChange={(value) => {
              setCode(value);
              if (value.length === 6) setIsTouched(true);
            }}
            onBlur={() => setIsTouched(true)}
            error={codeError}
            description="На телефон выслан код подтверждения"
            required
            autoFocus
          />
        ) : null}
        <ErrorLine message={error} />
        {/* No code of this window's own (the request was refused, e.g. a code went out from another window):
            no «выслан», no field that could only fail; the resend below is the way on (issue 32 item 6). */}
        {token || error ? null : <Text data-testid="code-missing">{AUTH_MESSAGES.noCodeYet}</Text>}
        <SuccessLine message={notice} />
        {token ? (
          <Button type="submit" loading={isBusy} fullWidth>
            {submitLabel}
          </Button>
        ) : null}
        <Button variant="light" onClick={resend} disabled={secondsLeft > 0 || isBusy} fullWidth>
          Отправить код повторно
        </Button>
        <ResendCountdown secondsLeft={secondsLeft} />
      </Stack>
    </form>
  );
}
