import { Text } from '@mantine/core';
import { OFFLINE_TEXTS } from '@propusk/contracts/texts/offline';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useOnline } from '../hooks/use-online';

/**
 * The one place that says the phone is offline (issue 32 item 2). When the network returns, every query on
 * screen that failed meanwhile is loaded again (paused ones resume by themselves: TanStack Query's
 * networkMode 'online').
 */
export function OfflineBanner() {
  const isOnline = useOnline();
  const queryClient = useQueryClient();
  useEffect(() => {
    const retry = () => {
      void queryClient.refetchQueries({
        type: 'active',
        predicate: (query) => query.state.status === 'error',
      });
    };
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [queryClient]);
  if (isOnline) return null;
  return (
    <Text
      role="status"
      data-testid="offline-banner"
      className="offline-banner"
      fw={600}
      ta="center"
      p="xs"
      bg="red.9"
      c="white"
    >
      {OFFLINE_TEXTS.banner}
    </Text>
  );
}
