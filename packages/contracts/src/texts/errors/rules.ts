/**
 * The shapes of the error catalogue and the two look-ups over it: a text by error code, a text by field message.
 * The catalogue is split by code group (this folder) so a screen loads only the groups it can meet; error-texts.ts
 * puts every group together.
 */
// Only the type: error-codes.ts imports nothing, but the schema modules would bring zod to the login screen.
import type { ErrorCode } from '../../error-codes.ts';

export type ErrorBody = Record<string, unknown>;
export type ErrorText = string | ((body: ErrorBody) => string);
export type ErrorCodeTexts = Readonly<Partial<Record<ErrorCode, ErrorText>>>;
export type FieldRule = readonly [pattern: RegExp, text: string | ((match: RegExpMatchArray) => string)];

export const numberOf = (body: ErrorBody, key: string): number | undefined =>
  typeof body[key] === 'number' ? (body[key] as number) : undefined;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const exact = (english: string, russian: string): FieldRule => [
  new RegExp(`^${escapeRegExp(english)}$`),
  russian,
];

/** The Russian text of an error body whose code the given texts know, else undefined. */
export function codeTextIn(texts: ErrorCodeTexts, body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const code = (body as ErrorBody).code;
  if (typeof code !== 'string' || !Object.hasOwn(texts, code)) return undefined;
  const text = texts[code as ErrorCode];
  if (text === undefined) return undefined;
  return typeof text === 'function' ? text(body as ErrorBody) : text;
}

const cyrillic = /[А-Яа-яЁё]/;

/**
 * The Russian text of one field message: from the rules, or the message itself when it is already Russian;
 * undefined for an English message no rule knows (the screen then shows its own fallback).
 */
export function fieldTextIn(rules: readonly FieldRule[], message: string): string | undefined {
  for (const [pattern, text] of rules) {
    const match = message.match(pattern);
    if (match) return typeof text === 'function' ? text(match) : text;
  }
  return cyrillic.test(message) ? message : undefined;
}
