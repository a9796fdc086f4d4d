/**
 * Address suggestions (DESIGN.md section 7): DaData when DADATA_API_KEY is set, otherwise an offline source.
 * Answers are cached for 10 minutes. DaData failing falls back to the offline source: the create-barrier form
 * must keep working.
 */
import type { AddressSuggestQuery, AddressSuggestResponse } from '@propusk/contracts/addresses';
import { z } from 'zod';
import type { Dependencies } from '../../lib/dependencies.ts';
import { OFFLINE_STREETS } from './offline-streets.ts';

export const SUGGESTION_CACHE_MS = 10 * 60 * 1000;
const CACHE_LIMIT = 5000;

const dadataResponseSchema = z.object({
  suggestions: z.array(z.object({ value: z.string() })),
});

export function suggestOffline(query: string, count: number): AddressSuggestResponse {
  const normalized = query.trim().replace(/\s+/g, ' ');
  const words = normalized
    .toLowerCase()
    .replaceAll('ё', 'е')
    .split(/[\s,]+/)
    .filter((word) => word.length > 0);
  const house = normalized.match(/\d+[а-яa-z]?(\/\d+)?$/i)?.[0];
  const matches = OFFLINE_STREETS.filter((street) => {
    const haystack = street.toLowerCase().replaceAll('ё', 'е');
    return words.some((word) => !/^\d/.test(word) && word.length >= 3 && haystack.includes(word));
  }).map((street) => `г Москва, ${street}${house ? `, д ${house}` : ''}`);
  // The typed text itself is always offered: any address can be chosen without an online source.
  const values = [normalized, ...matches.filter((value) => value !== normalized)];
  return { suggestions: values.slice(0, count).map((value) => ({ value })) };
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
