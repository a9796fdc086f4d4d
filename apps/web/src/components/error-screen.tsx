import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { OFFLINE_TEXTS } from '@propusk/contracts/texts/offline';
import { useEffect } from 'react';

export type ErrorScreenKind = 'network' | 'not-found' | 'failed';

/** A screen that failed to load while online is loaded again after this long… */
export const ONLINE_RETRY_MS = 2_000;
/** …at most this many times a minute (a server that is really down is not asked in a loop). */
const ONLINE_RETRIES_PER_MINUTE = 3;
const RETRIES_KEY = 'propusk-online-retries';

/** Whether one more automatic reload is allowed now; counts it (the tab's sessionStorage keeps the times). */
export function mayRetryOnline(now: number): boolean {
  let times: number[] = [];
  try {
    const kept = JSON.parse(sessionStorage.getItem(RETRIES_KEY) ?? '[]');
    if (Array.isArray(kept))
      times = kept.filter((time): time is number => typeof time === 'number' && now - time < 60_000);
  } catch {
    times = [];
  }
  if (times.length >= ONLINE_RETRIES_PER_MINUTE) return false;
  try {
    sessionStorage.setItem(RETRIES_KEY, JSON.stringify([...times, now]));
  } catch {
    return false;
  }
  return true;
}

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
    // Shown while the browser says it is online: the load raced the network's return (the reload on `online`
    // can start before the connection carries requests on a busy phone). Try again shortly, a few times.
    const again =
      navigator.onLine && mayRetryOnline(Date.now()) ? window.setTimeout(reload, ONLINE_RETRY_MS) : null;
    return () => {
      window.removeEventListener('online', reload);
      if (again !== null) window.clearTimeout(again);
    };
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
