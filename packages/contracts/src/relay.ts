/**
 * Driving the gate's relay (issue 16): opening it once from the app, and the emergency hold-open with its end
 * (п. 71 Правил противопожарного режима в РФ, ПП РФ № 1479).
 */
import { z } from 'zod';
import { isReversedRange } from './actions.ts';
import { humanTextSchema } from './clean-text.ts';
import { idField, idSchema, pageFields, paginated } from './common.ts';
import { parseDateTimeInput } from './phones.ts';

/** The rule the emergency screen serves, as it names it. */
export const EMERGENCY_RULE =
  'п. 71 Правил противопожарного режима в РФ (Постановление Правительства РФ № 1479)';

export const OPENING_STATUSES = ['sent', 'confirmed', 'failed'] as const;
export type OpeningStatus = (typeof OPENING_STATUSES)[number];
/** Why an opening failed: not sent in time, no answer, wrong password, not understood, cancelled by a hold. */
export const OPENING_FAILURES = [
  'expired',
  'no_reply',
  'wrong_password',
  'not_understood',
  'cancelled',
  'late',
] as const;

/**
 * How long after the tap an opening may reach the server (issue 32 item 1): a tap the browser or the network
 * held back longer is refused and logged as not sent (failure `late`). The client sends the tap's time in the
 * server's clock (corrected by the `Date` header of its last answer), so a phone clock set wrong does not count.
 */
export const OPENING_TAP_WINDOW_MS = 10_000;

/** The opening's body. `tapped_at` is optional: the spec's client (no body) keeps working. */
export const openingRequestSchema = z
  .object({
    /** When the person tapped «Открыть» (ISO 8601). */
    tapped_at: z
      .string()
      .trim()
      .max(40, { error: 'Ensure this field has at most 40 characters.' })
      .refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)), {
        error: 'Enter a date and time in ISO 8601 format.',
      })
      .optional(),
  })
  .nullish();
export type OpeningRequest = z.infer<typeof openingRequestSchema>;

export const openingSchema = z.object({
  id: z.number().int(),
  barrier: z.number().int(),
  /** Who opened it (null: a deleted account). */
  user: z.number().int().nullable(),
  user_name: z.string().nullable(),
  user_phone: z.string().nullable(),
  via: z.enum(['app', 'admin']),
  requested_at: z.string(),
  status: z.enum(OPENING_STATUSES),
  failure: z.string().nullable(),
  confirmed_at: z.string().nullable(),
});
export type Opening = z.infer<typeof openingSchema>;

const dateTimeQuery = z
  .string()
  .trim()
  .refine((value) => parseDateTimeInput(value, 0) !== null, {
    error: 'Enter a date and time in ISO 8601 format.',
  });

export const openingListQuerySchema = z
  .object({
    ...pageFields(10),
    status: z.enum(OPENING_STATUSES, { error: 'Invalid choice.' }).optional(),
    /** Administrator side: digits of the opener's phone (a substring). */
    phone: z
      .string()
      .trim()
      .max(16, { error: 'Ensure this field has at most 16 characters.' })
      .regex(/^\+?\d*$/, { error: 'Invalid format.' })
      .optional(),
    /** Administrator side: the openings of this user. */
    user: idSchema.optional(),
    requested_from: dateTimeQuery.optional(),
    requested_to: dateTimeQuery.optional(),
  })
  .refine((query) => !isReversedRange(query.requested_from, query.requested_to), {
    error: 'The start date is after the end date.',
    path: ['requested_to'],
  });
export type OpeningListQuery = z.infer<typeof openingListQuerySchema>;
export const openingListSchema = paginated('openings', openingSchema);

export const HOLD_REASON_MAX = 500;
export const emergencyHoldCreateSchema = z.object({
  /** The barriers to hold open, or "all": every barrier the administrator may hold. */
  barrier_ids: z.union([
    z.literal('all'),
    z
      .array(idField())
      .min(1, { error: 'Ensure this field has at least 1 items.' })
      .max(1000, { error: 'Ensure this field has at most 1000 items.' }),
  ]),
  reason: humanTextSchema({
    error: 'This field is required.',
    min: { length: 3, error: 'Ensure this field has at least 3 characters.' },
    max: { length: HOLD_REASON_MAX, error: 'Ensure this field has at most 500 characters.' },
  }),
});
export type EmergencyHoldCreate = z.infer<typeof emergencyHoldCreateSchema>;

/**
 * One barrier of a hold. `phase`: hold (the hold runs) | end (it was ended). `state` of that phase's commands:
 * sent (queued or waiting for the device) | confirmed (every command answered) | failed (a command failed) |
 * refused (nothing was sent: `refused` says why). `retrying`: an attempt got no answer and another follows.
 */
export const holdBarrierSchema = z.object({
  barrier: z.number().int(),
  address: z.string(),
  phase: z.enum(['hold', 'end']),
  state: z.enum(['sent', 'confirmed', 'failed', 'refused']),
  refused: z.string().nullable(),
  retrying: z.boolean(),
  attempts: z.number().int(),
  /** The relay time written back at the end (seconds; null: the model has none, or not ended). */
  restored_relay_seconds: z.number().int().nullable(),
});
export type HoldBarrier = z.infer<typeof holdBarrierSchema>;

export const emergencyHoldSchema = z.object({
  id: z.number().int(),
  reason: z.string(),
  rule: z.string(),
  started_at: z.string(),
  started_by: z.number().int().nullable(),
  started_by_name: z.string().nullable(),
  ended_at: z.string().nullable(),
  ended_by: z.number().int().nullable(),
  ended_by_name: z.string().nullable(),
  barriers: z.array(holdBarrierSchema),
});
export type EmergencyHold = z.infer<typeof emergencyHoldSchema>;
export const emergencyHoldListSchema = paginated('holds', emergencyHoldSchema);
export const holdListQuerySchema = z.object({
  ...pageFields(10),
});
