/**
 * Requests and responses of the authentication calls (spec.md section 7 "Authentication", DESIGN.md
 * section 3). The server validates with these schemas and publishes them in OpenAPI; the client reuses them.
 */
import { z } from 'zod';
import { phoneLenientSchema } from './common.ts';
import { policyVersionSchema } from './privacy.ts';

export const VERIFICATION_MODES = [
  'login',
  'reset_password',
  'change_phone_old',
  'change_phone_new',
  'change_password',
  'delete_account',
] as const;
export type VerificationMode = (typeof VERIFICATION_MODES)[number];

/** ASVS 2.1.1 (issue 29 part 9); the server also refuses common and guessable passwords. */
export const PASSWORD_MIN_LENGTH = 12;
/** An upper bound keeps hashing cheap; no real password is longer. */
export const PASSWORD_MAX_LENGTH = 128;

/** Server detail texts (English, DESIGN.md section 3); the client translates the ones spec.md lists. */
export const AUTH_MESSAGES = {
  codeSent: 'Verification code sent.',
  codeAlreadySent: 'Verification code was already sent. Try again later.',
  codeVerified: 'Code verified successfully.',
  invalidCode: 'Invalid verification code.',
  codeAttemptsExhausted: 'Too many wrong attempts for this code. Request a new code.',
  tooManyFailures: 'Too many failed attempts. Try again later.',
  tooManyRequests: 'Too many requests. Try again later.',
  dailyCodeLimit: 'Too many codes were sent to this number today. Try again tomorrow.',
  smsBudgetExhausted: 'Codes cannot be sent right now. Try again later.',
  invalidToken: 'Invalid verification token.',
  tokenExpired: 'Verification code has expired. Request a new code.',
  tokenNotVerified: 'Verification code has not been verified.',
  tokenUsed: 'Verification token has already been used.',
  userNotFound: 'User not found.',
  userBlocked: 'User is blocked.',
  adminOnly: 'This action is available to administrators only.',
  notOwnPhone: 'This phone number does not belong to your account.',
  phoneInUse: 'Phone number is already in use.',
  passwordRequired: 'Password verification required.',
  passwordVerified: 'Password verified successfully.',
  invalidCredentials: 'Invalid phone number or password.',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  invalidRefresh: 'Refresh token is invalid or expired.',
  refreshReused: 'Refresh token was already used. The session has been ended; log in again.',
  // In Russian, as the only detail of the catalogue: the spec's client shows this `detail` as it is (issue 40 item 9).
  adminPasswordResetCli:
    'Пароль администратора нельзя сбросить по СМС. Попросите оператора сервера задать вам новый пароль.',
  smsFailed: 'Could not send the verification code. Try again later.',
  passwordTooWeak:
    'This password is too common or too easy to guess. Choose a longer one of several unrelated words.',
  passwordChangeRequired: 'Your password no longer meets the rules. Set a new password first.',
  phonePrefixNotAllowed: (prefixes: readonly string[]) =>
    `Codes are sent only to numbers starting with ${prefixes.join(', ')}.`,
  guestPassCodeLimit: 'Too many codes were sent through this guest link today. Try again later.',
  guestPassResidentCodeLimit:
    "Too many codes were sent through this resident's guest links today. Try again later.",
} as const;

const requiredString = (field: string) =>
  z.string({
    error: (issue) => (issue.input === undefined ? 'This field is required.' : `${field} must be a string.`),
  });

/** Every incoming phone: `+7XXXXXXXXXX` (a missing plus is added). */
const phoneField = phoneLenientSchema;

export const passwordSchema = requiredString('Password')
  .min(PASSWORD_MIN_LENGTH, { error: AUTH_MESSAGES.passwordTooShort })
  .max(PASSWORD_MAX_LENGTH, { error: AUTH_MESSAGES.passwordTooLong });

/** A password being checked (not set): any non-empty text. */
export const passwordInputSchema = requiredString('Password')
  .min(1, { error: 'Password must not be empty.' })
  .max(PASSWORD_MAX_LENGTH, { error: AUTH_MESSAGES.passwordTooLong });

