/**
 * What an error log line may hold of an error: its kind, message, stack, code and the database's own
 * labels (constraint, table, column), and the same of its causes. Never what was sent with it: a Drizzle
 * query error carries the statement's parameters (`params`, and at the end of its message and stack), pg's
 * errors carry values in `detail` and `where`, HTTP clients carry bodies and query strings. Those hold names,
 * phone numbers and device-password ciphertext (issue 17), so this is an allow-list, not a redaction. A number
 * that still stands in a message (a gateway's refusal naming it) is masked (issue 28 part 4).
 */

import { maskPhonesInText } from '@propusk/contracts/phone-mask';

/** Fields copied as they are when they are strings or numbers. */
const SAFE_FIELDS = ['code', 'statusCode', 'severity', 'routine', 'constraint', 'table', 'column'] as const;
const MAX_CAUSES = 3;

const PARAMETERS = '\nparams: ';
const STACK_FRAME = '\n    at ';

/**
 * Drizzle appends `\nparams: …` (the parameters' values) to the failed statement in its message: cut from there
 * to the stack's first frame (or the end). Found by position, in linear time: the pattern it replaces
 * (`/\nparams: [\s\S]*?(?=\n {4}at |$)/`) rescanned the rest of the text from every start, which recheck
 * found polynomial (CI of 2026-11-29).
 */
function withoutParameters(text: string): string {
  const start = text.indexOf(PARAMETERS);
  if (start === -1) return maskPhonesInText(text);
  const end = text.indexOf(STACK_FRAME, start + PARAMETERS.length);
  const rest = end === -1 ? '' : text.slice(end);
  return maskPhonesInText(`${text.slice(0, start)}\nparams: [omitted]${rest}`);
}

export function errorForLog(error: unknown, depth = 0): Record<string, unknown> {
  if (error === null || typeof error !== 'object') return { message: String(error) };
  const source = error as Record<string, unknown>;
  const logged: Record<string, unknown> = {
    type: typeof source.type === 'string' ? source.type : (error.constructor?.name ?? 'Error'),
  };
  if (typeof source.message === 'string') logged.message = withoutParameters(source.message);
  if (typeof source.stack === 'string') logged.stack = withoutParameters(source.stack);
  for (const field of SAFE_FIELDS) {
    const value = source[field];
    if (typeof value === 'string' || typeof value === 'number') logged[field] = value;
  }
  if (source.cause !== undefined && depth < MAX_CAUSES) logged.cause = errorForLog(source.cause, depth + 1);
  return logged;
}

/** The path of a URL without its query string, which may hold searched phones and names. */
export const pathOnly = (url: string) => url.split('?', 1)[0] ?? '';
