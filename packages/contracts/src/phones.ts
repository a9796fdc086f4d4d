/**
 * Phones of users on barriers (spec.md sections 3, 5, 7; DESIGN.md section 5). The API adds `permanent`,
 * `temporary` and `schedule` phones; `primary` (the user's own number) is made by the server on access.
 */
import { z } from 'zod';
import { humanTextSchema } from './clean-text.ts';
import { idField, idSchema, PHONE_PATTERN, pageQuerySchema, paginated } from './common.ts';
import { WEEKDAYS } from './texts/phones.ts';

export const PHONE_TYPES = ['primary', 'permanent', 'temporary', 'schedule'] as const;
export type PhoneType = (typeof PHONE_TYPES)[number];
export const ADDABLE_PHONE_TYPES = ['permanent', 'temporary', 'schedule'] as const;
export type AddablePhoneType = (typeof ADDABLE_PHONE_TYPES)[number];
export const PHONE_STATUSES = ['pending', 'ok', 'error'] as const;

/** The week's days in a schedule's order (texts/phones.ts holds them with their labels; no import of zod there). */
export const SCHEDULE_WEEKDAYS = WEEKDAYS;

export const PHONE_NAME_MAX_LENGTH = 100;
export const SCHEDULE_INTERVALS_PER_DAY_MAX = 24;

export const PHONE_MESSAGES = {
  nameAndPhoneRequired: 'Enter a name and a phone number.',
  phoneFormat: 'Phone must be in the format +7XXXXXXXXXX.',
  nameRequired: 'Enter a name.',
  nameTooLong: `Name must be at most ${PHONE_NAME_MAX_LENGTH} characters.`,
  type: `Type must be one of: ${ADDABLE_PHONE_TYPES.join(', ')}.`,
  timesRequired: 'Enter the start and end time.',
  startBeforeEnd: 'The start time must be earlier than the end time.',
  dateTimeFormat: 'Enter a date and time in ISO 8601 format.',
  endInPast: 'The end time must be in the future.',
  scheduleFormat: 'Schedule must map weekdays (monday..sunday) to lists of {start_time, end_time} as HH:MM.',
  scheduleInvalid: 'Some schedule intervals have an invalid time.',
  scheduleOverlap: 'Schedule intervals of one day must not overlap.',
  scheduleEmpty: 'Add at least one schedule interval.',
  userRequired: 'Choose the user.',
  userHasNoAccess: 'This user has no access to the barrier.',
  duplicate: 'This number is already on this barrier.',
  primaryCannotBeDeleted:
    'The primary phone cannot be deleted; leave the barrier or remove the user instead.',
  notActive: 'This phone has been deleted.',
  noSchedule: 'This phone has no schedule.',
  noWindow: 'Only temporary phones have a start and end time.',
  nothingToUpdate: 'Provide name, start_time or end_time.',
} as const;

/** 'HH:MM' from 00:00 to 23:59, and '24:00' as the end of a day. */
const CLOCK_TIME_PATTERN = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
/** ISO 8601 date and time; without an offset it is the barrier's local time. */
const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

