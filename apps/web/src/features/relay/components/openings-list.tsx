import { Badge, Card, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  OPENING_FAILURE_LABELS,
  OPENING_STATUS_LABELS,
  OPENING_VIA_LABELS,
  RELAY_TEXTS,
} from '@propusk/contracts/texts/relay';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { isForbidden, NoAccess } from '../../../components/no-access';
import { Pager } from '../../../components/pager';
import { QueryStatus } from '../../../components/query-status';
import { UserText } from '../../../components/user-text';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/errors';
import { formatPhone } from '../../../lib/phone';
import {
  getOpenings,
  OPENINGS_PAGE_SIZE,
  type OpeningFilters,
  type OpeningStatus,
  openingsQueryKey,
  type RelaySide,
} from '../api/relay-api';
import { OpeningsTable } from './openings-table';

export function openingFailureText(failure: string | null): string {
  return (failure && OPENING_FAILURE_LABELS[failure]) || 'причина неизвестна';
}

const STATUS_COLORS: Record<string, string> = { sent: 'blue.9', confirmed: 'teal.9', failed: 'red.9' };

/** The filters one under another on a phone, in one row on a desk. */
function Filters({ table, children }: { table: boolean; children: ReactNode }) {
  return table ? <SimpleGrid cols={4}>{children}</SimpleGrid> : <Stack gap="xs">{children}</Stack>;
}

/**
 * The openings of a barrier: the user's own, or (administrator) everyone's with filters; `table`: a desk's
 * table instead of the cards.
 */
export function OpeningsList({
  side,
  barrierId,
  table = false,
}: {
  side: RelaySide;
  barrierId: number;
  table?: boolean;
}) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<string>('');
  const [phone, setPhone] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filters: OpeningFilters = {
    status: (status || undefined) as OpeningStatus | undefined,
    phone: side === 'admin' && phone.replace(/\D/g, '') ? phone.replace(/\D/g, '') : undefined,
    requested_from: from ? `${from}T00:00` : undefined,
    requested_to: to ? `${to}T23:59` : undefined,
  };
  const openings = useQuery({
    queryKey: openingsQueryKey(side, barrierId, filters, page),
    queryFn: () => getOpenings(side, barrierId, filters, page),
    refetchInterval: (query) =>
      query.state.data?.openings.some((opening) => opening.status === 'sent') ? 2000 : false,
  });
  const reset = (apply: () => void) => {
    apply();
    setPage(1);
  };
  const totalPages = Math.ceil((openings.data?.total_count ?? 0) / OPENINGS_PAGE_SIZE);
  if (isForbidden(openings.error)) return <NoAccess />;
  return (
    <Stack gap="sm">
      {side === 'admin' ? (
        <Filters table={table}>
          <NativeSelect
            label="Статус"
            value={status}
            onChange={(event) => reset(() => setStatus(event.currentTarget.value))}
            data={[
              { value: '', label: 'Все' },
              ...Object.entries(OPENING_STATUS_LABELS).map(([value, label]) => ({ value, label })),
            ]}
          />
          <TextInput
            label="Телефон"
            inputMode="tel"
            placeholder="Цифры номера"
            value={phone}
            onChange={(event) => reset(() => setPhone(event.currentTarget.value))}
          />
          <DateRange table={table}>
            <TextInput
              type="date"
              label="С"
              value={from}
              onChange={(event) => reset(() => setFrom(event.currentTarget.value))}
            />
            <TextInput
              type="date"
              label="По"
              value={to}
              onChange={(event) => reset(() => setTo(event.currentTarget.value))}
            />
          </DateRange>
        </Filters>
      ) : null}
      <QueryStatus
        isPending={openings.isPending}
        error={openings.error ? errorMessage(openings.error, { fallback: RELAY_TEXTS.loadFailed }) : null}
      />
      {openings.data && table ? (
        <OpeningsTable
          list={openings.data}
          busy={openings.isPlaceholderData}
          statusColors={STATUS_COLORS}
          failureText={openingFailureText}
        />
      ) : null}
      {openings.data && !table && openings.data.openings.length === 0 ? (
        <Text c="gray.7">{RELAY_TEXTS.noOpenings}</Text>
      ) : null}
      {(table ? [] : (openings.data?.openings ?? [])).map((opening) => (
        <Card key={opening.id} withBorder radius="md" data-testid="opening-card">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={2}>
              <Text fw={600}>{formatDateTime(opening.requested_at)}</Text>
              {side === 'admin' ? (
                <Text size="sm">
                  <UserText fallback="Без имени">{opening.user_name}</UserText>,{' '}
                  {formatPhone(opening.user_phone) || 'номер скрыт'}
                </Text>
              ) : null}
              <Text size="sm" c="gray.7">
                {OPENING_VIA_LABELS[opening.via] ?? ''}
                {opening.status === 'failed' ? `, ${openingFailureText(opening.failure)}` : ''}
              </Text>
            </Stack>
            <Badge color={STATUS_COLORS[opening.status] ?? 'dark'} variant="filled">
              {OPENING_STATUS_LABELS[opening.status] ?? opening.status}
            </Badge>
          </Group>
        </Card>
      ))}
      {totalPages > 1 ? <Pager page={page} totalPages={totalPages} onChange={setPage} /> : null}
    </Stack>
  );
}

/** «С» and «По» side by side on a phone; on a desk two cells of the filters' row. */
function DateRange({ table, children }: { table: boolean; children: ReactNode }) {
  return table ? children : <Group grow>{children}</Group>;
}
