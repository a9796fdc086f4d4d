import { z } from 'zod';
import './zod-messages.ts';

export const ADDRESS_SUGGESTION_COUNT_DEFAULT = 10;

export const addressSuggestQuerySchema = z.object({
  query: z
    .string({ error: 'Query is required.' })
    .trim()
    .min(1, { error: 'Query is required.' })
    .max(300, { error: 'Query must be at most 300 characters.' }),
  count: z.coerce
    .number({ error: 'Count must be a whole number.' })
    .int({ error: 'Count must be a whole number.' })
    .min(1, { error: 'Count must be between 1 and 20.' })
    .max(20, { error: 'Count must be between 1 and 20.' })
    .default(ADDRESS_SUGGESTION_COUNT_DEFAULT),
});
export type AddressSuggestQuery = z.infer<typeof addressSuggestQuerySchema>;

export const addressSuggestionSchema = z.object({ value: z.string() });
export const addressSuggestResponseSchema = z.object({ suggestions: z.array(addressSuggestionSchema) });
export type AddressSuggestResponse = z.infer<typeof addressSuggestResponseSchema>;

/** The example address the create-barrier form inserts. */
export const EXAMPLE_ADDRESS = 'г Москва, ул Тверская, д 7';
