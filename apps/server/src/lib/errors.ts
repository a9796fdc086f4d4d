/**
 * Errors a service throws to answer the caller. The error handler turns them into
 * `{"detail": "…"}` (or field errors) with the status they carry; anything else is a 500 without details.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

/** 400 with `{"field": ["message"]}`. */
export class FieldError extends HttpError {
  constructor(readonly fields: Record<string, string[]>) {
    super(400, Object.values(fields).flat().join(' '));
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail = 'Authentication credentials were not provided or are invalid.') =>
  new HttpError(401, detail);
export const forbidden = (detail = 'You do not have permission to perform this action.') =>
  new HttpError(403, detail);
export const notFound = (detail = 'Not found.') => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const gone = (detail: string) => new HttpError(410, detail);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new HttpError(429, detail, { retry_after: Math.max(1, Math.ceil(retryAfterSeconds)) });

/** Postgres unique violation (23505), as raised by pg or PGlite, optionally for one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const candidate = (error as { cause?: unknown })?.cause ?? error;
  const code = (candidate as { code?: string })?.code;
  if (code !== '23505') return false;
  return constraint === undefined || (candidate as { constraint?: string }).constraint === constraint;
}
