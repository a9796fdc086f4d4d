import { Paper, Text } from '@mantine/core';
import { formatMinutesSeconds } from '../hooks/use-countdown';

/** The countdown box under a code form (spec.md section 4: 60 s, '⏳ Отправить код повторно можно через m:ss'). */
export function ResendCountdown({ secondsLeft }: { secondsLeft: number }) {
  return (
    <Paper withBorder p="xs" radius="md" bg="gray.0" data-testid="countdown">
      <Text size="sm" aria-live="polite">
        {secondsLeft > 0
          ? `⏳ Отправить код повторно можно через ${formatMinutesSeconds(secondsLeft)}`
          : 'Можно отправить код повторно'}
      </Text>
    </Paper>
  );
}
