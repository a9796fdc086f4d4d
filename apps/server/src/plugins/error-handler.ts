/**
 * Every failure leaves as JSON: `{"detail": "…"}`, or `{"field": ["message"]}` for invalid input (400).
 * Never a stack trace; a 500 only for a real fault, logged with its stack on the server side.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { FieldError, HttpError } from '../lib/errors.ts';

function fieldErrorsFromValidation(
  issues: { instancePath: string; message?: string }[],
  context: string | undefined,
): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || (context ?? 'non_field_errors');
    fields[key] ??= [];
    fields[key].push(issue.message ?? 'Invalid value.');
  }
  return fields;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof FieldError) return reply.status(400).send(error.fields);
    if (error instanceof HttpError) {
      const retryAfter = error.extra.retry_after;
      if (typeof retryAfter === 'number') reply.header('Retry-After', String(retryAfter));
      return reply.status(error.statusCode).send({ detail: error.detail, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send(fieldErrorsFromValidation(error.validation, error.validationContext));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.status(500).send({ detail: 'Internal server error.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large…
      const detail =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'Malformed JSON body.'
          : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
            ? 'Empty JSON body.'
            : error.message;
      return reply.status(status).send({ detail });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error.' });
  });
}
