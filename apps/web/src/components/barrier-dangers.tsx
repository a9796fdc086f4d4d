import { Alert, Badge, Stack, Text } from '@mantine/core';
import type { BarrierDanger } from '@propusk/contracts/barriers';
import { DANGER_TEXTS } from '@propusk/contracts/texts/dangers';
import type { ReactNode } from 'react';

/**
 * Widened access in force (open to every caller, relay left on, an emergency hold): a red block naming each
 * state, with the way to end it (`children`: the administrator's buttons, or who can end it for a resident).
 */
export function BarrierDangers({
  dangers,
  children,
}: {
  dangers: readonly BarrierDanger[] | undefined;
  children?: ReactNode;
}) {
  if (!dangers?.length) return null;
  return (
    <Alert color="red.9" variant="filled" title={DANGER_TEXTS.title} data-testid="barrier-dangers">
      <Stack gap="xs">
        {dangers.map((danger) => (
          <Text key={danger} size="sm" c="white" data-testid={`danger-${danger}`}>
            {DANGER_TEXTS.lines[danger]}
          </Text>
        ))}
        {children}
      </Stack>
    </Alert>
  );
}

/** The same states as short red badges, for a list. */
export function BarrierDangerBadges({ dangers }: { dangers: readonly BarrierDanger[] | undefined }) {
  return (
    <>
      {(dangers ?? []).map((danger) => (
        <Badge key={danger} color="red.9" variant="filled" data-testid={`danger-badge-${danger}`}>
          {DANGER_TEXTS.badges[danger]}
        </Badge>
      ))}
    </>
  );
}
