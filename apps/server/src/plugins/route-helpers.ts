/** Failure bodies for the OpenAPI document of the barrier domain's routes. */
import { badRequestSchema, errorSchema } from '@propusk/contracts/common';
import type { z } from 'zod';

export function failures(...codes: (401 | 403 | 404 | 409 | 429)[]) {
  const responses: Record<number, z.ZodType> = { 400: badRequestSchema };
  for (const code of codes) responses[code] = errorSchema;
  return responses;
}

/** Every route of the domain needs a login (DESIGN.md section 4). */
export const security = [{ bearer: [] }];
