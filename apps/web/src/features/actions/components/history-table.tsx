import { Table, Text, UnstyledButton } from '@mantine/core';
import { ACTION_TYPE_LABELS, HISTORY_MESSAGES } from '@propusk/contracts/texts/history';
import type { ReactNode } from 'react';
import { DeskTable } from '../../../components/desk-table';
import { formatDateTime } from '../../../lib/dates';
import { formatPhone } from '../../../lib/phone';
import type { ActionList } from '../api/actions-api';

type Action = ActionList['actions'][number];

/**
 * The history on a desk: one row an action (#id, type, time, setting or number, author), newest first as the
 * API gives it (it has no other order); the #id opens the action's details in a row beneath it, as a card
 * does on a phone.
 */
export function HistoryTable({
  list,
  busy,
  openId,
  onToggle,
  author,
  detail,
}: {
  list: ActionList;
  busy: boolean;
  openId: number | null;
  onToggle: (id: number) => void;
  author: (action: Action) => string;
  detail: (id: number) => ReactNode;
}) {
  return (
    <DeskTable
      caption="История изменений"
      testId="history-table"
      busy={busy}
      isEmpty={list.actions.length === 0}
      empty={HISTORY_MESSAGES.empty}
      head={
        <>
          <Table.Th>№</Table.Th>
          <Table.Th>Действие</Table.Th>
          <Table.Th>Когда</Table.Th>
          <Table.Th>Что</Table.Th>
          <Table.Th>Автор</Table.Th>
        </>
      }
    >
      {list.actions.map((action) => (
        <HistoryRow
          key={action.id}
          action={action}
          isOpen={openId === action.id}
          onToggle={() => onToggle(action.id)}
          author={author(action)}
          detail={openId === action.id ? detail(action.id) : null}
        />
      ))}
    </DeskTable>
  );
}

function HistoryRow({
  action,
  isOpen,
  onToggle,
  author,
  detail,
}: {
  action: Action;
  isOpen: boolean;
  onToggle: () => void;
  author: string;
  detail: ReactNode;
}) {
  return (
    <>
      <Table.Tr data-testid="action-card">
        <Table.Td>
          <UnstyledButton fw={600} mih={44} miw={44} aria-expanded={isOpen} onClick={onToggle}>
            #{action.id}
          </UnstyledButton>
        </Table.Td>
        <Table.Td>
          <Text size="sm" fw={600}>
            {ACTION_TYPE_LABELS[action.action_type] ?? action.action_type}
          </Text>
        </Table.Td>
        <Table.Td>
          <Text size="sm">{formatDateTime(action.created_at)}</Text>
        </Table.Td>
        <Table.Td>
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
        </Table.Td>
        <Table.Td>
          <Text size="sm" data-testid="action-author">
            {author}
          </Text>
        </Table.Td>
      </Table.Tr>
      {detail ? (
        <Table.Tr>
          <Table.Td colSpan={5}>{detail}</Table.Td>
        </Table.Tr>
      ) : null}
    </>
  );
}
