import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { sessionQueryClient as queryClient } from './query-client';

/**
 * When the network returns, every query on screen that failed meanwhile is loaded again (paused ones resume by
 * themselves: TanStack Query's networkMode 'online'; issue 32 item 2).
 */
function RetryFailedQueriesOnline() {
  const client = useQueryClient();
  useEffect(() => {
    const retry = () => {
      void client.refetchQueries({ type: 'active', predicate: (query) => query.state.status === 'error' });
    };
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [client]);
  return null;
}

/**
 * Every screen but /login sits under this layout: TanStack Query (and its client) loads with the first of them,
 * not with the login screen (issue 32 item 8).
 */
export default function QueryLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <RetryFailedQueriesOnline />
      <Outlet />
    </QueryClientProvider>
  );
}
