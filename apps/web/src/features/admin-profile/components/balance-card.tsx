import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { useQuery } from '@tanstack/react-query';
import { ErrorLine } from '../../../components/status-line';
import { errorMessage } from '../../../lib/errors';
import { type BalanceResponse, balanceQueryKey, getBalance } from '../api/balance-api';

export const BALANCE_UNKNOWN = 'неизвестен';

export function formatBalance(response: BalanceResponse): string {
  if (response.balance === null) return BALANCE_UNKNOWN;
  const amount = response.balance.toLocaleString('ru-RU', { maximumFractionDigits: 2 });
  const currency = response.currency === null || response.currency === 'RUB' ? '₽' : response.currency;
  return `${amount} ${currency}`;
}

/**
 * The balance block of the administrator profile: the SMS gateway's real balance (`GET /api/admin/balance/`),
 * 'неизвестен' when the gateway reports none (DESIGN.md section 7 replaces the spec's fixed 100 / 543).
 */
export function BalanceCard() {
  const balance = useQuery({ queryKey: balanceQueryKey, queryFn: getBalance });
  return (
    <Card withBorder radius="md">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>Баланс СМС</Text>
          <Text data-testid="balance" aria-live="polite">
            {balance.data ? formatBalance(balance.data) : balance.isPending ? '…' : BALANCE_UNKNOWN}
          </Text>
        </Group>
        <ErrorLine
          message={
            balance.error ? errorMessage(balance.error, { fallback: COMMON_MESSAGES.loadFailed }) : null
          }
        />
        <Button variant="light" loading={balance.isFetching} onClick={() => void balance.refetch()}>
          Проверить баланс
        </Button>
      </Stack>
    </Card>
  );
}
