import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { IMPORT_TYPE_WORDS } from '@propusk/contracts/imports';
import { UserText } from '../../../components/user-text';
import { formatPhone } from '../../../lib/phone';
import type { ImportPreview } from '../api/imports-api';

/** Rows shown at most (a file may hold 5,000): every row with a problem first, then the others. */
const SHOWN_ROWS = 200;

/**
 * The preview's rows, one card each: line, number, name, type, what the import will do with it (the same words
 * for a number with an account and one without), and every problem in red.
 */
export function ImportRows({ rows }: { rows: ImportPreview['rows'] }) {
  const ordered = [
    ...rows.filter((row) => row.problems.length > 0),
    ...rows.filter((row) => row.problems.length === 0),
  ];
  const shown = ordered.slice(0, SHOWN_ROWS);
  return (
    <Stack gap="xs" data-testid="import-rows">
      {shown.map((row) => (
        <Card
          key={row.line}
          withBorder
          radius="md"
          padding="sm"
          data-testid="import-row"
          data-line={row.line}
          data-problems={row.problems.length}
        >
          <Stack gap={2}>
            <Group gap="xs" wrap="wrap">
              <Text size="sm" c="dimmed">
                Строка {row.line}
              </Text>
              <Text size="sm" fw={600}>
                {formatPhone(row.phone) || '—'}
              </Text>
              {row.type ? (
                <Badge variant="light" color="gray">
                  {IMPORT_TYPE_WORDS[row.type]}
                </Badge>
              ) : null}
            </Group>
            {row.name || row.note ? (
              <Text size="sm">
                <UserText>{[row.name, row.note].filter(Boolean).join(', ')}</UserText>
              </Text>
            ) : null}
            {row.outcome ? (
              <Text size="sm" c="dimmed" data-testid="import-outcome">
                {row.outcome.text}
              </Text>
            ) : null}
            {row.problems.map((problem) => (
              <Text key={problem.code} size="sm" c="red.9" data-testid="import-problem">
                {problem.text}
              </Text>
            ))}
          </Stack>
        </Card>
      ))}
      {ordered.length > shown.length ? (
        <Text size="sm" c="dimmed">
          Показаны {shown.length} строк из {ordered.length}.
        </Text>
      ) : null}
    </Stack>
  );
}
