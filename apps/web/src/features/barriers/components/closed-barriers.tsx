import { Alert, Button, Stack, Text } from '@mantine/core';
import type { ClosedBarrier } from '@propusk/contracts/barriers';
import { BARRIER_MESSAGES as TEXTS } from '@propusk/contracts/texts/barriers';
import { NAME_FALLBACK } from '@propusk/contracts/texts/common';
import { UserText } from '../../../components/user-text';
import { formatPhone, phoneHref } from '../../../lib/phone';

/**
 * The barriers his administrator closed to him by a block (issue 41 major 2), on «Мои шлагбаумы»: the barrier
 * that left his list, why, and whom to ask (the administrator's number as his phone privacy allows).
 */
export function ClosedBarriers({ barriers }: { barriers: readonly ClosedBarrier[] | undefined }) {
  if (!barriers?.length) return null;
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {barriers.map((barrier) => {
        const callHref = phoneHref(barrier.owner.phone);
        return (
          <li key={barrier.id}>
            <Alert
              color="red.9"
              variant="outline"
              title={<UserText>{barrier.address}</UserText>}
              data-testid="closed-barrier"
            >
              <Stack gap={6}>
                <Text size="sm" fw={600}>
                  {TEXTS.closedByAdmin}
                </Text>
                <Text size="sm">
                  {TEXTS.closedReason} <UserText>{barrier.block_reason}</UserText>
                </Text>
                <Text size="sm">
                  Администратор: <UserText fallback={NAME_FALLBACK}>{barrier.owner.full_name}</UserText>
                  {barrier.owner.phone ? `, ${formatPhone(barrier.owner.phone)}` : ''}
                </Text>
                <Text size="sm">{callHref ? TEXTS.closedAsk : TEXTS.administratorPhoneHidden}</Text>
                {callHref ? (
                  <Button component="a" href={callHref} variant="light" data-testid="call-administrator">
                    {TEXTS.callAdministrator}
                  </Button>
                ) : null}
              </Stack>
            </Alert>
          </li>
        );
      })}
    </Stack>
  );
}
