import { Button, Card, Select, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { isReversedRange } from '@propusk/contracts/actions';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { ACTION_REASON_LABELS, ACTION_TYPE_LABELS, HISTORY_MESSAGES } from '@propusk/contracts/texts/history';
import { PHONE_TYPE_LABELS } from '@propusk/contracts/texts/phones';
import { keepPreviousData, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ExportButtons } from '../../../components/export-buttons';
import { isForbidden, NoAccess } from '../../../components/no-access';
import { Pager } from '../../../components/pager';
import { QueryStatus } from '../../../components/query-status';
import { ErrorLine } from '../../../components/status-line';
import { TextLines } from '../../../components/text-lines';
import { displayText } from '../../../components/user-text';
import { ApiError, NetworkError } from '../../../lib/api-client';
import { formatDateTime, fromDateTimeLocal } from '../../../lib/dates';
import { formatPhone } from '../../../lib/phone';
import {
  type ActionFilters,
  type ActionList,
  type ActionType,
  actionDetailQueryKey,
  actionsQueryKey,
  downloadActionsExport,
  getActionDetail,
  getActions,
  HISTORY_PAGE_SIZE,
  type HistoryScope,
} from '../api/actions-api';
import { HistoryTable } from './history-table';

const ALL_ACTIONS = '';
const TYPE_OPTIONS = [
  { value: ALL_ACTIONS, label: 'Все действия' },
  ...Object.entries(ACTION_TYPE_LABELS).map(([value, label]) => ({ value, label })),
];

const AUTHOR_LABELS: Record<string, string> = {
  user: 'Пользователь',
  admin: 'Администратор',
  system: 'Система',
};

export function reasonLabel(reason: string | null | undefined): string {
  if (!reason) return '-';
  return ACTION_REASON_LABELS[reason] ?? reason;
}

/**
 * The history screens (spec.md section 2 "History screens"): filters by action type and created-from/to,
 * cards '#id', type label and created_at, 'N / M' pagination, and a detail box toggled by clicking a card or
 * 'Скрыть детали'. `scope` = 'admin' for /barrier-history-admin. `table`: a desk's table instead of the
 * cards, the filters in one row.
 */
export function HistoryView({
  scope,
  barrierId,
  userId,
  table = false,
}: {
  scope: HistoryScope;
  barrierId: number;
  /** Administrator side: only this user's phones (his history on /user-profile). */
  userId?: number;
  table?: boolean;
}) {
  const [actionType, setActionType] = useState<string>(ALL_ACTIONS);
  const [createdFrom, setCreatedFrom] = useState('');
  const [createdTo, setCreatedTo] = useState('');
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<number | null>(null);
  const filters: ActionFilters = {
    action_type: (actionType || undefined) as ActionType | undefined,
    created_from: fromDateTimeLocal(createdFrom) || undefined,
    created_to: fromDateTimeLocal(createdTo) || undefined,
    user: userId,
  };
  // A range that ends before it starts could only be empty: it is named instead of asked for.
  const isRangeReversed = isReversedRange(filters.created_from, filters.created_to);
  const list = useQuery({
    queryKey: actionsQueryKey(scope, barrierId, filters, page),
    queryFn: () => getActions(scope, barrierId, filters, page),
    placeholderData: keepPreviousData,
    enabled: !isRangeReversed,
  });
  const totalPages = Math.ceil((list.data?.total_count ?? 0) / HISTORY_PAGE_SIZE);
  const onFilter = (apply: () => void) => {
    apply();
    setPage(1);
    setOpenId(null);
  };

  if (isForbidden(list.error)) return <NoAccess />;
  return (
    <Stack gap="sm">
      <Filters table={table}>
        <Select
          label="Тип действия"
          data={TYPE_OPTIONS}
          value={actionType}
          onChange={(value) => onFilter(() => setActionType(value ?? ALL_ACTIONS))}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
        />
        <TextInput
          type="datetime-local"
          label="Создано с"
          value={createdFrom}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onFilter(() => setCreatedFrom(value));
          }}
        />
        <TextInput
          type="datetime-local"
          label="Создано по"
          value={createdTo}
          onChange={(event) => {
            const value = event.currentTarget.value;
            onFilter(() => setCreatedTo(value));
          }}
        />
      </Filters>
      <ErrorLine message={isRangeReversed ? HISTORY_MESSAGES.reversedRange : null} />
      {scope === 'admin' && !isRangeReversed ? (
        <ExportButtons download={(format) => downloadActionsExport(barrierId, filters, format)} />
      ) : null}
      {isRangeReversed ? null : (
        <HistoryCards
          table={table}
          scope={scope}
          list={list}
          page={page}
          totalPages={totalPages}
          openId={openId}
          setOpenId={setOpenId}
          setPage={setPage}
        />
      )}
    </Stack>
  );
}

