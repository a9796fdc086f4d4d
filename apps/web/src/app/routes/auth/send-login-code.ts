import { requestCode } from '../../../features/auth/api/auth-api';
import { codeRequestErrorMessage } from '../../../features/auth/api/auth-errors';
import { ApiError, NetworkError } from '../../../lib/api-client';
import type { AppNavigate } from '../../../lib/navigation';
import type { AppPath, NavigationState } from '../../../lib/paths';
import { writeStored } from '../../../lib/storage';

/**
 * Requests the login code and goes to the screen that takes it (spec.md section 4, "Login" step 2): with the
 * token (also stored, for a reload), or with a null token and the error line, where the resend button is the
 * way out. A screen that keeps a lost connection to itself passes `onNetworkError`.
 */
export async function sendLoginCode(
  navigate: AppNavigate,
  codeScreen: AppPath,
  phone: string,
  onNetworkError?: () => void,
): Promise<void> {
  try {
    const response = await requestCode(phone, 'login');
    writeStored('verification_token', response.verification_token);
    navigate(codeScreen, {
      state: {
        phone,
        verification_token: response.verification_token,
        retry_after: response.retry_after ?? null,
      } satisfies NavigationState,
    });
  } catch (caught) {
    if (onNetworkError && caught instanceof NetworkError) {
      onNetworkError();
      return;
    }
    navigate(codeScreen, {
      state: {
        phone,
        verification_token: null,
        error: codeRequestErrorMessage(caught),
        retry_after: caught instanceof ApiError ? (caught.retryAfter ?? null) : null,
      } satisfies NavigationState,
    });
  }
}
