import { z } from 'zod';
import './zod-messages.ts';

/**
 * «Проверка устройства по модели» (`/api/admin/barriers/{id}/conformance/`, issue 42): every form of the
 * barrier's model sent once to its unit, each reply judged against the model's sheet; a text of the unit's
 * own is learnt into the barrier's device profile.
 */
export const CONFORMANCE_VERDICTS = [
  'as_sheet',
  'different',
  'no_answer',
  'refused',
  'format_error',
  // A call step (the clock's digit order, issue 42 item 2): the gate opened / did not open for the call.
  'opened',
  'not_opened',
] as const;
export type ConformanceVerdictCode = (typeof CONFORMANCE_VERDICTS)[number];

export const CONFORMANCE_STEP_STATES = ['pending', 'sent', 'done', 'skipped'] as const;

export const startConformanceBodySchema = z
  .object({
    /** «Сменить пароль на тот же»: the password form is sent too (the unit keeps its password). */
    include_password: z.boolean({ error: 'Must be true or false.' }).optional(),
    /** The clock's digit order settled by a call (issue 42 item 2): the person calls the unit when asked. */
    include_call: z.boolean({ error: 'Must be true or false.' }).optional(),
    /** The number he calls from, when not the test number ('+7XXXXXXXXXX'; never one the barrier holds). */
    call_number: z
      .string()
      .max(20)
      .regex(/^\+7\d{10}$/, 'Номер в формате +7XXXXXXXXXX.')
      .optional(),
    /** «Отключите питание устройства на минуту»: the unit's own power SMS captured (issue 42 item 3). */
    include_power: z.boolean({ error: 'Must be true or false.' }).optional(),
  })
  .default({});
export type StartConformanceBody = z.infer<typeof startConformanceBodySchema>;

/**
 * The person's answer to the step that asks him (`asks`): «Открылось?» `opened` / `not_opened` to a call;
 * `power_done` once the supply is back (the texts captured meanwhile are learnt), `skip` to skip the power cut.
 */
export const CONFORMANCE_ANSWERS = ['opened', 'not_opened', 'power_done', 'skip'] as const;
export const answerConformanceBodySchema = z.object({ answer: z.enum(CONFORMANCE_ANSWERS) });
export type ConformanceAnswer = (typeof CONFORMANCE_ANSWERS)[number];

export const conformanceStepSchema = z.object({
  key: z.string(),
  /** Russian. */
  label: z.string(),
  state: z.enum(CONFORMANCE_STEP_STATES),
  /** The SMS as the device log keeps it (the password masked); null until sent. */
  sent_text: z.string().nullable(),
  /** The unit's answer; null: none (yet). */
  reply: z.string().nullable(),
  verdict: z.enum(CONFORMANCE_VERDICTS).nullable(),
  /** Whether the model's sheet documents a reply text for this form. */
  expects_reply: z.boolean(),
  /** The unit's text as learnt into the profile (a reply form), when it was. */
  learnt: z.string().nullable(),
  /** Russian: what the step found beside its verdict (a read that shows another number, a skipped delete). */
  note: z.string().nullable(),
  /** What the step asks of the person while it waits (`call`: call the unit from `call_number`; `power`). */
  asks: z.enum(['call', 'power']).nullable(),
  call_number: z.string().nullable(),
  /** The unit's own texts a power step captured so far. */
  captured: z.array(z.string()),
});
export type ConformanceStepView = z.infer<typeof conformanceStepSchema>;

export const conformanceRunSchema = z.object({
  id: z.number().int(),
  status: z.enum(['running', 'finished', 'stopped']),
  stop_requested: z.boolean(),
  slot: z.number().int(),
  /** The test number: the number of the person who started the run ('+7XXXXXXXXXX'). */
  test_number: z.string(),
  steps: z.array(conformanceStepSchema),
  /** Every step answered as the sheet says (a run that ran to its end). */
  all_confirmed: z.boolean(),
  /** Russian: why it ended early. */
  end_reason: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ConformanceRun = z.infer<typeof conformanceRunSchema>;

/** What a run would do, before it starts (the plan screen). */
export const conformancePlanSchema = z.object({
  /** False: a run cannot start now; `reason` is an error code. */
  available: z.boolean(),
  reason: z.string().nullable(),
  model: z.string(),
  model_label: z.string(),
  slot: z.number().int().nullable(),
  test_number: z.string().nullable(),
  /** Steps without and with the password form: one SMS each (the unit's answers are not counted). */
  sms: z.number().int(),
  sms_with_password: z.number().int(),
  has_password_step: z.boolean(),
  /** The model has two clock forms and windows: its clock's digit order can be settled by a call. */
  has_call_step: z.boolean(),
  /** The SMS the call steps add at most (the clock and a window in each order). */
  call_sms: z.number().int(),
  /** Russian: why the test number cannot be the call's number (it already opens the barrier), or null. */
  call_refused: z.string().nullable(),
  /** The model sends power SMS: the power cut can be offered. */
  has_power_step: z.boolean(),
  /** How long at most: each step waits up to the reply timeout. */
  max_minutes: z.number().int(),
  steps: z.array(z.object({ key: z.string(), label: z.string() })),
  skipped: z.array(z.object({ form: z.string(), reason: z.string() })),
});
export type ConformancePlanView = z.infer<typeof conformancePlanSchema>;

export const conformanceResponseSchema = z.object({
  plan: conformancePlanSchema,
  /** The barrier's latest run (null: never run). */
  run: conformanceRunSchema.nullable(),
});
export type ConformanceResponse = z.infer<typeof conformanceResponseSchema>;

export const CONFORMANCE_RUNNING_DETAIL = 'A conformance run of this barrier is already under way.';
