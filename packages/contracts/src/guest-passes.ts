/**
 * Guest passes by link (issue 14 part 5): a resident (or an administrator, for a resident) makes a
 * single-use link for a window of at most 24 hours; the guest opens it without a login, proves his number by
 * an SMS code, and the number becomes a temporary phone of the resident with that window.
 */
import { z } from 'zod';
import { humanTextSchema } from './clean-text.ts';
import { codeSchema, idField, idSchema, PHONE_PATTERN, pageQuerySchema, paginated } from './common.ts';
import { parseDateTimeInput } from './phones.ts';

/** The longest window of a pass. */
export const GUEST_PASS_MAX_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How far ahead a pass may start. */
export const GUEST_PASS_MAX_LEAD_MS = 30 * 24 * 60 * 60 * 1000;
export const GUEST_PASS_NOTE_MAX_LENGTH = 100;
/** The link's token: 32 random bytes in base64url (43 characters). */
export const GUEST_PASS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const GUEST_PASS_STATUSES = ['created', 'used', 'revoked', 'expired'] as const;
export type GuestPassStatus = (typeof GUEST_PASS_STATUSES)[number];

export const GUEST_PASS_MESSAGES = {
  dateTimeFormat: 'Enter a date and time in ISO 8601 format.',
  startBeforeEnd: 'The start time must be earlier than the end time.',
  endInPast: 'The end time must be in the future.',
  windowTooLong: 'A guest pass lasts at most 24 hours.',
  startTooFar: 'A guest pass must start within 30 days.',
  noteTooLong: `Note must be at most ${GUEST_PASS_NOTE_MAX_LENGTH} characters.`,
  unavailable: 'This guest pass link is not valid: it was used, revoked or has expired.',
  notFound: 'Guest pass not found.',
} as const;

const dateTimeSchema = z
  .string({ error: GUEST_PASS_MESSAGES.dateTimeFormat })
  .trim()
  .refine((value) => parseDateTimeInput(value, 180) !== null, { error: GUEST_PASS_MESSAGES.dateTimeFormat });

const noteSchema = humanTextSchema({
  max: { length: GUEST_PASS_NOTE_MAX_LENGTH, error: GUEST_PASS_MESSAGES.noteTooLong },
});

export const createGuestPassBodySchema = z.object({
  start: dateTimeSchema,
  end: dateTimeSchema,
  note: noteSchema.optional(),
});
export type CreateGuestPassBody = z.infer<typeof createGuestPassBodySchema>;

/** An administrator's pass: `user` is the resident whose limits it counts against (default: himself). */
export const adminCreateGuestPassBodySchema = createGuestPassBodySchema.extend({
  user: idField('User must be a user id.').optional(),
});
export type AdminCreateGuestPassBody = z.infer<typeof adminCreateGuestPassBodySchema>;

export const guestPassSchema = z.object({
  id: z.number().int(),
  barrier: z.number().int(),
  /** The resident whose temporary phone it becomes. */
  user: z.number().int(),
  /**
   * Who the pass is for and who made it, as the list names them (issue 32 item 7): the full name (null when he
   * gave none) and the number masked (`+7 *** ***-45-67`), never the whole number. Only a resident of the pass's
   * barrier (himself) or an administrator of that barrier reads a pass at all. `created_by` is null once the
   * maker's account is gone.
   */
  user_full_name: z.string().nullable(),
  user_phone: z.string(),
  created_by: z.number().int().nullable(),
  created_by_full_name: z.string().nullable(),
  created_by_phone: z.string().nullable(),
  note: z.string(),
  start: z.string(),
  end: z.string(),
  expires_at: z.string(),
  status: z.enum(GUEST_PASS_STATUSES),
  /** The guest's number once used. */
  used_phone: z.string().nullable(),
  /** The temporary phone it became. */
  phone: z.number().int().nullable(),
  used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export type GuestPass = z.infer<typeof guestPassSchema>;

/** The created pass with its link, shown once (only the token's hash is kept). */
export const createdGuestPassSchema = guestPassSchema.extend({
  token: z.string(),
  url: z.string(),
});
export type CreatedGuestPass = z.infer<typeof createdGuestPassSchema>;

export const guestPassListQuerySchema = pageQuerySchema;
export const guestPassListSchema = paginated('guest_passes', guestPassSchema);
export type GuestPassList = z.infer<typeof guestPassListSchema>;

export const guestPassParamsSchema = z.object({ id: idSchema, passId: idSchema });

/** The link's token in a path: anything else is answered like a spent link. */
export const guestPassTokenParamsSchema = z.object({ token: z.string().max(200) });

/** The guest's holder header (its own zod-free module, for the web's first screens). */
export { GUEST_PASS_HOLDER_HEADER } from './guest-pass-header';

/**
 * What the guest's page shows: the address and the window, nothing about the resident. `used`: the pass was
 * used and its window is not over (the link still opens, but asks for no number). `device_phone`: the gate's
 * number to call, only to the guest who used it (by his holder key) and only while the window lasts.
 */
export const publicGuestPassSchema = z.object({
  address: z.string(),
  start: z.string(),
  end: z.string(),
  used: z.boolean(),
  device_phone: z.string().nullable(),
});
export type PublicGuestPass = z.infer<typeof publicGuestPassSchema>;

const guestPhoneSchema = z
  .string({ error: 'Phone must be a string.' })
  .trim()
  .regex(PHONE_PATTERN, { error: 'Phone must be in the format +7XXXXXXXXXX.' });

export const guestPassCodeBodySchema = z.object({ phone: guestPhoneSchema });
export const guestPassCodeResponseSchema = z.object({
  verification_token: z.string(),
  detail: z.string(),
  retry_after: z.number().int(),
});
export type GuestPassCodeResponse = z.infer<typeof guestPassCodeResponseSchema>;

export const redeemGuestPassBodySchema = z.object({
  phone: guestPhoneSchema,
  code: codeSchema,
  verification_token: z.string({ error: 'Verification token must be a string.' }).min(1).max(200),
});
export type RedeemGuestPassBody = z.infer<typeof redeemGuestPassBodySchema>;

/** The used pass: the gate's number, and the key by which this guest reads it again later (the header above). */
export const redeemedGuestPassSchema = publicGuestPassSchema.extend({
  phone: z.string(),
  holder_key: z.string(),
});
export type RedeemedGuestPass = z.infer<typeof redeemedGuestPassSchema>;
