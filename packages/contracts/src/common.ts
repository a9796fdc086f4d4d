import { z } from 'zod';
import './zod-messages.ts';

/** A Russian mobile number as the API stores it: `+7` and ten digits. */
export const PHONE_PATTERN = /^\+7\d{10}$/;

export const phoneSchema = z
  .string({ error: 'Phone must be a string.' })
  .trim()
  .regex(PHONE_PATTERN, { error: 'Phone must be in the format +7XXXXXXXXXX.' });

/** Accepts `7XXXXXXXXXX` or `+7XXXXXXXXXX` (the phone-change form allows both) and normalises to `+7…`. */
export const phoneLenientSchema = z
  .string({ error: 'Phone must be a string.' })
  .trim()
  .regex(/^\+?7\d{10}$/, { error: 'Phone must be in the format +7XXXXXXXXXX.' })
  .transform((value) => (value.startsWith('+') ? value : `+${value}`));

export const codeSchema = z
  .string({ error: 'Code must be a string.' })
  .regex(/^\d{6}$/, { error: 'Code must be 6 digits.' });

/**
 * Ids are PostgreSQL `integer` identities: 1 to 2147483647. Anything else names no row, and sent to the
 * database it fails there (a 500), so every id the API takes, in a path, a query string or a body, is checked
 * here against this range and answered as a 400 on its field.
 */
export const MAX_ID = 2_147_483_647;
export const ID_MESSAGE = 'Must be a whole number from 1 to 2147483647.';

/** An id in a JSON body; `message` is what an absent or non-numeric value gets (the field's own words). */
export function idField(message: string = ID_MESSAGE) {
  return z
    .number({ error: message })
    .int({ error: ID_MESSAGE, abort: true })
    .min(1, { error: ID_MESSAGE })
    .max(MAX_ID, { error: ID_MESSAGE });
}

/**
 * An id in a path or a query string: decimal digits only (no sign, point, exponent, hex or spaces, which
 * `Number()` would accept), within the range of ids.
 */
export const idSchema = z
  .string({ error: ID_MESSAGE })
  .regex(/^\d{1,10}$/, { error: ID_MESSAGE })
  .transform(Number)
  .pipe(idField());

export const idParamsSchema = z.object({ id: idSchema });

/**
 * Error body of every failed call: `{"detail": "…", "code": "…"}`, the detail in English, the code one of
 * `error-codes.ts` (the client shows its Russian text); some codes carry a value beside them.
 */
export const errorSchema = z.looseObject({ detail: z.string(), code: z.string() });
/** Field validation errors: `{"field": ["message", …]}`, status 400. */
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()));
/** A 400 is either an error body (with `code`) or field lists (`{"phone": ["…"]}`), sometimes both. */
export const badRequestSchema = z.record(z.string(), z.unknown());
export const rateLimitedSchema = z.looseObject({
  detail: z.string(),
  code: z.string(),
  retry_after: z.number().int(),
});

export const messageSchema = z.object({ message: z.string() });
export const detailSchema = z.object({ detail: z.string() });

/** `page` (from 1) and `page_size` (1–100, `defaultSize` when absent) of a paged list's query string. */
export const pageFields = (defaultSize: number) => ({
  page: z.coerce.number().int().min(1, { error: 'Page must be at least 1.' }).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1, { error: 'Page size must be at least 1.' })
    .max(100, { error: 'Page size must be at most 100.' })
    .default(defaultSize),
});

export const pageQuerySchema = z.object(pageFields(10));

export function paginated<T extends z.ZodType, K extends string>(key: K, item: T) {
  return z.object({
    [key]: z.array(item),
    total_count: z.number().int(),
    current_page: z.number().int(),
    page_size: z.number().int(),
  } as { [P in K]: z.ZodArray<T> } & {
    total_count: z.ZodNumber;
    current_page: z.ZodNumber;
    page_size: z.ZodNumber;
  });
}

export const PHONE_PRIVACY = ['public', 'protected', 'private'] as const;
export type PhonePrivacy = (typeof PHONE_PRIVACY)[number];
export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];
