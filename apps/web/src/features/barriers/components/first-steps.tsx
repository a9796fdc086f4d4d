import { Button, Card, Stack, Text } from '@mantine/core';
import { BARRIER_MESSAGES as TEXTS } from '@propusk/contracts/texts/barriers';
import { useQuery } from '@tanstack/react-query';
import { barriersQueryKey, getBarriers } from '../api/barriers-api';
import { ClosedBarriers } from './closed-barriers';

/**
 * What a resident without a barrier does next (issue 41 major 5): find his barrier by its address and ask its
 * administrator, or wait for an invitation («Заявки»). `closed`: he had one and its administrator closed it
 * (the closed barrier says so above), so no «пока нет».
 */
export function FirstSteps({ onFind, closed = false }: { onFind: () => void; closed?: boolean }) {
  return (
    <Card withBorder radius="md" data-testid="first-steps">
      <Stack gap="xs">
        {closed ? null : (
          <Text fw={600} size="lg">
            {TEXTS.noBarriersYet}
          </Text>
        )}
        <Text>{TEXTS.firstSteps}</Text>
        <Button onClick={onFind}>{TEXTS.findBarrier}</Button>
      </Stack>
    </Card>
  );
}

/**
 * The profile of a resident with no barrier starts with his next step (and a barrier his administrator closed
 * to him), read with «Мои шлагбаумы»' own first page (one cache entry for both screens). Nothing while it loads,
 * fails or when he has a barrier.
 */
export function ResidentNextStep({ onFind }: { onFind: () => void }) {
  const params = { scope: 'my', page: 1 } as const;
  const list = useQuery({ queryKey: barriersQueryKey(params), queryFn: () => getBarriers(params) });
  if (!list.data || list.data.total_count > 0) return null;
  const closed = list.data.closed_by_admin ?? [];
  return (
    <Stack gap="sm">
      <ClosedBarriers barriers={closed} />
      <FirstSteps onFind={onFind} closed={closed.length > 0} />
    </Stack>
  );
}
