import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        // 4xx answers are final; only network trouble is worth one more try.
        retry: (failureCount, error) => !(error instanceof ApiError) && failureCount < 1,
      },
      // A mutation is sent now or not at all: never paused offline and replayed when the network returns
      // (an opening or a setting that goes out minutes later is dangerous; issue 32 item 1).
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/** The session's one client: the code step of the light entry and every screen under query-layout.tsx share it. */
export const sessionQueryClient = createQueryClient();
