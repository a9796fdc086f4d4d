/** The seven limits of a barrier (spec.md sections 3, 5; DESIGN.md section 5). null = no limit. */
import { z } from 'zod';
import './zod-messages.ts';

export const LIMIT_FIELDS = [
  'user_phone_limit',
  'user_temp_phone_limit',
  'global_temp_phone_limit',
  'user_schedule_phone_limit',
  'global_schedule_phone_limit',
  'schedule_interval_limit',
  'sms_weekly_limit',
] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

/** Limits that count phones, so none may exceed the number of phones the device holds. */
export const PHONE_COUNT_LIMIT_FIELDS = [
  'user_phone_limit',
  'user_temp_phone_limit',
  'global_temp_phone_limit',
  'user_schedule_phone_limit',
  'global_schedule_phone_limit',
] as const satisfies readonly LimitField[];

export const MINUTES_PER_DAY = 24 * 60;

export const LIMIT_MESSAGES = {
  wholeNumber: 'Must be a whole number, 0 or more, or null.',
  overDevice: (slots: number) => `Must not exceed the number of phones on the device (${slots}).`,
  overDay: `Must not exceed ${MINUTES_PER_DAY} minutes.`,
  nothingToUpdate: 'Provide at least one limit.',
  userPhones: 'The limit of phones per user on this barrier has been reached.',
  userTemporary: 'The limit of temporary phones per user on this barrier has been reached.',
  globalTemporary: 'The limit of temporary phones on this barrier has been reached.',
  userSchedule: 'The limit of schedule phones per user on this barrier has been reached.',
  globalSchedule: 'The limit of schedule phones on this barrier has been reached.',
  noFreeSlot: 'The device of this barrier has no free slot.',
} as const;

const limitValueSchema = z
  .number({ error: LIMIT_MESSAGES.wholeNumber })
  .int({ error: LIMIT_MESSAGES.wholeNumber })
  .min(0, { error: LIMIT_MESSAGES.wholeNumber })
  .max(2_000_000_000, { error: LIMIT_MESSAGES.wholeNumber })
  .nullable();

/**
 * Shares of `sms_weekly_limit` (issue 29 item 3, docs/decisions/0023): what one resident's own changes and
 * openings may spend in seven days, and the reserve only the owner and staff spend. null = the default
 * (reserve: 30% of the limit; a resident's share: 20% of the rest, at least 2).
 */
export const SMS_SHARE_FIELDS = ['sms_resident_share', 'sms_owner_reserve'] as const;
export type SmsShareField = (typeof SMS_SHARE_FIELDS)[number];

/** What is left of the weekly SMS limit this week (null: the barrier has no weekly limit). */
export const smsBudgetSchema = z.object({
  limit: z.number().int(),
  /** One resident's share and the owner's reserve as they apply (the defaults filled in). */
  share: z.number().int(),
  reserve: z.number().int(),
  /** The caller's own share left (a resident; for the owner and staff, what any one resident has left at most). */
  share_left: z.number().int(),
  /** What all residents together may still spend. */
  residents_left: z.number().int(),
  /** What is left of the reserve (owner and staff). */
  reserve_left: z.number().int(),
  total_left: z.number().int(),
});
export type SmsBudget = z.infer<typeof smsBudgetSchema>;

export const limitsSchema = z.object({
  user_phone_limit: z.number().int().nullable(),
  user_temp_phone_limit: z.number().int().nullable(),
  global_temp_phone_limit: z.number().int().nullable(),
  user_schedule_phone_limit: z.number().int().nullable(),
  global_schedule_phone_limit: z.number().int().nullable(),
  schedule_interval_limit: z.number().int().nullable(),
  sms_weekly_limit: z.number().int().nullable(),
  sms_resident_share: z.number().int().nullable(),
  sms_owner_reserve: z.number().int().nullable(),
  sms_budget: smsBudgetSchema.nullable(),
});
export type Limits = z.infer<typeof limitsSchema>;

/** Fields left out stay as they are; null removes a limit. */
export const updateLimitsBodySchema = z
  .object({
    user_phone_limit: limitValueSchema.optional(),
    user_temp_phone_limit: limitValueSchema.optional(),
    global_temp_phone_limit: limitValueSchema.optional(),
    user_schedule_phone_limit: limitValueSchema.optional(),
    global_schedule_phone_limit: limitValueSchema.optional(),
    schedule_interval_limit: limitValueSchema.optional(),
    sms_weekly_limit: limitValueSchema.optional(),
    sms_resident_share: limitValueSchema.optional(),
    sms_owner_reserve: limitValueSchema.optional(),
  })
  .refine((body) => [...LIMIT_FIELDS, ...SMS_SHARE_FIELDS].some((field) => body[field] !== undefined), {
    error: LIMIT_MESSAGES.nothingToUpdate,
    path: ['non_field_errors'],
  });
export type UpdateLimitsBody = z.infer<typeof updateLimitsBodySchema>;
