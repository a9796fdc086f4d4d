/**
 * Errors a service throws to answer the caller. The error handler turns them into
 * `{"detail": "…", "code": "…"}` (or field errors) with the status they carry; anything else is a 500 without
 * details. Every code is in the catalogue of `@propusk/contracts/error-codes`, which gives its English detail;
 * the client has a Russian text for each.
 */
import { ERROR_CODES, type ErrorCode } from '@propusk/contracts/error-codes';

export class HttpError extends Error {
  readonly detail: string;
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    detail?: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    const text = detail ?? ERROR_CODES[code];
    super(text);
    this.detail = text;
  }
}

/** 400 with `{"field": ["message"]}`. */
export class FieldError extends HttpError {
  constructor(readonly fields: Record<string, string[]>) {
    super(400, 'bad_request', Object.values(fields).flat().join(' '));
  }
}

export const badRequest = (code: ErrorCode, detail?: string, extra?: Record<string, unknown>) =>
  new HttpError(400, code, detail, extra);
export const unauthorized = (code: ErrorCode = 'not_authenticated') => new HttpError(401, code);
export const forbidden = (code: ErrorCode = 'permission_denied') => new HttpError(403, code);
export const notFound = (code: ErrorCode = 'not_found') => new HttpError(404, code);
export const conflict = (code: ErrorCode, detail?: string, extra?: Record<string, unknown>) =>
  new HttpError(409, code, detail, extra);
export const gone = (code: ErrorCode) => new HttpError(410, code);
export const tooManyRequests = (code: ErrorCode, retryAfterSeconds: number) =>
  new HttpError(429, code, undefined, { retry_after: Math.max(1, Math.ceil(retryAfterSeconds)) });

/** Postgres unique violation (23505), as raised by pg or PGlite, optionally for one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const candidate = (error as { cause?: unknown })?.cause ?? error;
  const code = (candidate as { code?: string })?.code;
  if (code !== '23505') return false;
  return constraint === undefined || (candidate as { constraint?: string }).constraint === constraint;
}
