import { Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { TextLines } from './text-lines';

/**
 * A desk's table (the administrator's lists from 1024 px, components/layout/desk.ts): a caption that names it
 * for a screen reader, header cells, a row saying the list is empty, and `aria-busy` while the previous page
 * stays on screen.
 */
export function DeskTable({
  caption,
  head,
  empty,
  isEmpty,
  busy,
  testId,
  children,
}: {
  caption: string;
  head: ReactNode;
  /** The list's own empty text (the phone's cards say the same). */
  empty: string;
  isEmpty: boolean;
  busy?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table
        striped
        highlightOnHover
        withTableBorder
        verticalSpacing="xs"
        bg="white"
        data-testid={testId}
        aria-busy={busy ?? false}
      >
        <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {isEmpty ? (
            <Table.Tr>
              <Table.Td colSpan={100}>
                <Text c="gray.7">
                  <TextLines text={empty} />
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            children
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** `field` ascending, `-field` descending, undefined: the server's own order. */
export type TableOrdering = string | undefined;

/** The next ordering when a column's header is pressed: ascending first, then descending, then ascending. */
export function nextColumnOrdering(current: TableOrdering, field: string): string {
  return current === field ? `-${field}` : field;
}

/**
 * A header cell that sorts by its column: a button (its name the column's), `aria-sort` on the cell, an arrow
 * for the eye. The list goes back to page 1 (the caller's onSort).
 */
export function SortHeader({
  label,
  field,
  ordering,
  onSort,
}: {
  label: string;
  field: string;
  ordering: TableOrdering;
  onSort: (ordering: string) => void;
}) {
  const direction = ordering === field ? 'ascending' : ordering === `-${field}` ? 'descending' : 'none';
  const arrow = direction === 'ascending' ? '↑' : direction === 'descending' ? '↓' : '↕';
  return (
    <Table.Th aria-sort={direction}>
      <UnstyledButton
        onClick={() => onSort(nextColumnOrdering(ordering, field))}
        fw={700}
        fz="sm"
        mih={44}
        miw={44}
        data-ordering={direction}
      >
        {label} <span aria-hidden="true">{arrow}</span>
      </UnstyledButton>
    </Table.Th>
  );
}
