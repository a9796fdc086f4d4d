import { Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { ErrorLine } from '../../../components/status-line';
import { fromDateTimeLocal, quickWindow } from '../../../lib/dates';

const QUICK = [
  { kind: 'three_hours', label: '3 часа' },
  { kind: 'today', label: 'До конца дня' },
  { kind: 'day', label: 'Сутки' },
] as const;

export interface GuestPassWindow {
  start: string;
  end: string;
}

interface GuestPassWindowFormProps {
  onSubmit: (window: GuestPassWindow) => void;
  onCancel: () => void;
  isPending: boolean;
  error: string | null;
  /** Extra fields above the window (the administrator's choice of the resident). */
  children?: ReactNode;
}

/**
 * The window of a new guest pass (issue 14 part 5): quick choices (3 hours, until the end of the day, a day)
 * or a start and an end. Shared by the resident's section and the administrator's screen.
 */
export function GuestPassWindowForm({
  onSubmit,
  onCancel,
  isPending,
  error,
  children,
}: GuestPassWindowFormProps) {
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');

  function submit(chosen: { start_time: string; end_time: string } | null) {
    if (!chosen) return;
    onSubmit({ start: fromDateTimeLocal(chosen.start_time), end: fromDateTimeLocal(chosen.end_time) });
  }

  return (
    <Card withBorder radius="md" data-testid="guest-pass-form">
      <Stack gap="xs">
        {children}
        <Text fw={600}>На какое время?</Text>
        <Group grow>
          {QUICK.map(({ kind, label }) => (
            <Button
              key={kind}
              variant="light"
              loading={isPending}
              onClick={() => submit(quickWindow(kind, new Date()))}
            >
              {label}
            </Button>
          ))}
        </Group>
        <TextInput
          type="datetime-local"
          label="Начало"
          value={start}
          onChange={(event) => setStart(event.currentTarget.value)}
        />
        <TextInput
          type="datetime-local"
          label="Конец"
          value={end}
          onChange={(event) => setEnd(event.currentTarget.value)}
        />
        <ErrorLine message={error} />
        <Button
          disabled={!start || !end}
          loading={isPending}
          onClick={() => submit({ start_time: start, end_time: end })}
        >
          Создать ссылку
        </Button>
        <Button variant="subtle" onClick={onCancel}>
          Отмена
        </Button>
      </Stack>
    </Card>
  );
}
