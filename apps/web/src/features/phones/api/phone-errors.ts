import { PHONE_MESSAGES } from '@propusk/contracts/texts/phones';
import { errorMessage } from '../../../lib/errors';

/** spec.md section 8: the first available of phone, type, detail, schedule, start_time, end_time. */
const PHONE_ERROR_FIELDS = ['phone', 'type', 'detail', 'schedule', 'start_time', 'end_time', 'name'] as const;

export function phoneSaveErrorMessage(error: unknown): string {
  return errorMessage(error, { fallback: PHONE_MESSAGES.phoneSaveFailed, fields: PHONE_ERROR_FIELDS });
}
