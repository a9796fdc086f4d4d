/**
 * What a person reads when a call fails: a Russian text for every error code the server can send
 * (error-codes.ts; the type makes a missing one a compile error, and a test walks every code the server's
 * source throws), and for every field message of the request schemas. The spec's own translations
 * (spec.md section 8) are kept word for word. The texts live by code group in texts/errors/; this module puts
 * them together for the server and for every screen past the login.
 */
// Only the type: the catalogue imports the schema modules (and so zod), which the login screen must not load.
import type { ErrorCode } from './error-codes.ts';
import { ACCOUNT_ERROR_TEXTS } from './texts/errors/account.ts';
import { AUTH_ERROR_TEXTS, AUTH_FIELD_RULES } from './texts/errors/auth.ts';
import { BARRIER_ERROR_TEXTS, BARRIER_FIELD_RULES } from './texts/errors/barriers.ts';
import { COMMON_ERROR_TEXTS, COMMON_FIELD_RULES } from './texts/errors/common.ts';
import { DEVICE_ERROR_TEXTS, DEVICE_FIELD_RULES } from './texts/errors/devices.ts';
import { IMPORT_EXPORT_ERROR_TEXTS } from './texts/errors/imports-exports.ts';
import { PHONE_ERROR_TEXTS, PHONE_FIELD_RULES } from './texts/errors/phones.ts';
import { codeTextIn, type ErrorText, type FieldRule, fieldTextIn } from './texts/errors/rules.ts';

export const ERROR_CODE_TEXTS: Readonly<Record<ErrorCode, ErrorText>> = {
  ...COMMON_ERROR_TEXTS,
  ...AUTH_ERROR_TEXTS,
  ...ACCOUNT_ERROR_TEXTS,
  ...BARRIER_ERROR_TEXTS,
  ...PHONE_ERROR_TEXTS,
  ...DEVICE_ERROR_TEXTS,
  ...IMPORT_EXPORT_ERROR_TEXTS,
};

/** The Russian text of an error body that carries a known code, else undefined. */
export function errorCodeText(body: unknown): string | undefined {
  return codeTextIn(ERROR_CODE_TEXTS, body);
}

/**
 * The field messages of the request schemas (contracts), of the server's own checks and of the shared zod
 * error map (zod-messages.ts), each with its Russian text. Messages already in Russian (device sheets and
 * profiles, spec texts) pass through as they are. The shared map's rules come first: the first match wins.
 */
export const FIELD_MESSAGE_RULES: readonly FieldRule[] = [
  ...COMMON_FIELD_RULES,
  ...AUTH_FIELD_RULES,
  ...BARRIER_FIELD_RULES,
  ...PHONE_FIELD_RULES,
  ...DEVICE_FIELD_RULES,
];

/**
 * The Russian text of one field message: from the rules, or the message itself when it is already Russian;
 * undefined for an English message no rule knows (the screen then shows its own fallback).
 */
export function fieldMessageText(message: string): string | undefined {
  return fieldTextIn(FIELD_MESSAGE_RULES, message);
}
