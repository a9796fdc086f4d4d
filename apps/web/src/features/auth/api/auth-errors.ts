/** The error lines of the login and code screens (spec.md section 8 "Login"). */
import { AUTH_MESSAGES } from '@propusk/contracts/texts/auth';
import { ApiError, NetworkError } from '../../../lib/api-client';
import { errorMessage, joinedFieldText, withRetryHint } from '../../../lib/errors';

/**
 * A code request made from the login screen that failed with an answer from the server. The line is shown on
 * the code screen, whose countdown box counts the server's `retry_after` down: no second number here.
 */
export function codeRequestErrorMessage(error: unknown): string {
  if (error instanceof NetworkError) return AUTH_MESSAGES.codeServerUnreachable;
  // The code that went out belongs to the window that asked for it: say where it is (issue 32 item 6).
  if (error instanceof ApiError && error.code === 'code_already_sent') return AUTH_MESSAGES.codeSentElsewhere;
  return errorMessage(error, {
    fallback: AUTH_MESSAGES.codeSendFailedForVerify,
    fields: ['phone', 'mode'],
    retryHint: false,
  });
}

/** 'Отправить код повторно' failed (the countdown box under it shows `retry_after`, so the line does not). */
export function resendErrorMessage(error: unknown): string {
  if (error instanceof NetworkError) return AUTH_MESSAGES.resendNetwork;
  if (error instanceof ApiError && error.status === 400) {
    const joined = joinedFieldText(error, ['phone', 'mode']);
    if (joined) return joined;
  }
  return errorMessage(error, {
    fallback: AUTH_MESSAGES.resendFailed,
    retryHint: false,
    byStatus: {
      403: AUTH_MESSAGES.resendBlocked,
      404: AUTH_MESSAGES.resendUserNotFound,
      429: AUTH_MESSAGES.resendRateLimited,
    },
  });
}

/** The verify call failed (wrong code, expired token…). */
export function verifyErrorMessage(
  error: unknown,
  fallback: string = AUTH_MESSAGES.verificationFailed,
): string {
  return errorMessage(error, { fallback, network: AUTH_MESSAGES.verificationNetwork });
}

export { withRetryHint };