export function clockMinutes(text: string): number {
  const [hours, minutes] = text.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/**
 * Parses an ISO date and time; one without an offset is read in the given offset (the barrier's local time).
 * Returns null when the text is not a real date.
 */
export function parseDateTimeInput(text: string, defaultOffsetMinutes: number): Date | null {
  if (!DATE_TIME_PATTERN.test(text)) return null;
  const normalized = text.replace(' ', 'T');
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(normalized);
  let value = normalized;
  if (!hasOffset) {
    const sign = defaultOffsetMinutes < 0 ? '-' : '+';
    const absolute = Math.abs(defaultOffsetMinutes);
    value += `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
  }
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A date and time as the API answers it (DESIGN.md section 2): ISO 8601 with the barrier's offset, to the
 * second (`2026-11-23T10:00:00+03:00`), so that its first 16 characters are the local time a person entered.
 */
export function formatDateTimeOutput(date: Date, offsetMinutes: number): string {
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
  return `${local.toISOString().slice(0, 19)}${offset}`;
}

export const scheduleIntervalSchema = z.object({
  start_time: z.string({ error: PHONE_MESSAGES.scheduleFormat }).regex(CLOCK_TIME_PATTERN, {
    error: PHONE_MESSAGES.scheduleInvalid,
  }),
  end_time: z.string({ error: PHONE_MESSAGES.scheduleFormat }).regex(CLOCK_TIME_PATTERN, {
    error: PHONE_MESSAGES.scheduleInvalid,
  }),
});
export type ScheduleIntervalInput = z.infer<typeof scheduleIntervalSchema>;

const dayIntervalsSchema = z
  .array(scheduleIntervalSchema, { error: PHONE_MESSAGES.scheduleFormat })
  .max(SCHEDULE_INTERVALS_PER_DAY_MAX, { error: PHONE_MESSAGES.scheduleFormat });

/** The weekly map: monday..sunday → intervals (missing day = no intervals). Unknown keys are dropped. */
export const weeklyScheduleSchema = z.object({
  monday: dayIntervalsSchema.optional(),
  tuesday: dayIntervalsSchema.optional(),
  wednesday: dayIntervalsSchema.optional(),
  thursday: dayIntervalsSchema.optional(),
  friday: dayIntervalsSchema.optional(),
  saturday: dayIntervalsSchema.optional(),
  sunday: dayIntervalsSchema.optional(),
});
export type WeeklyScheduleInput = z.infer<typeof weeklyScheduleSchema>;

/** What is wrong with a schedule's intervals: start before end (no crossing midnight), no overlaps, not empty. */
export function scheduleProblems(schedule: WeeklyScheduleInput): string[] {
  const problems = new Set<string>();
  let count = 0;
  for (const day of SCHEDULE_WEEKDAYS) {
    const intervals = [...(schedule[day] ?? [])]
      .map((interval) => ({ start: clockMinutes(interval.start_time), end: clockMinutes(interval.end_time) }))
      .sort((a, b) => a.start - b.start);
    count += intervals.length;
    for (const [index, interval] of intervals.entries()) {
      if (interval.start >= interval.end) problems.add(PHONE_MESSAGES.scheduleInvalid);
      const previous = intervals[index - 1];
      if (previous && interval.start < previous.end) problems.add(PHONE_MESSAGES.scheduleOverlap);
    }
  }
  if (count === 0) problems.add(PHONE_MESSAGES.scheduleEmpty);
  return [...problems];
}

/** The shortest interval of a schedule, in minutes (Infinity when it has none). */
export function shortestIntervalMinutes(schedule: WeeklyScheduleInput): number {
  let shortest = Number.POSITIVE_INFINITY;
  for (const day of SCHEDULE_WEEKDAYS) {
    for (const interval of schedule[day] ?? []) {
      shortest = Math.min(shortest, clockMinutes(interval.end_time) - clockMinutes(interval.start_time));
    }
  }
  return shortest;
}

/** Only used to order start and end inside the schema; the server re-checks with the barrier's offset. */
const CHECK_OFFSET_MINUTES = 180;

const dateTimeInputSchema = z
  .string({ error: PHONE_MESSAGES.dateTimeFormat })
  .trim()
  .refine((value) => parseDateTimeInput(value, CHECK_OFFSET_MINUTES) !== null, {
    error: PHONE_MESSAGES.dateTimeFormat,
  });

const phoneNameSchema = humanTextSchema({
  error: PHONE_MESSAGES.nameAndPhoneRequired,
  min: { length: 1, error: PHONE_MESSAGES.nameAndPhoneRequired },
  max: { length: PHONE_NAME_MAX_LENGTH, error: PHONE_MESSAGES.nameTooLong },
});

const phoneNumberSchema = z
  .string({ error: PHONE_MESSAGES.nameAndPhoneRequired })
  .trim()
  .min(1, { error: PHONE_MESSAGES.nameAndPhoneRequired })
  .regex(PHONE_PATTERN, { error: PHONE_MESSAGES.phoneFormat });

interface TimedFields {
  start_time?: string | null | undefined;
  end_time?: string | null | undefined;
}

function checkWindow(body: TimedFields, ctx: z.RefinementCtx, required: boolean): void {
  if (!body.start_time || !body.end_time) {
    if (required || body.start_time || body.end_time) {
      const missing = !body.start_time ? 'start_time' : 'end_time';
      ctx.addIssue({ code: 'custom', path: [missing], message: PHONE_MESSAGES.timesRequired });
    }
    return;
  }
  const start = parseDateTimeInput(body.start_time, CHECK_OFFSET_MINUTES);
  const end = parseDateTimeInput(body.end_time, CHECK_OFFSET_MINUTES);
  if (start && end && start >= end) {
    ctx.addIssue({ code: 'custom', path: ['start_time'], message: PHONE_MESSAGES.startBeforeEnd });
  }
}

const addPhoneFields = {
  phone: phoneNumberSchema,
  name: phoneNameSchema,
  type: z.enum(ADDABLE_PHONE_TYPES, { error: PHONE_MESSAGES.type }),
  start_time: dateTimeInputSchema.nullish(),
  end_time: dateTimeInputSchema.nullish(),
  schedule: weeklyScheduleSchema.nullish(),
};

function checkAddPhone(
  body: { type: AddablePhoneType; schedule?: WeeklyScheduleInput | null } & TimedFields,
  ctx: z.RefinementCtx,
): void {
  if (body.type === 'temporary') checkWindow(body, ctx, true);
  if (body.type === 'schedule') {
    if (!body.schedule) {
      ctx.addIssue({ code: 'custom', path: ['schedule'], message: PHONE_MESSAGES.scheduleEmpty });
      return;
    }
    for (const message of scheduleProblems(body.schedule)) {
      ctx.addIssue({ code: 'custom', path: ['schedule'], message });
    }
  }
}

/** POST /api/barriers/{id}/phones/ */
export const addPhoneBodySchema = z.object(addPhoneFields).superRefine(checkAddPhone);
export type AddPhoneBody = z.infer<typeof addPhoneBodySchema>;

/** POST /api/admin/barriers/{id}/phones/ */
export const adminAddPhoneBodySchema = z
  .object({
    ...addPhoneFields,
    user: idField(PHONE_MESSAGES.userRequired),
  })
  .superRefine(checkAddPhone);
export type AdminAddPhoneBody = z.infer<typeof adminAddPhoneBodySchema>;

/** PATCH /api/phones/{id}/ and /api/admin/phones/{id}/ (`user` of the admin variant is ignored). */
export const updatePhoneBodySchema = z
  .object({
    name: humanTextSchema({
      error: PHONE_MESSAGES.nameRequired,
      min: { length: 1, error: PHONE_MESSAGES.nameRequired },
      max: { length: PHONE_NAME_MAX_LENGTH, error: PHONE_MESSAGES.nameTooLong },
    }).optional(),
    start_time: dateTimeInputSchema.nullish(),
    end_time: dateTimeInputSchema.nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.name === undefined && !body.start_time && !body.end_time) {
      ctx.addIssue({ code: 'custom', path: ['non_field_errors'], message: PHONE_MESSAGES.nothingToUpdate });
    }
    if (body.start_time && body.end_time) checkWindow(body, ctx, false);
  });
export type UpdatePhoneBody = z.infer<typeof updatePhoneBodySchema>;

/** PUT /api/phones/{id}/schedule/: the body is the weekly map itself. */
export const putScheduleBodySchema = weeklyScheduleSchema.superRefine((schedule, ctx) => {
  for (const message of scheduleProblems(schedule)) {
    ctx.addIssue({ code: 'custom', path: ['schedule'], message });
  }
});

export const scheduleResponseSchema = weeklyScheduleSchema;

export const phoneSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string(),
  type: z.enum(PHONE_TYPES),
  /** Device sync: pending while its command is in flight, ok when confirmed, error when it failed. */
  status: z.enum(PHONE_STATUSES),
  is_active: z.boolean(),
  /** Barrier id. */
  barrier: z.number().int(),
  /** Owner (user id) of the phone. */
  user: z.number().int(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  schedule: weeklyScheduleSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Phone = z.infer<typeof phoneSchema>;

export const phoneListSchema = paginated('phones', phoneSchema);

export const phoneListQuerySchema = pageQuerySchema;
export const adminPhoneListQuerySchema = pageQuerySchema.extend({ user: idSchema.optional() });
export const phoneParamsSchema = z.object({ id: idSchema });
