/** The error lines of the login and code screens (spec.md section 8 "Login"). */
import { MESSAGES } from '@propusk/contracts/messages';
import { ApiError, NetworkError } from '../../../lib/api-client';
import { errorMessage, joinedFieldText, withRetryHint } from '../../../lib/errors';

/**
 * A code request made from the login screen that failed with an answer from the server. The line is shown on
 * the code screen, whose countdown box counts the server's `retry_after` down: no second number here.
 */
export function codeRequestErrorMessage(error: unknown): string {
  if (error instanceof NetworkError) return MESSAGES.codeServerUnreachable;
  return errorMessage(error, {
    fallback: MESSAGES.codeSendFailedForVerify,
    fields: ['phone', 'mode'],
    retryHint: false,
  });
}

/** 'Отправить код повторно' failed (the countdown box under it shows `retry_after`, so the line does not). */
export function resendErrorMessage(error: unknown): string {
  if (error instanceof NetworkError) return MESSAGES.resendNetwork;
  if (error instanceof ApiError && error.status === 400) {
    const joined = joinedFieldText(error, ['phone', 'mode']);
    if (joined) return joined;
  }
  return errorMessage(error, {
    fallback: MESSAGES.resendFailed,
    retryHint: false,
    byStatus: {
      403: MESSAGES.resendBlocked,
      404: MESSAGES.resendUserNotFound,
      429: MESSAGES.resendRateLimited,
    },
  });
}

/** The verify call failed (wrong code, expired token…). */
export function verifyErrorMessage(error: unknown, fallback: string = MESSAGES.verificationFailed): string {
  return errorMessage(error, { fallback, network: MESSAGES.verificationNetwork });
}

export { withRetryHint };