export const verificationTokenSchema = requiredString('Verification token')
  .min(1, { error: 'Verification token must not be empty.' })
  .max(200, { error: 'Verification token is too long.' });

export const verificationModeSchema = z.enum(VERIFICATION_MODES, {
  error: (issue) =>
    issue.input === undefined
      ? 'This field is required.'
      : `Mode must be one of: ${VERIFICATION_MODES.join(', ')}.`,
});

export const checkAdminBodySchema = z.object({ phone: phoneField });
export const checkAdminResponseSchema = z.object({ is_admin: z.boolean() });

export const requestCodeBodySchema = z.object({ phone: phoneField, mode: verificationModeSchema });
export type RequestCodeBody = z.infer<typeof requestCodeBodySchema>;
/** The code itself is never part of a response, in any mode. */
export const requestCodeResponseSchema = z.object({
  verification_token: z.string(),
  detail: z.string(),
  /** Seconds until the next code may be requested for this phone and mode. */
  retry_after: z.number().int(),
});

export const verifyCodeBodySchema = z.object({
  phone: phoneField,
  code: requiredString('Code').regex(/^\d{6}$/, { error: 'Code must be 6 digits.' }),
  verification_token: verificationTokenSchema,
});
export const verifyCodeResponseSchema = z.object({
  message: z.string(),
  /**
   * Login codes only (docs/decisions/0022): whether this number's account has not yet consented to the current
   * privacy policy (or does not exist yet), and that policy's version. Our client then shows the policy before
   * the login; the spec's client ignores both.
   */
  consent_required: z.boolean().optional(),
  policy_version: z.string().optional(),
});

/**
 * The body of a wrong code (400 `invalid_code`, issue 32 item 6): how many tries this code has left (5 in all,
 * the right one included; 0: ask for a new code). Every code check answers it: login, guest passes, resets.
 */
export const invalidCodeErrorSchema = z.looseObject({
  detail: z.string(),
  code: z.literal('invalid_code'),
  attempts_left: z.number().int().min(0),
});
export type InvalidCodeError = z.infer<typeof invalidCodeErrorSchema>;

/** A password step's nonce (`password_nonce`): 43 URL-safe characters; anything else is refused at once. */
export const passwordNonceSchema = requiredString('Password nonce')
  .min(1, { error: 'Password nonce must not be empty.' })
  .max(200, { error: 'Password nonce is too long.' });

export const loginBodySchema = z.object({
  phone: phoneField,
  verification_token: verificationTokenSchema,
  /**
   * What the administrator's password step answered. Optional for the spec's client, which does not send it:
   * without it only a step made from the same address within 5 minutes counts (docs/decisions/0012).
   */
  password_nonce: passwordNonceSchema.optional(),
  /**
   * The version of the privacy policy the person has just read and accepted (docs/decisions/0022). Optional:
   * the spec's client knows no policy; its accounts are asked at their next visit with our client.
   */
  consent_version: policyVersionSchema.optional(),
});
export const loginResponseSchema = z.object({ access_token: z.string(), refresh_token: z.string() });

export const passwordVerificationBodySchema = z.object({ phone: phoneField, password: passwordInputSchema });
export const passwordVerificationResponseSchema = z.object({
  message: z.string(),
  /** Single use: the login of this administrator presents it (`password_nonce`) within 10 minutes. */
  password_nonce: z.string(),
  /** The password no longer meets the rule (issue 29 part 9): after the login, set a new one first. */
  password_change_required: z.boolean(),
});

export const refreshBodySchema = z.object({
  refresh: requiredString('Refresh token')
    .min(1, { error: 'Refresh token must not be empty.' })
    .max(200, { error: 'Refresh token is too long.' }),
});
/**
 * `refresh` is the session's new refresh token (rotation, docs/decisions/0012). A client that keeps using the
 * token it had (the spec's client reads only `access`) keeps working until that token's successor is used.
 */
export const refreshResponseSchema = z.object({ access: z.string(), refresh: z.string() });

/** `POST /api/auth/logout/` revokes the session of this refresh token; answers 204. */
export const logoutBodySchema = refreshBodySchema;
