import { z } from 'zod';

/**
 * A phone's device status: `pending` while its command is on its way to the device, `ok` once the device
 * confirmed it, `error` when it failed after every retry (an administrator may ask for another try).
 */
export const PHONE_STATUSES = ['pending', 'ok', 'error'] as const;
export type PhoneStatus = (typeof PHONE_STATUSES)[number];
export const phoneStatusSchema = z.enum(PHONE_STATUSES);

/** `POST /api/admin/phones/{id}/retry/`: the phone's status once its commands are queued again. */
export const retryPhoneResponseSchema = z.object({
  id: z.number().int(),
  status: phoneStatusSchema,
});

export const PHONE_NOT_IN_ERROR_DETAIL = 'Only a phone in error can be retried.';
