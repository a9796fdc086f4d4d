import { z } from 'zod';
import { phoneSchema } from './common.ts';

/** `POST /api/sms/inbound/`: an SMS received from a device, as any gateway adapter hands it over. */
export const inboundSmsBodySchema = z.object({
  from: phoneSchema,
  text: z.string({ error: 'Text must be a string.' }).max(2000, { error: 'Text is too long.' }),
});
export type InboundSmsBody = z.infer<typeof inboundSmsBodySchema>;

export const inboundSmsResponseSchema = z.object({
  /**
   * `matched`: the SMS answered a device command in flight; `unmatched`: stored only; `duplicate`: this SMS
   * (same gateway message id) was delivered before and is not handled again.
   */
  status: z.enum(['matched', 'unmatched', 'duplicate']),
});

/**
 * The webhook of the Android "SMS Gateway" app for a received SMS (`sms:received`). Only the fields the
 * server reads are listed; the others are ignored.
 */
export const androidWebhookBodySchema = z.object({
  event: z.string(),
  payload: z
    .object({
      /** The app's id of the SMS (a hash of sender, time, SIM and text): the same for a retried webhook. */
      messageId: z.string().max(200).optional(),
      message: z.string().max(2000).optional(),
      phoneNumber: z.string().max(32).optional(),
    })
    .optional(),
});

/** `GET /api/admin/balance/`: the SMS gateway's balance, null when the gateway reports none. */
export const balanceResponseSchema = z.object({
  balance: z.number().nullable(),
  currency: z.string().nullable(),
});
export type BalanceResponse = z.infer<typeof balanceResponseSchema>;
