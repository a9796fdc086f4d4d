/**
 * Response schemas of failures, for the OpenAPI document. A 400 is either `{"detail"}` or field lists
 * (`{"phone": ["…"]}`), sometimes both; a 429 carries `retry_after`.
 */
import { badRequestSchema, errorSchema, rateLimitedSchema } from '@propusk/contracts/common';
import type { z } from 'zod';

export function errorResponses<const Codes extends readonly (401 | 403 | 404 | 409 | 410 | 429 | 503)[]>(
  ...codes: Codes
) {
  const responses: Record<number, z.ZodType> = { 400: badRequestSchema };
  for (const code of codes) responses[code] = code === 429 ? rateLimitedSchema : errorSchema;
  return responses as { 400: typeof badRequestSchema } & {
    [K in Codes[number]]: K extends 429 ? typeof rateLimitedSchema : typeof errorSchema;
  };
}
