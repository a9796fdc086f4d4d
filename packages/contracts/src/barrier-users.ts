/**
 * Users of a barrier as its administrator sees them, search by phone, and the administrator's own block
 * (spec.md sections 4, 6, 7; DESIGN.md section 4).
 */
import { z } from 'zod';
import { humanTextSchema } from './clean-text.ts';
import { idSchema, PHONE_PRIVACY, pageQuerySchema, paginated, phoneLenientSchema, ROLES } from './common.ts';

export const BARRIER_USER_ORDERINGS = [
  'full_name',
  '-full_name',
  'phone',
  '-phone',
  'created_at',
  '-created_at',
] as const;

export const BARRIER_USER_MESSAGES = {
  blockReasonRequired: 'Enter the reason for blocking.',
  cannotBlockSelf: 'You cannot block yourself.',
  cannotRemoveOwner: 'The owner cannot be removed from his own barrier.',
  userNotFound: 'User not found.',
  notOnBarrier: 'This user has no access to the barrier.',
} as const;

export const barrierUserListQuerySchema = pageQuerySchema.extend({
  ordering: z
    .enum(BARRIER_USER_ORDERINGS, { error: `Ordering must be one of: ${BARRIER_USER_ORDERINGS.join(', ')}.` })
    .optional(),
  /** Case-insensitive substring of the full name or the phone. */
  search: z.string().trim().max(150).optional(),
});
export type BarrierUserListQuery = z.infer<typeof barrierUserListQuerySchema>;

export const barrierUserSchema = z.object({
  id: z.number().int(),
  full_name: z.string().nullable(),
  phone: z.string(),
  /** When the user got access to this barrier. */
  created_at: z.string(),
  /** Active phones of this user on this barrier, the primary one included. */
  phones_count: z.number().int(),
  role: z.enum(ROLES),
  /** False when this administrator blocked him (or the platform did). */
  is_active: z.boolean(),
  phone_privacy: z.enum(PHONE_PRIVACY),
});
export const barrierUserListSchema = paginated('users', barrierUserSchema);

export const barrierUserParamsSchema = z.object({ id: idSchema, userId: idSchema });

/** A user as an administrator sees him; `is_active` is false when this administrator blocked him. */
export const adminUserSchema = z.object({
  id: z.number().int(),
  full_name: z.string().nullable(),
  phone: z.string(),
  role: z.enum(ROLES),
  is_active: z.boolean(),
  phone_privacy: z.enum(PHONE_PRIVACY),
  /** This administrator's reason, when he blocked the user. */
  block_reason: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const searchUserBodySchema = z.object({ phone: phoneLenientSchema });

export const blockUserBodySchema = z.object({
  reason: humanTextSchema({
    error: BARRIER_USER_MESSAGES.blockReasonRequired,
    min: { length: 1, error: BARRIER_USER_MESSAGES.blockReasonRequired },
    max: { length: 500, error: 'Reason must be at most 500 characters.' },
  }),
});

/**
 * «Заблокированные» (issue 41 major 3): the people this barrier's owner blocked (his block closes all of his
 * barriers), newest first, so that an administrator finds them again to unblock. `phone`: the number he was
 * blocked with (the block holds for it), or his account's number.
 */
export const blockedUserSchema = z.object({
  id: z.number().int(),
  full_name: z.string().nullable(),
  phone: z.string().nullable(),
  reason: z.string(),
  blocked_at: z.string(),
});
export type BlockedUser = z.infer<typeof blockedUserSchema>;
export const blockedUserListSchema = paginated('users', blockedUserSchema);
export type BlockedUserList = z.infer<typeof blockedUserListSchema>;
