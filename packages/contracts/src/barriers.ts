/** Barriers: creation, settings patch, lists and cards (spec.md sections 3, 5, 7; DESIGN.md sections 4, 5). */
import { z } from 'zod';
import { BARRIER_ROLES } from './barrier-staff.ts';
import { humanMultilineTextSchema, humanTextSchema } from './clean-text.ts';
import { idSchema, PHONE_PATTERN, pageQuerySchema, paginated } from './common.ts';
import { devicePowerSchema, deviceStateSchema } from './devices.ts';

export const ADDRESS_MAX_LENGTH = 510;
export const ADDITIONAL_INFO_MAX_LENGTH = 2000;

export const BARRIER_MESSAGES = {
  address: 'Enter a valid address.',
  devicePhone: 'Device phone must be in the format +7XXXXXXXXXX.',
  deviceModel: 'Unknown device model.',
  devicePassword: 'Device password must be exactly 4 digits.',
  phonesAmount: 'Enter a whole number from 1 to 10000.',
  phonesAmountOverSlots: (model: string, slots: number) =>
    `The ${model} model holds at most ${slots} numbers.`,
  additionalInfo: `Additional info must be at most ${ADDITIONAL_INFO_MAX_LENGTH} characters.`,
  isPublic: 'Must be true or false.',
  devicePhoneTaken: 'A barrier with this device phone already exists.',
  nothingToUpdate: 'Provide additional_info, is_public or device_password.',
  ownerCannotLeave: 'The owner cannot leave his own barrier.',
  noAccess: 'You do not have access to this barrier.',
  barrierNotFound: 'Barrier not found.',
} as const;

/** Issue 29 part 8: an address search has at most this many words. */
export const ADDRESS_SEARCH_MAX_WORDS = 8;

/** The words of an address search: letters and digits, lower case, ё as е. */
export function addressSearchWords(value: string): string[] {
  return value
    .toLowerCase()
    .replaceAll('ё', 'е')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

// The address goes into the invitation SMS and onto other people's screens: the clean-text rule (issue 29 part 6).
const addressSchema = humanTextSchema({
  error: BARRIER_MESSAGES.address,
  min: { length: 1, error: BARRIER_MESSAGES.address },
  max: { length: ADDRESS_MAX_LENGTH, error: BARRIER_MESSAGES.address },
});

const additionalInfoSchema = humanMultilineTextSchema({
  error: BARRIER_MESSAGES.additionalInfo,
  max: { length: ADDITIONAL_INFO_MAX_LENGTH, error: BARRIER_MESSAGES.additionalInfo },
});

export const devicePasswordInputSchema = z
  .string({ error: BARRIER_MESSAGES.devicePassword })
  .regex(/^\d{4}$/, { error: BARRIER_MESSAGES.devicePassword });

export const createBarrierBodySchema = z.object({
  address: addressSchema,
  device_phone: z
    .string({ error: BARRIER_MESSAGES.devicePhone })
    .trim()
    .regex(PHONE_PATTERN, { error: BARRIER_MESSAGES.devicePhone }),
  /** A model of @propusk/devices; the server checks it against the command sheets. */
  device_model: z.string({ error: BARRIER_MESSAGES.deviceModel }).trim().min(1, BARRIER_MESSAGES.deviceModel),
  /** Required for models with a password (4 digits); ignored for models without one (Telemetrica). */
  device_password: z.string({ error: BARRIER_MESSAGES.devicePassword }).nullish(),
  device_phones_amount: z
    .number({ error: BARRIER_MESSAGES.phonesAmount })
    .int({ error: BARRIER_MESSAGES.phonesAmount })
    .min(1, { error: BARRIER_MESSAGES.phonesAmount })
    .max(10000, { error: BARRIER_MESSAGES.phonesAmount }),
  additional_info: additionalInfoSchema.nullish(),
  is_public: z.boolean({ error: BARRIER_MESSAGES.isPublic }).default(true),
});
export type CreateBarrierBody = z.infer<typeof createBarrierBodySchema>;

export const updateBarrierBodySchema = z
  .object({
    additional_info: additionalInfoSchema.nullish(),
    is_public: z.boolean({ error: BARRIER_MESSAGES.isPublic }).optional(),
    /** Corrects the stored value only; no SMS is sent (DESIGN.md section 5). */
    device_password: devicePasswordInputSchema.optional(),
  })
  .refine(
    (body) =>
      body.additional_info !== undefined ||
      body.is_public !== undefined ||
      body.device_password !== undefined,
    { error: BARRIER_MESSAGES.nothingToUpdate, path: ['non_field_errors'] },
  );
export type UpdateBarrierBody = z.infer<typeof updateBarrierBodySchema>;

export const BARRIER_ORDERINGS = ['address', '-address', 'created_at', '-created_at', 'id', '-id'] as const;
export type BarrierOrdering = (typeof BARRIER_ORDERINGS)[number];

export const barrierListQuerySchema = pageQuerySchema.extend({
  ordering: z
    .enum(BARRIER_ORDERINGS, { error: `Ordering must be one of: ${BARRIER_ORDERINGS.join(', ')}.` })
    .optional(),
  /** Words, each a prefix of some word of the address, in any order; case, ё, punctuation and abbreviations (ул = улица) aside. */
  // At most 8 words (issue 29 part 8): each word is one more condition of the search.
  address: z
    .string()
    .trim()
    // `abort`: the words are counted only in a query of the bound's length (issue 40 item 1).
    .max(ADDRESS_MAX_LENGTH, { abort: true })
    .refine((value) => addressSearchWords(value).length <= ADDRESS_SEARCH_MAX_WORDS, {
      error: `Enter at most ${ADDRESS_SEARCH_MAX_WORDS} words.`,
    })
    .optional(),
});
export type BarrierListQuery = z.infer<typeof barrierListQuerySchema>;

export const barrierParamsSchema = z.object({ id: idSchema });

/**
 * States of a barrier that widen access and must not be forgotten (issue 32 item 3): the device set to open for
 * any caller (`access_all` the last access setting sent), its relay set to stay on (relay time 999 the last one
 * sent), an emergency hold-open running on it.
 */
export const BARRIER_DANGERS = ['open_to_all', 'relay_always_on', 'emergency_hold'] as const;
export type BarrierDanger = (typeof BARRIER_DANGERS)[number];
export const barrierDangersSchema = z.array(z.enum(BARRIER_DANGERS));

/** The owner as a barrier card shows him; `phone` is null where his phone privacy hides it. */
export const barrierOwnerSchema = z.object({
  id: z.number().int(),
  full_name: z.string().nullable(),
  phone: z.string().nullable(),
});

export const barrierSummarySchema = z.object({
  id: z.number().int(),
  address: z.string(),
  additional_info: z.string(),
  is_public: z.boolean(),
  owner: barrierOwnerSchema,
  /** The device's number (the gate opens to a call from a listed number): only for users with access and the owner. */
  device_phone: z.string().nullable(),
  /** The caller has access (the owner always has). */
  has_access: z.boolean(),
  /**
   * The caller's pending access request for this barrier: `outgoing` he asked and waits for the decision,
   * `incoming` its administrator invited him; null: none (he may ask).
   */
  pending_request: z.enum(['outgoing', 'incoming']).nullable(),
});
export type BarrierSummary = z.infer<typeof barrierSummarySchema>;

export const barrierListSchema = paginated('barriers', barrierSummarySchema);

/**
 * A barrier whose administrator closed the caller's access by his block (issue 41 major 2): the barrier he
 * had (his primary number was on it), the reason, and the administrator's contact as his phone privacy allows
 * (a former resident counts as a resident of his barriers: `protected` shows the number, `private` does not).
 */
export const closedBarrierSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  block_reason: z.string(),
  blocked_at: z.string(),
  owner: barrierOwnerSchema,
});
export type ClosedBarrier = z.infer<typeof closedBarrierSchema>;

