import { Button, Center, Group, Loader } from '@mantine/core';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { ErrorLine } from './status-line';

/**
 * A loader while the first load runs, or the screen's error line when it failed; with `onRetry`, «Повторить»
 * beside the error (issue 41: a failed list is not a dead end).
 */
export function QueryStatus({
  isPending,
  error,
  onRetry,
}: {
  isPending: boolean;
  error: string | null;
  onRetry?: (() => unknown) | undefined;
}) {
  if (isPending)
    return (
      <Center py="lg">
        <Loader aria-label="Загрузка" />
      </Center>
    );
  if (!error || !onRetry) return <ErrorLine message={error} />;
  return (
    <Group gap="sm" align="center">
      <ErrorLine message={error} />
      <Button size="sm" variant="light" onClick={() => void onRetry()} data-testid="retry">
        {COMMON_MESSAGES.retry}
      </Button>
    </Group>
  );
}
