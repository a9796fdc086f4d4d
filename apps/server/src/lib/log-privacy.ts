/**
 * What a log line may say of a person and a request (issue 28 part 4; docs/decisions/0021). Anyone who reads
 * the logs must learn no phone number, search term, code, token or device password from them:
 * - a request is named by its route pattern (`/guest/:token`, `/api/admin/barriers/:id/users/`), never by
 *   its URL with the query string or a token in the path;
 * - a phone number is written as a keyed hash (`phoneKey`: an HMAC with the server's key, so nobody without
 *   the key can test guesses against it). Support computes the same key from a number with
 *   `npm run cli -- phone-log-key --phone +7…` and searches the logs for it.
 */
import { maskPhonesInText } from '@propusk/contracts/phone-mask';
import type { FastifyRequest } from 'fastify';
import { pathOnly } from './log-error.ts';
import type { Secrets } from './secrets.ts';

/** The keyed hash of a phone number in the logs: 16 characters, the same for one number and one server key. */
export function phoneLogKey(secrets: Pick<Secrets, 'hmac'>, phone: string): string {
  return secrets.hmac(`phone-log:${phone}`).slice(0, 16);
}

/** A path segment that may carry a value (a number, a token, a phone): named, never written. */
const isValueSegment = (segment: string) =>
  /^\+?\d+$/.test(segment) || /\d{4,}/.test(segment) || (segment.length >= 16 && !segment.includes('.'));

/**
 * The route of a request for a log line: Fastify's pattern when a route matched; else (the web app's pages,
 * a path that matches nothing) the path without its query, each segment that may hold a value named.
 */
export function routeForLog(
  request: Pick<FastifyRequest, 'url'> & { routeOptions?: { url?: string } },
): string {
  const pattern = request.routeOptions?.url;
  if (pattern && pattern !== '*' && pattern !== '/*') return pattern;
  const path = pathOnly(request.url);
  if (path.startsWith('/guest/')) return '/guest/:token';
  return path
    .split('/')
    .map((segment) => (isValueSegment(segment) ? ':value' : segment))
    .join('/');
}

/**
 * A run of digits as a person writes it: an optional `+`, then digits with spaces, brackets and dashes between
 * them (`+7 (916) 123-45-67`, `12 34 56`). One character class repeated: linear on any input.
 */
const DIGIT_RUN = /\+?[\d(][\d\s()-]*/g;

/**
 * Masks one run by its digits alone, whatever stands between them (issue 40 item 7): a number (10 digits or
 * more) keeps its last four, a code (6) none; any other run stays as it was written.
 */
function maskDigitRun(run: string): string {
  let end = run.length;
  while (end > 0 && !/\d/.test(run.charAt(end - 1))) end -= 1;
  let digits = '';
  for (const ch of run.slice(0, end)) if (ch >= '0' && ch <= '9') digits += ch;
  const trailing = run.slice(end);
  if (digits.length >= 10) return `${'*'.repeat(digits.length - 4)}${digits.slice(-4)}${trailing}`;
  if (digits.length === 6) return `******${trailing}`;
  return run;
}

/** A password's name (`password`, `pwd`, `пароль`, `секрета`…) as a whole word. */
const PASSWORD_NAME = /(?:pass(?:words?|wd)?|pwd|парол[а-яё]{0,8}|secret|секрет[а-яё]{0,8})(?![a-zа-яё])/giu;
const QUOTE = new Set(['"', "'"]);
const SPACE = /\s/;
const VALUE_END = new Set([' ', '"', "'", ',', ';']);

/**
 * The word after each password's name (`password: …`, `пароль …`, `"pwd":"…"`) replaced by `[hidden]`,
 * whatever it is. Read forward once after each name (a quote, spaces, `:` or `=` and spaces, a quote, then the
 * word up to a space, a quote, a comma or a semicolon). One pattern doing it all was judged polynomial on
 * repeated names by the ReDoS check (packages/contracts/src/redos-check.test.ts; its fuzzing found the attack in
 * some runs only, so CI failed now and then); the name alone is a bounded pattern.
 */
function hidePasswordValues(text: string): string {
  let kept = '';
  let from = 0;
  for (const match of text.matchAll(PASSWORD_NAME)) {
    let at = match.index + match[0].length;
    if (match.index < from) continue;
    if (QUOTE.has(text.charAt(at))) at += 1;
    while (at < text.length && SPACE.test(text.charAt(at))) at += 1;
    if (text.charAt(at) === ':' || text.charAt(at) === '=') {
      at += 1;
      while (at < text.length && SPACE.test(text.charAt(at))) at += 1;
    }
    if (QUOTE.has(text.charAt(at))) at += 1;
    let end = at;
    while (end < text.length && !VALUE_END.has(text.charAt(end)) && !SPACE.test(text.charAt(end))) end += 1;
    if (end === at) continue;
    kept += `${text.slice(from, at)}[hidden]`;
    from = end;
  }
  return kept + text.slice(from);
}

/**
 * A free text from outside (a client's log line) as a log may keep it: numbers and codes masked by their
 * digits whatever the spaces, brackets and dashes between them, the word after a password's name replaced,
 * token-like runs (20 or more letters, digits, `-` or `_`: a guest link, a JWT's parts) replaced.
 */
export function withoutSecrets(text: string): string {
  return hidePasswordValues(maskPhonesInText(text))
    .replace(/[A-Za-z0-9_-]{20,}/g, '[token]')
    .replace(DIGIT_RUN, maskDigitRun);
}
