/**
 * Address suggestions (DESIGN.md section 7): DaData when DADATA_API_KEY is set, otherwise an offline source.
 * Answers are cached for 10 minutes. The offline source: offline-streets.ts (bundled streets, data/README.md). DaData failing falls back to the offline source: the create-barrier form
 * must keep working.
 */
import type { AddressSuggestQuery, AddressSuggestResponse } from '@propusk/contracts/addresses';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { searchStreets } from './offline-streets.ts';

export const SUGGESTION_CACHE_MS = 10 * 60 * 1000;
const CACHE_LIMIT = 5000;

const dadataResponseSchema = z.object({
  suggestions: z.array(z.object({ value: z.string() })),
});

/** The offline answer: bundled streets matching the typed words, never the typed text itself. */
export function suggestOffline(query: string, count: number): AddressSuggestResponse {
  return { suggestions: searchStreets(query, count).map((value) => ({ value })) };
}

export class AddressSuggestionService {
  private readonly cache = new Map<string, { at: number; value: AddressSuggestResponse }>();

  constructor(
    private readonly deps: Pick<Dependencies, 'config' | 'clock' | 'logger'>,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async suggest(query: AddressSuggestQuery): Promise<AddressSuggestResponse> {
    const key = `${query.count}|${query.query.trim().toLowerCase()}`;
    const now = this.deps.clock.now().getTime();
    const cached = this.cache.get(key);
    if (cached && now - cached.at < SUGGESTION_CACHE_MS) return cached.value;
    const value = await this.fetchSuggestions(query);
    if (this.cache.size >= CACHE_LIMIT) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, { at: now, value });
    return value;
  }

  private async fetchSuggestions(query: AddressSuggestQuery): Promise<AddressSuggestResponse> {
    const apiKey = this.deps.config.DADATA_API_KEY;
    if (!apiKey) return suggestOffline(query.query, query.count);
    try {
      const response = await this.fetchImpl(
        `${this.deps.config.DADATA_URL.replace(/\/$/, '')}/suggestions/api/4_1/rs/suggest/address`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            authorization: `Token ${apiKey}`,
          },
          body: JSON.stringify({ query: query.query, count: query.count }),
          signal: AbortSignal.timeout(5000),
        },
      );
      if (!response.ok) throw new Error(`DaData answered ${response.status}`);
      const parsed = dadataResponseSchema.parse(await response.json());
      return { suggestions: parsed.suggestions.slice(0, query.count).map(({ value }) => ({ value })) };
    } catch (error) {
      this.deps.logger.warn(
        { reason: (error as Error).message },
        'address suggestions: DaData failed, using the offline source',
      );
      return suggestOffline(query.query, query.count);
    }
  }
}