/** GET /api/barriers/my/: the spec's list, and beside it the barriers his administrator closed to him. */
export const myBarrierListSchema = barrierListSchema.extend({
  closed_by_admin: z.array(closedBarrierSchema),
});
export type MyBarrierList = z.infer<typeof myBarrierListSchema>;

/** The user-side card. `device_phone` only for users with access and the owner. */
export const barrierDetailSchema = barrierSummarySchema.extend({
  device_model: z.string(),
  device_phones_amount: z.number().int(),
  is_owner: z.boolean(),
  /** The owner's reason when he blocked the caller (his barriers are then closed to him), else null. */
  block_reason: z.string().nullable(),
  /** Widened access in force (BARRIER_DANGERS); empty for a caller without access. */
  dangers: barrierDangersSchema,
});
export type BarrierDetail = z.infer<typeof barrierDetailSchema>;

/** The administrator's view of his own barrier. The device password is write-only: never here. */
export const adminBarrierSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  owner: barrierOwnerSchema,
  device_phone: z.string(),
  device_model: z.string(),
  device_phones_amount: z.number().int(),
  additional_info: z.string(),
  is_public: z.boolean(),
  created_at: z.string(),
  /** The device's health in short (GET /api/admin/barriers/{id}/device-health/ has the figures). */
  device_state: deviceStateSchema,
  /** The unit's supply by its own SMS (`lost` / `restored`, DEVICE_POWER_STATES), since when; null: nothing. */
  device_power: devicePowerSchema.nullable(),
  device_power_since: z.string().nullable(),
  /**
   * The number in the unit's slot 1: the gateway that talks to the unit, so that its alarm and power SMS
   * reach the server (issue 30 item 5). Null: the barrier keeps the old layout (residents from slot 1).
   */
  device_gateway_number: z.string().nullable(),
  /** The caller's role on this barrier: its owner, or the role he was given as its staff. */
  my_role: z.enum(BARRIER_ROLES),
  /** Widened access in force (BARRIER_DANGERS). */
  dangers: barrierDangersSchema,
  /** The running emergency hold on this barrier (its screen ends it), else null. */
  emergency_hold_id: z.number().int().nullable(),
});
export type AdminBarrier = z.infer<typeof adminBarrierSchema>;

export const adminBarrierListSchema = paginated('barriers', adminBarrierSchema);

export const checkAccessSchema = z.object({ has_access: z.boolean() });
