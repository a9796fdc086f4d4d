import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { OFFLINE_TEXTS } from '@propusk/contracts/texts/offline';
import { useEffect } from 'react';

export type ErrorScreenKind = 'network' | 'not-found' | 'failed';

/**
 * The Russian error screen (issue 32 item 2), with no router beneath it: the router's error boundary
 * (app/routes/route-error.tsx) and the login screen's light entry (app/shell) both show it. «Нет связи» loads
 * the page again by itself when the network returns.
 */
export function ErrorScreen({ kind }: { kind: ErrorScreenKind }) {
  const isNetwork = kind === 'network';
  useEffect(() => {
    if (!isNetwork) return;
    const reload = () => window.location.reload();
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [isNetwork]);
  return (
    <Center mih="100dvh" p="md">
      <Stack gap="md" maw={420} w="100%" role="alert" data-testid="route-error">
        <Title order={1} size="h3">
          {isNetwork
            ? OFFLINE_TEXTS.noNetwork
            : kind === 'not-found'
              ? OFFLINE_TEXTS.notFoundTitle
              : OFFLINE_TEXTS.screenFailed}
        </Title>
        <Text>{isNetwork ? OFFLINE_TEXTS.chunkFailedText : OFFLINE_TEXTS.screenFailedText}</Text>
        <Button size="md" onClick={() => window.location.reload()}>
          {OFFLINE_TEXTS.retry}
        </Button>
        <Button size="md" variant="light" component="a" href="/">
          {OFFLINE_TEXTS.home}
        </Button>
      </Stack>
    </Center>
  );
}

/** A lazy screen's chunk that could not be fetched (the network is down, or a new build replaced it). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically|ChunkLoadError|Failed to fetch/i.test(
    message,
  );
}
