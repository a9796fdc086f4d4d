import { Text } from '@mantine/core';
import { OFFLINE_TEXTS } from '@propusk/contracts/texts/offline';
import { useOnline } from '../hooks/use-online';

/**
 * The one place that says the phone is offline (issue 32 item 2). Failed queries are loaded again when the
 * network returns by the screens' layout (app/query-layout.tsx).
 */
export function OfflineBanner() {
  const isOnline = useOnline();
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
