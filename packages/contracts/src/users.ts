/** Requests and responses of the own-profile calls (spec.md section 7 "Own profile"). */
import { z } from 'zod';
import { passwordInputSchema, passwordSchema, verificationTokenSchema } from './auth.ts';
import { humanTextSchema } from './clean-text.ts';
import { PHONE_PRIVACY, phoneLenientSchema, ROLES } from './common.ts';

export const FULL_NAME_MAX_LENGTH = 150;

export const PROFILE_MESSAGES = {
  nothingToUpdate: 'Provide full_name or phone_privacy.',
  fullNameTooLong: `Full name must be at most ${FULL_NAME_MAX_LENGTH} characters.`,
  samePhone: 'The new phone number is the same as the current one.',
  phoneOnBarrier: 'The new phone number is already registered on one of your barriers.',
  wrongOldPassword: 'Old password is incorrect.',
  passwordChanged: 'Password changed successfully.',
  passwordReset: 'Password reset successfully.',
  ownsBarriers: 'Delete your barriers before deleting your account.',
} as const;

export const profileSchema = z.object({
  id: z.number().int(),
  full_name: z.string().nullable(),
  phone: z.string(),
  phone_privacy: z.enum(PHONE_PRIVACY),
  role: z.enum(ROLES),
  /** false = blocked platform-wide. */
  is_active: z.boolean(),
  /** Our client's blocking consent screen (docs/decisions/0022): no consent to the current policy yet. */
  consent_required: z.boolean().optional(),
  policy_version: z.string().optional(),
  /**
   * An administrator whose password no longer meets the rule (issue 29 part 9): his administrator area answers
   * 403 `password_change_required` until he sets a new one (PATCH /api/users/me/password/).
   */
  password_change_required: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

export const updateProfileBodySchema = z
  .object({
    full_name: humanTextSchema({
      error: 'Full name must be a string.',
      max: { length: FULL_NAME_MAX_LENGTH, error: PROFILE_MESSAGES.fullNameTooLong },
    })
      .nullable()
      .optional(),
    phone_privacy: z
      .enum(PHONE_PRIVACY, { error: `Phone privacy must be one of: ${PHONE_PRIVACY.join(', ')}.` })
      .optional(),
  })
  .refine((body) => body.full_name !== undefined || body.phone_privacy !== undefined, {
    error: PROFILE_MESSAGES.nothingToUpdate,
    path: ['non_field_errors'],
  });
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

export const deleteAccountBodySchema = z.object({ verification_token: verificationTokenSchema });

export const changePhoneBodySchema = z.object({
  new_phone: phoneLenientSchema,
  /** Mode `change_phone_old`, verified for the current phone. */
  old_verification_token: verificationTokenSchema,
  /** Mode `change_phone_new`, verified for `new_phone`. */
  new_verification_token: verificationTokenSchema,
});
export const changePhoneResponseSchema = z.object({ phone: z.string() });

export const changePasswordBodySchema = z.object({
  old_password: passwordInputSchema,
  new_password: passwordSchema,
  /** Mode `change_password`, verified for the administrator's phone. */
  verification_token: verificationTokenSchema,
});

export const resetPasswordBodySchema = z.object({
  phone: phoneLenientSchema,
  new_password: passwordSchema,
  /** Mode `reset_password`, verified for `phone`. */
  verification_token: verificationTokenSchema,
});

export const passwordChangedResponseSchema = z.object({ message: z.string() });
