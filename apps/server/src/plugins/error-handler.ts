/**
 * Every failure leaves as JSON: `{"detail": "…", "code": "…"}` (codes: contracts' error-codes.ts), or `{"field": ["message"]}` for invalid input (400).
 * Never a stack trace; a 500 only for a real fault, logged with its stack on the server side.
 */
import '@propusk/contracts/zod-messages';
import { CLEAN_TEXT_MESSAGE } from '@propusk/contracts/clean-text';
import { ERROR_CODES, type ErrorCode } from '@propusk/contracts/error-codes';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import {
  type DatabaseOutage,
  OUTAGE_RETRY_AFTER_SECONDS,
  SERVICE_UNAVAILABLE_BODY,
} from '../lib/database-outage.ts';
import { FieldError, HttpError } from '../lib/errors.ts';
import { errorForLog } from '../lib/log-error.ts';
import { routeForLog } from '../lib/log-privacy.ts';

/** `{detail, code}` of a code, with the catalogue's English detail. */
export const errorBody = (code: ErrorCode, detail: string = ERROR_CODES[code]) => ({ detail, code });

function fieldErrorsFromValidation(
  issues: { instancePath: string; message?: string }[],
  context: string | undefined,
): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || (context ?? 'non_field_errors');
    fields[key] ??= [];
    fields[key].push(issue.message || 'Invalid value.');
  }
  return fields;
}

/** The code of one of Fastify's own client errors (malformed JSON, wrong content type, body too large…). */
function clientErrorCode(error: FastifyError, status: number): ErrorCode {
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) return 'malformed_json';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  return 'bad_request';
}

/**
 * What a 500's log line says: the error (message, stack, code: never the SQL parameters or bodies it may
 * carry, see log-error.ts) and the route (method and pattern, never the URL: issue 28 part 4); the request id
 * is on every line of the request's logger.
 */
function faultForLog(error: unknown, request: FastifyRequest) {
  return {
    err: errorForLog(error),
    method: request.method,
    route: routeForLog(request),
    // The same pattern under the name of the access log's field, so that one search finds both lines.
    url: routeForLog(request),
  };
}

export function installErrorHandler(app: FastifyInstance, outage?: DatabaseOutage): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof FieldError) return reply.status(400).send(error.fields);
    if (error instanceof HttpError) {
      const retryAfter = error.extra.retry_after;
      if (typeof retryAfter === 'number') reply.header('Retry-After', String(retryAfter));
      return reply.status(error.statusCode).send({ detail: error.detail, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldErrorsFromValidation(error.validation, error.validationContext);
      // Text that breaks the clean-text rule also carries its stable code (issue 29 part 6), beside the fields.
      const unclean = Object.values(fields).some((messages) => messages.includes(CLEAN_TEXT_MESSAGE));
      return reply.status(400).send(unclean ? { ...fields, ...errorBody('text_not_allowed') } : fields);
    }
    if (isResponseSerializationError(error)) {
      const issues = error.cause.issues.map((issue) => ({
        code: issue.code,
        path: issue.path,
        message: issue.message,
      }));
      request.log.error({ ...faultForLog(error, request), issues }, 'response did not match its schema');
      return reply.status(500).send(errorBody('internal_error'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large… (an empty JSON body is
      // an empty object, see request-contract.ts)
      return reply.status(status).send(errorBody(clientErrorCode(error, status)));
    }
    // The database unreachable: 503 and no line per request (the outage writes one when it starts and ends).
    if (outage?.noteFailure(error)) {
      outage.countRefused();
      reply.header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS)).type('application/json; charset=utf-8');
      return reply.status(503).send(SERVICE_UNAVAILABLE_BODY);
    }
    request.log.error(faultForLog(error, request), 'unhandled error');
    return reply.status(500).send(errorBody('internal_error'));
  });
}
