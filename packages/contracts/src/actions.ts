/** Change history (spec.md sections 2, 3, 7; DESIGN.md section 5). */
import { z } from 'zod';
import { idSchema, pageFields, paginated } from './common.ts';
import { parseDateTimeInput } from './phones.ts';

export const ACTION_TYPES = ['add_phone', 'delete_phone', 'update_phone', 'barrier_setting'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
export const ACTION_AUTHORS = ['user', 'admin', 'system'] as const;
export type ActionAuthor = (typeof ACTION_AUTHORS)[number];
export const ACTION_REASONS = [
  'manual',
  'barrier_exit',
  'access_granted',
  'primary_phone_change',
  'schedule_update',
  'end_time',
  'barrier_deleted',
  'user_deleted',
  'guest_pass',
  // Issue 29 item 2 (docs/decisions/0023): an extra phone gave way to the same number as someone's primary.
  'primary_taken',
] as const;
export type ActionReason = (typeof ACTION_REASONS)[number];

export const HISTORY_PAGE_SIZE = 10;

export const ACTION_MESSAGES = {
  reversedRange: 'The start date is after the end date.',
} as const;

/**
 * Whether a history filter starts after it ends (both given): it could only ever be empty, so it is
 * refused with a message instead (offsets aside, both are read alike, so the order is the same).
 */
export function isReversedRange(from: string | undefined, to: string | undefined): boolean {
  if (!from || !to) return false;
  const start = parseDateTimeInput(from, 0);
  const end = parseDateTimeInput(to, 0);
  return start !== null && end !== null && start.getTime() > end.getTime();
}

/** ISO 8601; without an offset it is the barrier's local time. */
const dateTimeQuery = z
  .string()
  .trim()
  .refine((value) => parseDateTimeInput(value, 0) !== null, {
    error: 'Enter a date and time in ISO 8601 format.',
  });

/** The filters of the history list (also the history export's: exports.ts). */
export const actionFilterFields = {
  action_type: z
    .enum(ACTION_TYPES, { error: `Action type must be one of: ${ACTION_TYPES.join(', ')}.` })
    .optional(),
  created_from: dateTimeQuery.optional(),
  created_to: dateTimeQuery.optional(),
  /** Administrator side only: the actions on this user's phones (his history on his profile). */
  user: idSchema.optional(),
};

/** A filter whose start is after its end is refused (isReversedRange). */
export const noReversedRange: [
  (query: { created_from?: string | undefined; created_to?: string | undefined }) => boolean,
  { error: string; path: string[] },
] = [
  (query) => !isReversedRange(query.created_from, query.created_to),
  { error: ACTION_MESSAGES.reversedRange, path: ['created_to'] },
];

export const actionListQuerySchema = z
  .object({
    ...pageFields(HISTORY_PAGE_SIZE),
    ...actionFilterFields,
  })
  .refine(...noReversedRange);
export type ActionListQuery = z.infer<typeof actionListQuerySchema>;

export const actionSchema = z.object({
  id: z.number().int(),
  action_type: z.enum(ACTION_TYPES),
  created_at: z.string(),
  author: z.enum(ACTION_AUTHORS),
  /** One of ACTION_REASONS, or null. */
  reason: z.string().nullable(),
  /** Id of the related phone (GET /api/phones/{id}/), null for settings. */
  phone: z.number().int().nullable(),
  barrier: z.number().int(),
  /** What a card shows of them, flat beside the ids (DESIGN.md section 2). The phone's number, or null. */
  phone_number: z.string().nullable(),
  /** The full name of the user or administrator who did it (null: the system, a nameless or deleted account). */
  author_name: z.string().nullable(),
  /** For `barrier_setting`: which setting, in Russian (null for phone actions). */
  setting_name: z.string().nullable(),
});
export type Action = z.infer<typeof actionSchema>;

export const actionDetailSchema = actionSchema.extend({
  old_value: z.record(z.string(), z.unknown()).nullable(),
  new_value: z.record(z.string(), z.unknown()).nullable(),
});
export type ActionDetail = z.infer<typeof actionDetailSchema>;

export const actionListSchema = paginated('actions', actionSchema);
export const actionParamsSchema = z.object({ id: idSchema });
export const barrierActionsParamsSchema = z.object({ barrier_id: idSchema });