/** The filters one under another on a phone, side by side on a desk. */
function Filters({ table, children }: { table: boolean; children: ReactNode }) {
  return table ? <SimpleGrid cols={3}>{children}</SimpleGrid> : children;
}

function HistoryCards({
  table,
  scope,
  list,
  page,
  totalPages,
  openId,
  setOpenId,
  setPage,
}: {
  table: boolean;
  scope: HistoryScope;
  list: UseQueryResult<ActionList>;
  page: number;
  totalPages: number;
  openId: number | null;
  setOpenId: (id: number | null) => void;
  setPage: (page: number) => void;
}) {
  return (
    <>
      <QueryStatus
        isPending={list.isPending}
        error={
          list.error
            ? list.error instanceof NetworkError
              ? HISTORY_MESSAGES.historyNetwork
              : list.error instanceof ApiError && list.error.status === 404
                ? COMMON_MESSAGES.barrierNotFound
                : HISTORY_MESSAGES.historyLoadFailed
            : null
        }
      />
      {list.data && table ? (
        <HistoryTable
          list={list.data}
          busy={list.isPlaceholderData}
          openId={openId}
          onToggle={(id) => setOpenId(openId === id ? null : id)}
          author={(action) => authorLine(action.author, action.author_name)}
          detail={(id) => <ActionDetailBox scope={scope} actionId={id} onHide={() => setOpenId(null)} />}
        />
      ) : null}
      {list.data && !table && list.data.actions.length === 0 ? (
        <Text c="gray.7">
          <TextLines text={HISTORY_MESSAGES.empty} />
        </Text>
      ) : null}
      {(table ? [] : (list.data?.actions ?? [])).map((action) => (
        <Card key={action.id} withBorder radius="md" p={0} data-testid="action-card">
          <UnstyledButton
            p="sm"
            w="100%"
            aria-expanded={openId === action.id}
            onClick={() => setOpenId(openId === action.id ? null : action.id)}
          >
            <Text fw={600}>
              #{action.id} {ACTION_TYPE_LABELS[action.action_type] ?? action.action_type}
            </Text>
            <Text size="sm" c="gray.7">
              {formatDateTime(action.created_at)}
            </Text>
            {action.setting_name ? (
              <Text size="sm" data-testid="action-setting">
                Настройка: {action.setting_name}
              </Text>
            ) : null}
            {action.phone_number ? (
              <Text size="sm" data-testid="action-phone">
                Номер: {formatPhone(action.phone_number)}
              </Text>
            ) : null}
            <Text size="sm" data-testid="action-author">
              {authorLine(action.author, action.author_name)}
            </Text>
          </UnstyledButton>
          {openId === action.id ? (
            <ActionDetailBox scope={scope} actionId={action.id} onHide={() => setOpenId(null)} />
          ) : null}
        </Card>
      ))}
      {list.data && list.data.total_count > 0 ? (
        <Pager
          page={page}
          totalPages={totalPages}
          onChange={(next) => {
            setPage(next);
            setOpenId(null);
          }}
        />
      ) : null}
    </>
  );
}

/** Who did it: the role, and the person's name when there is one ("Администратор: Ольга Петрова"). */
function authorLine(author: string, name: string | null): string {
  const role = AUTHOR_LABELS[author] ?? author;
  const shown = displayText(name);
  return shown ? `${role}: ${shown}` : role;
}

function ActionDetailBox({
  scope,
  actionId,
  onHide,
}: {
  scope: HistoryScope;
  actionId: number;
  onHide: () => void;
}) {
  const detail = useQuery({
    queryKey: actionDetailQueryKey(scope, actionId),
    queryFn: () => getActionDetail(scope, actionId),
  });
  const data = detail.data;
  return (
    <Stack gap={4} p="sm" pt={0} data-testid="action-detail">
      <QueryStatus isPending={detail.isPending} error={null} />
      {detail.error ? (
        <ErrorLine
          message={
            detail.error instanceof NetworkError
              ? HISTORY_MESSAGES.historyDetailNetwork
              : HISTORY_MESSAGES.historyDetailFailed
          }
        />
      ) : null}
      {data ? (
        <>
          <Text size="sm">Автор: {AUTHOR_LABELS[data.action.author] ?? data.action.author}</Text>
          <Text size="sm">Причина: {reasonLabel(data.action.reason)}</Text>
          {data.phone ? (
            <Text size="sm">
              Номер: {formatPhone(data.phone.phone)} ({PHONE_TYPE_LABELS[data.phone.type] ?? data.phone.type})
            </Text>
          ) : null}
        </>
      ) : null}
      <Button size="xs" variant="subtle" onClick={onHide}>
        Скрыть детали
      </Button>
    </Stack>
  );
}
