import { Button, Group, Text } from '@mantine/core';

interface PagerProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
}

/** Pagination shown as 'N / M' with back and forward buttons (spec.md section 2, history screens). */
export function Pager({ page, totalPages, onChange }: PagerProps) {
  const pages = Math.max(1, totalPages);
  return (
    <Group justify="center" gap="sm" aria-label="Страницы" role="group">
      <Button
        variant="default"
        size="sm"
        disabled={page <= 1}
        onClick={() => onChange(page - 1)}
        aria-label="Назад"
      >
        ←
      </Button>
      <Text data-testid="pager-position" aria-live="polite">
        {page} / {pages}
      </Text>
      <Button
        variant="default"
        size="sm"
        disabled={page >= pages}
        onClick={() => onChange(page + 1)}
        aria-label="Вперёд"
      >
        →
      </Button>
    </Group>
  );
}
